#!/usr/bin/env bash
# Session 18: sort's top rung (v17) and CUB on the sorted and few inputs at 2^27, 2^29, 2^30 and
# 2^31 (issue 53's targets for those inputs; the sweeps run uniform only). A closeup file.
set -u
export LADDER_GIT_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo 4629bd2)
T0=$(date +%s)
STEPS=build OUT=$OUT/b bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "built $(( $(date +%s) - T0 ))s"
SWEEP_OPS=sort SWEEP_SIZES=2^27,2^29,2^30,2^31 \
  SWEEP_FILTER='^sort/(v17_constant_buckets|cub)/n:[0-9]+/dist:(sorted|few)/manual_time$' \
  STEPS=sweep OUT=$OUT/closeup GROUP_TIMEOUT=420 bash scripts/device_run.sh > $OUT/steps.txt 2>&1
echo "sweep done $(( $(date +%s) - T0 ))s"; cat $OUT/steps.txt | tail -5
grep -c "verified=1" $OUT/closeup/bench.log; grep -E "manual_time_median" $OUT/closeup/bench.log | cut -c1-120
ls $OUT/closeup; rm -rf $OUT/b
