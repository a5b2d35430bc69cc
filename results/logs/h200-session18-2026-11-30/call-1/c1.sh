#!/usr/bin/env bash
set -x
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
nvcc -O3 -std=c++17 -arch=sm_90 -I. elementwise/lab/probe_add_bulk.cu common/device.cu -o pab || exit 1
PROBE_CROSS=1 stdbuf -oL ./pab 2>&1 | tee $OUT/cross1.txt
PROBE_CROSS=1 stdbuf -oL ./pab 2>&1 | tee $OUT/cross2.txt
PROBE_V08=1 PROBE_LG=18,20,22,24 stdbuf -oL ./pab 2>&1 | tee $OUT/v08small.txt
