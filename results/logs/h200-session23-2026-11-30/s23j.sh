#!/bin/bash
# Session 23, call 10: after the cluster helpers moved into scan/lab/cluster.cuh (moved unchanged),
# the cluster forms' checks once more: scan's ./p stat32 lazy escape check (PROBE_CHECK_ONLY=1:
# every form, the cluster forms included, against CUB) and copy_if's PROBE_CLUSTER=1 on its first
# input (2^28, keep50: every ordered output against CUB's, the control).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno &
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pc 2>&1 | grep -v Wno
wait
PROBE_CHECK_ONLY=1 timeout 120 /tmp/p15 stat32 lazy > $OUT/probe_v15_stat32lazy-check.txt 2>&1; echo "scan check rc=$?"
grep -i "escape check:.*mismatch" $OUT/probe_v15_stat32lazy-check.txt | cut -c1-110
PROBE_CLUSTER=1 timeout 150 /tmp/pc 0 > $OUT/probe_v06_cluster-check.txt 2>&1; echo "copy_if rc=$?"
grep '^check\|^control' $OUT/probe_v06_cluster-check.txt | sed 's/stages at.*//' | sort | uniq -c
grep -A12 '^summary' $OUT/probe_v06_cluster-check.txt
