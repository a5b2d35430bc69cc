#!/bin/bash
# Session 24, call 7: ./p delay twice: the scan's look-ahead starts DLY ns (500 to 4,000) after its
# own tile is reduced, so that the statuses it reads are older; six quarters in flight, windows of
# 16.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 220 /tmp/p15 delay > $OUT/probe_v15_delay-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_delay-run$r.txt
  grep mismatches $OUT/probe_v15_delay-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
