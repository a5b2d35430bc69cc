#!/bin/bash
# Session 23, call 7: copy_if v06's shape with one look-ahead for each thread-block cluster of two
# blocks (kCluster: scan's streaming look-ahead, tiles handed over once counted), PROBE_CLUSTER=1,
# twice, every ordered output checked against CUB's.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pc 2>&1 | grep -v Wno
for r in 1 2; do
  PROBE_CLUSTER=1 timeout 240 /tmp/pc > $OUT/probe_v06_cluster-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A9 '^summary' $OUT/probe_v06_cluster-run$r.txt
  grep '^check\|^control\|^clusters\|^kernel' $OUT/probe_v06_cluster-run$r.txt | grep -v "count ok, mismatches 0" | sort | uniq -c | head -30
done
