#!/bin/bash
# Session 23, call 2: ./p sep3 twice: how many write requests a polled line takes, and from which
# SM (kPollMany: 16 one-word stores a line; kPollTrickle: a word each time the block claims). Then
# Nsight Compute's warp states, scheduler and L2 tables for the copy beside a poller of never-written
# lines and beside one of status lines that the other blocks write.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 sep3 > $OUT/probe_v15_sep3-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_sep3-run$r.txt
  grep mismatches $OUT/probe_v15_sep3-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
for c in "copy, Q THR 4, sep poll private" "copy, Q THR 4, sep poll private, statuses written"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 120 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --section LaunchStats --print-details all /tmp/p15 sep3 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_sep3.txt 2>&1
grep -c "" $OUT/ncu_sep3.txt
grep "===\|Duration\|Stall\|stall\|Warp Cycles\|Issued\|Eligible" $OUT/ncu_sep3.txt | head -60
