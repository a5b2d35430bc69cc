#!/bin/bash
# Session 22, call 2: ./p poll (the pipeline's copy beside a look-ahead warp that only polls:
# lines every block shares, the block's own, or the moving front; the statuses' copies a skewed
# stride apart) twice, then Nsight Compute: mean and busiest L2 slice for the copy with and
# without the shared and private polls.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 170 /tmp/p15 poll > $OUT/probe_v15_poll-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_poll-run$r.txt
  grep mismatches $OUT/probe_v15_poll-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
M=gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
for u in lts__t_sectors lts__t_tag_requests lts__d_sectors lts__lts2xbar_cycles_active; do
  M=$M,$u.avg.pct_of_peak_sustained_elapsed,$u.max.pct_of_peak_sustained_elapsed
done
for c in "copy, Q THR 4" "copy, Q THR 4, poll shared" "copy, Q THR 4, poll private" "copy, Q THR 4, poll moving"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 100 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 poll 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_poll.txt 2>&1
grep "===\|lts__\|gpu__time\|rror" $OUT/ncu_poll.txt | awk '{print $1, $NF}'
