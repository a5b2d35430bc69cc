#!/bin/bash
# Session 28, call 5 (H200): copy_if/lab/probe_v06_oracle.cu `prepub`: the probe's copy of v09 on
# statuses published before the launch, written again during it or not at all, beside CUB, v09,
# v09's copy as it is, the oracle and v07: is the look-ahead's price its reads, or other blocks'
# writes to the lines it polls?
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po || exit 1
echo "built t=$(el)s"
timeout 300 /tmp/po prepub > "$OUT/probe_v06_oracle_prepub.txt" 2>&1
echo "prepub rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle_prepub.txt" | tail -75
