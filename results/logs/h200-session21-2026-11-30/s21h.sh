#!/bin/bash
# Session 21, call 8: ./p group2 (group words read with the statuses in one round trip, the look-ahead starting late), twice.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 group2 > $OUT/probe_v15_group2-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_group2-run$r.txt
  grep 'grid\|clusters' $OUT/probe_v15_group2-run$r.txt
  grep mismatches $OUT/probe_v15_group2-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
