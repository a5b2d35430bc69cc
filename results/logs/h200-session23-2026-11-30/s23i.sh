#!/bin/bash
# Session 23, call 9: PROBE_CLUSTER=1 PROBE_CLUSTER_Q4=1: the cluster form and v06's shape on
# quarter-tile copies with at most four in flight a block (scan's setting), beside the whole-tile
# forms; twice, every ordered output checked.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pc 2>&1 | grep -v Wno
for r in 1 2; do
  PROBE_CLUSTER=1 PROBE_CLUSTER_Q4=1 timeout 240 /tmp/pc > $OUT/probe_v06_cluster_q4-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A10 '^summary' $OUT/probe_v06_cluster_q4-run$r.txt
  grep '^check\|^control\|^clusters\|^kernel' $OUT/probe_v06_cluster_q4-run$r.txt | grep -v "count ok, mismatches 0" | sort | uniq -c | head -30
done
