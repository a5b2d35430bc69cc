#!/bin/bash
# Session 24, call 5: ./p mirror3 twice, with three more forms of the mirror warp's polls alone (MX 3 to 5):
# all but its own tile's status, that status alone, the group's first line alone.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 250 /tmp/p15 mirror3 > $OUT/probe_v15_mirror3-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_mirror3-run$r.txt
  grep mismatches $OUT/probe_v15_mirror3-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
