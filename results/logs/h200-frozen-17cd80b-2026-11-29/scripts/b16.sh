#!/bin/bash
# probe_bucket_bits at the 16-bit shape (1,024 x 34): v16's 8 + 8 against 10/11/12 bits.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$(date +%s)
.dev/bin/probe_bucket_bits 2147483648 1200000000 > $OUT/b16.log 2>&1; echo "rc=$?" >> $OUT/b16.log
cat $OUT/b16.log; echo "t=$(( $(date +%s) - T0 ))s"
PROBE_ONCE=1 timeout 240 ncu --clock-control none -k regex:bucket --section SpeedOfLight --section Occupancy \
  --section SchedulerStats --section WarpStateStats --section LaunchStats --csv --page details \
  .dev/bin/probe_bucket_bits 2147483648 > $OUT/b16-ncu.csv 2> $OUT/b16-ncu.err; echo "ncu rc=$?"
grep -E "Duration|Issue Slots Busy|No Eligible|Active Warps Per Scheduler|Registers Per|Achieved Occupancy|Warp Cycles Per Issued" $OUT/b16-ncu.csv | cut -c1-400 | head -60
tail -3 $OUT/b16-ncu.err
echo "t=$(( $(date +%s) - T0 ))s"
