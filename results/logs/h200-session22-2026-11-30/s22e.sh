#!/bin/bash
# Session 22, call 5: ./p probe (private polls of lines written once first, or far from the
# statuses being written; a look-ahead that polls status t - 1 alone before it reads the run),
# twice.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 120 /tmp/p15 probe > $OUT/probe_v15_probe-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_probe-run$r.txt
  grep mismatches $OUT/probe_v15_probe-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
