#!/bin/bash
# Session 24, call 9: ./p delay3: the look-ahead 2,000 to 6,000 ns from its tile's reduce, on
# quarter tiles and on whole tiles: twice at 2^28, once at 2^26 and once at 2^24 (PROBE_LOG2N).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2 26 24; do
  if [ $r -gt 2 ]; then export PROBE_LOG2N=$r; f=$OUT/probe_v15_delay3-2e$r.txt; else f=$OUT/probe_v15_delay3-run$r.txt; fi
  timeout 150 /tmp/p15 delay3 > $f 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $f
  grep mismatches $f | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
