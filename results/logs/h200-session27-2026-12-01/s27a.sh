#!/bin/bash
# Session 27, call 1 (H200): copy_if/lab/probe_v06_epoch.cu, its first run.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
git log --oneline -1
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_epoch.cu common/device.cu -o /tmp/p || exit 1
timeout 420 /tmp/p 2>&1 | tee "$OUT/probe_v06_epoch.txt"
echo "probe rc=${PIPESTATUS[0]}"
