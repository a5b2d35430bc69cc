#!/bin/bash
# Session 23, call 8: PROBE_CLUSTER=1 again with a 100 ns sleep in the cluster look-ahead's idle
# spin and after a round trip that stops short (kClusterNap), and the cluster form and v06's shape
# on quarter-tile copies (at most 6 in flight a block); twice, every ordered output checked.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pc 2>&1 | grep -v Wno
for r in 1 2; do
  PROBE_CLUSTER=1 timeout 240 /tmp/pc > $OUT/probe_v06_cluster2-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A12 '^summary' $OUT/probe_v06_cluster2-run$r.txt
  grep '^check\|^control\|^clusters\|^kernel' $OUT/probe_v06_cluster2-run$r.txt | grep -v "count ok, mismatches 0" | sort | uniq -c | head -30
done
