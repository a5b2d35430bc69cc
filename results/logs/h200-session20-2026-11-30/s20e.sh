#!/bin/bash
# Session 20, call 8: ./p reps (copies of the statuses), then Nsight Compute: the busiest L2 slice
# (.max) against the mean (.avg) on three forms.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
timeout 150 /tmp/p15 reps > $OUT/probe_v15_reps.txt 2>&1; echo "reps rc=$?"
grep -A20 '^summary' $OUT/probe_v15_reps.txt
grep mismatches $OUT/probe_v15_reps.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
M=gpu__time_duration.sum
for u in lts__t_sectors lts__t_tag_requests lts__d_sectors lts__xbar2lts_cycles_active lts__lts2xbar_cycles_active; do
  M=$M,$u.avg.pct_of_peak_sustained_elapsed,$u.max.pct_of_peak_sustained_elapsed
done
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
for c in "scan, Q THR 4" "scan, Q THR 4, no look (timing)" "scan, Q THR 4, 16 copies"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 150 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 reps 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_reps.txt 2>&1
grep "===\|lts__\|gpu__time\|rror" $OUT/ncu_reps.txt | awk '{print $1, $NF}'
