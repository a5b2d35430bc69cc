#!/bin/bash
# Session 24, call 2: ./p mirror2 twice: the mirror warp polls a group once its last tile is
# reduced (kMirrorLate), and sleeps 100 ns between polls (kMirrorNap), alone and read by the
# look-ahead.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 200 /tmp/p15 mirror2 > $OUT/probe_v15_mirror2-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_mirror2-run$r.txt
  grep mismatches $OUT/probe_v15_mirror2-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
