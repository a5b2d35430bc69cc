#!/bin/bash
# Session 28, call 3 (H200): copy_if/lab/probe_v06_oracle.cu `stages`: v09's look-ahead (the probe's
# copy of v09's kernel) and the oracle on six and on seven stages (seven fit two blocks an SM with
# 2-byte chunk offsets), beside CUB, v09 and v07: do more bytes in flight hide the look-ahead?
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
timeout 300 /tmp/po stages > "$OUT/probe_v06_oracle_stages.txt" 2>&1
echo "stages rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_stages.txt" | tail -75
