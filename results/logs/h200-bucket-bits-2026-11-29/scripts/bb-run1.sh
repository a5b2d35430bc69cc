#!/bin/bash
# probe_bucket_bits: timings at four sizes, then ncu on v16's and two variants' kernels at 2^28.
set -x
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
B=.dev/bin/probe_bucket_bits
$B > $OUT/bb.log 2>&1; echo "rc=$?" >> $OUT/bb.log
cat $OUT/bb.log
PROBE_ONCE=1 timeout 200 ncu --clock-control none -k regex:'bucket_(sort|wide|pipelined)' --launch-skip 0 --launch-count 11 \
  --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy \
  $B 268435456 > $OUT/ncu.log 2>&1; echo "ncu rc=$?"
grep -E "bucket_|Duration|Issue Slots Busy|Active Warps Per Scheduler|Eligible Warps|No Eligible|Stall|Achieved Occupancy|Warp Cycles Per Issued" $OUT/ncu.log | head -150
