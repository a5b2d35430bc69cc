#!/bin/bash
# Session 22, call 4: ./p pollw (the moving polls beside the copy, with and without each tile's
# status written as the scan writes it) twice; then ./p stat32 lazy's escape check alone, which
# did not end within call 3's 200 s timeout, with each case's start printed.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 120 /tmp/p15 pollw > $OUT/probe_v15_pollw-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_pollw-run$r.txt
  grep mismatches $OUT/probe_v15_pollw-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
PROBE_CHECK_ONLY=1 timeout 90 /tmp/p15 stat32 lazy > $OUT/probe_v15_stat32lazy-check.txt 2>&1; echo "check rc=$?"
grep escape $OUT/probe_v15_stat32lazy-check.txt
