#!/bin/bash
# Session 25, call 5 (H200): copy_if's PROBE_AGE=1 probe again (call 1 ran it once), so that each
# of its figures has a second run beside it: the aged look-ahead on v06's shape, ages 1,000 to
# 3,000 ns, whole tiles and quarter tiles (at most 4 or 6 in flight).
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pc 2>&1 | grep -v Wno
echo "built t=$(el)s"
PROBE_AGE=1 timeout 150 /tmp/pc > $OUT/probe_v06_age.txt 2>&1; echo "probe rc=$? t=$(el)s"
grep -A14 '^summary' $OUT/probe_v06_age.txt | grep -E "summary|age|=v06" | head -40
