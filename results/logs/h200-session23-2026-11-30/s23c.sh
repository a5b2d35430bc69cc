#!/bin/bash
# Session 23, call 3: ./p bulkpoll twice: the separate poller's round trips as one 2 KiB bulk copy
# (kPollBulk) instead of the warp's loads, on never-written lines, on status lines that the other
# blocks write, and on a far window the next block writes a word a claim. Then the escape check of
# ./p stat32 lazy alone, with the cluster form's escape_step call added in da4a64b (never run).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 bulkpoll > $OUT/probe_v15_bulkpoll-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_bulkpoll-run$r.txt
  grep mismatches $OUT/probe_v15_bulkpoll-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
PROBE_CHECK_ONLY=1 timeout 120 /tmp/p15 stat32 lazy > $OUT/probe_v15_stat32lazy-check.txt 2>&1; echo "check rc=$?"
grep -i "escape\|mismatch" $OUT/probe_v15_stat32lazy-check.txt | cut -c1-110
