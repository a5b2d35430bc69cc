#!/bin/bash
# Session 28, call 1 (H200): copy_if/lab/probe_v06_oracle.cu's first run (what the 11 µs between
# v09 and v07 at 2^28 keep50 is made of: the look-ahead, the ordered placement or the stores), then
# copy_if/lab/probe_v06_epoch.cu with `sizes` between 7.76 and 15.5 v06 tiles per SM (v09's upper
# bound). Both built at once.
set -u
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o /tmp/po &
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_epoch.cu common/device.cu -o /tmp/pe &
wait
ls -la /tmp/po /tmp/pe || exit 1
echo "built t=$(el)s"
timeout 330 /tmp/po > "$OUT/probe_v06_oracle.txt" 2>&1
echo "oracle rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_oracle.txt" | tail -60
timeout 150 /tmp/pe sizes 4194304,5242880,6291456,7340032,8388608 > "$OUT/probe_v06_epoch_sizes.txt" 2>&1
echo "epoch rc=$? t=$(el)s"; grep -v "^round" "$OUT/probe_v06_epoch_sizes.txt" | tail -30
