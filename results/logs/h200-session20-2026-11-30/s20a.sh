#!/bin/bash
# For the next session (written in the nineteenth, not yet run): scan's kDuo and copy_if's quarters.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
(nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno) &
(nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/p06 2>&1 | grep -v Wno) &
wait
timeout 60 /tmp/p15 duo > $OUT/probe_v15_duo.txt 2>&1; echo "duo rc=$?"
grep -A20 '^summary' $OUT/probe_v15_duo.txt
grep mismatches $OUT/probe_v15_duo.txt | grep -v "mismatches 0 " | cut -c1-60 | sort | uniq -c
for i in 0 3; do PROBE_QUARTERS=1 timeout 60 /tmp/p06 $i >> $OUT/probe_v06_quarters.txt 2>&1; echo "p06 $i rc=$?"; done
grep -A12 '^summary\|control' $OUT/probe_v06_quarters.txt | grep -v '^check\|^kernel'
grep check $OUT/probe_v06_quarters.txt | grep -v 'count ok, mismatches 0'
