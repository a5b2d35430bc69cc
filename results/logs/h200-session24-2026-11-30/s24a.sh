#!/bin/bash
# Session 24, call 1: ./p mirror twice: the look-ahead reads a mirror of the statuses whose lines
# each take one burst from one block (kMirror), with the mirror warp alone (kMirrorIdle), late
# starts, windows of 16 and six quarters in flight.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 200 /tmp/p15 mirror > $OUT/probe_v15_mirror-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_mirror-run$r.txt
  grep mismatches $OUT/probe_v15_mirror-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
