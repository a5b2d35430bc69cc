#!/bin/bash
# Session 23, call 5: ./p latered twice: the look-ahead started once its own tile is reduced
# (kLate | kLateRed) instead of at the claim or once the tile has landed; then the L2 read hits of
# the plain and the late-reduced form under Nsight Compute (one launch each).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 latered > $OUT/probe_v15_latered-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_latered-run$r.txt
  grep mismatches $OUT/probe_v15_latered-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_requests_srcunit_tex_op_read.sum
for c in "scan, Q THR 4" "scan, Q THR 4, late" "scan, Q THR 4, late reduced"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 60 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 latered 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_latered.txt 2>&1
grep "===\|lts__\|gpu__time\|rror" $OUT/ncu_latered.txt | awk '{print $1, $NF}'
