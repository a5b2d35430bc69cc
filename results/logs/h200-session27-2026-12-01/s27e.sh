#!/bin/bash
# Session 27, call 7 (H200): copy_if/lab/probe_v06_epoch.cu with `mid`: 2^23, 2^22 and 2^21 (keep50),
# where v08 and v09 run v05 after its clearing kernel: would v09's epoch pipeline win there too?
set -u
nvidia-smi --query-gpu=name --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_epoch.cu common/device.cu -o /tmp/p || exit 1
timeout 150 /tmp/p mid 2>&1 | tee "$OUT/probe_v06_epoch_mid.txt" | grep -v "^round"
echo "probe rc=${PIPESTATUS[0]}"
