#!/bin/bash
# Session 24, call 8: ./p delay2 twice: the scan's look-ahead waits until DLY ns (250 to 2,000)
# after its own tile was reduced (the reduce squad's time), not DLY ns from when it got there.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 200 /tmp/p15 delay2 > $OUT/probe_v15_delay2-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_delay2-run$r.txt
  grep mismatches $OUT/probe_v15_delay2-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
