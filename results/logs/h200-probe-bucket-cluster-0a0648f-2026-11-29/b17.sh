#!/bin/bash
# probe_bucket_bits at 2^31: v16's 12+4 bucket kernel against the cluster variants.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$(date +%s)
.dev/bin/probe_bucket_bits 2147483648 > $OUT/b17.log 2>&1; echo "rc=$?" >> $OUT/b17.log
cat $OUT/b17.log; echo "t=$(( $(date +%s) - T0 ))s"
PROBE_ONCE=1 timeout 200 ncu --clock-control none -k regex:bucket_cluster --section SpeedOfLight --section Occupancy \
  --section SchedulerStats --section WarpStateStats --section LaunchStats --csv --page details \
  .dev/bin/probe_bucket_bits 2147483648 > $OUT/b17-ncu.csv 2> $OUT/b17-ncu.err; echo "ncu rc=$?"
grep -E "Duration|Issue Slots Busy|No Eligible|Active Warps Per Scheduler|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Cluster" $OUT/b17-ncu.csv | cut -c1-400 | head -60
tail -3 $OUT/b17-ncu.err
echo "t=$(( $(date +%s) - T0 ))s"
