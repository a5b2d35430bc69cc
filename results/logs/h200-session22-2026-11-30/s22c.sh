#!/bin/bash
# Session 22, call 3: ./p stat32 lazy (4-byte statuses, the escape words read only for a status
# that stays empty) twice, then Nsight Compute: L2 read requests and hits of three forms.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 200 /tmp/p15 stat32 lazy > $OUT/probe_v15_stat32lazy-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_stat32lazy-run$r.txt
  grep mismatches $OUT/probe_v15_stat32lazy-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
M=gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
for c in "scan, Q THR 4" "stat32, Q THR 4" "stat32 lazy, Q THR 4" "stream 2, Q THR 4, hand late, stat32 lazy"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 100 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 stat32 lazy 2>&1 | grep -v '^==PROF==\|^round\|^kernel<\|^escape'
done > $OUT/ncu_stat32lazy.txt 2>&1
grep "===\|lts__\|gpu__time\|rror" $OUT/ncu_stat32lazy.txt | awk '{print $1, $NF}'
