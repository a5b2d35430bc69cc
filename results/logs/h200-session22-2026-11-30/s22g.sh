#!/bin/bash
# Session 22, call 7: Nsight Compute on two of call 6's forms: the copy beside a poller warp
# reading the block's own status lines, which other blocks write or not. L2 sectors over the
# fabric between its halves, the poller's L2 hits, the busiest slice's return path.
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
M=gpu__time_duration.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__lts2xbar_cycles_active.max.pct_of_peak_sustained_elapsed,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed
for c in "copy, Q THR 4, sep poll private" "copy, Q THR 4, sep poll private, statuses written"; do
  echo "=== $c"
  PROBE_ONLY="$c" timeout 40 ncu --clock-control none --kernel-name-base demangled -k 'regex:probe::kernel<' --launch-skip 3 --launch-count 1 --metrics $M /tmp/p15 sep 2>&1 | grep -v '^==PROF==\|^round\|^kernel<'
done > $OUT/ncu_sep.txt 2>&1
grep "===\|lts__\|gpu__time\|rror" $OUT/ncu_sep.txt | awk '{print $1, $NF}'
