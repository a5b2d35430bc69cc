#!/bin/bash
# Session 24, call 6: ./p mirror4 twice: the mirror warp's one poll of its own tile's status, once
# its tile is reduced: every group, every other group, or 500 or 2,000 ns after the reduce.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 200 /tmp/p15 mirror4 > $OUT/probe_v15_mirror4-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_mirror4-run$r.txt
  grep mismatches $OUT/probe_v15_mirror4-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
