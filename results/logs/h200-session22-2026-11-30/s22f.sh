#!/bin/bash
# Session 22, call 6: ./p sep (the synthetic polls by one more warp that no handover waits for;
# the scan and the copy with each status published after the `reduced` arrive), twice.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 120 /tmp/p15 sep > $OUT/probe_v15_sep-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_sep-run$r.txt
  grep 'grid' $OUT/probe_v15_sep-run$r.txt | sort | uniq -c
  grep mismatches $OUT/probe_v15_sep-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
