#!/bin/bash
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$(date +%s)
.dev/bin/probe_bucket_bits 2147483648 1500000000 1200000000 > $OUT/b18.log 2>&1; echo "rc=$?" >> $OUT/b18.log
cat $OUT/b18.log; echo "t=$(( $(date +%s) - T0 ))s"
PROBE_ONCE=1 timeout 200 ncu --clock-control none -k regex:"packed16|bucket_sort16" --section SpeedOfLight --section Occupancy \
  --section SchedulerStats --section WarpStateStats --section LaunchStats --section InstructionStats --csv --page details \
  .dev/bin/probe_bucket_bits 2147483648 > $OUT/b18-ncu.csv 2> $OUT/b18-ncu.err; echo "ncu rc=$?"
grep -E "Duration|No Eligible|Active Warps Per Scheduler|Registers Per|Warp Cycles Per Issued|Executed Instructions\"" $OUT/b18-ncu.csv | cut -d, -f5,13,15 | cut -c1-200 | head -30
echo "t=$(( $(date +%s) - T0 ))s"
