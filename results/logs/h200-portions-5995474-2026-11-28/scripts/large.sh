#!/usr/bin/env bash
# clean tree at HEAD: sweep_large for SWEEP_OPS
cd .dev/clean
export LADDER_GIT_COMMIT=$1
STEPS="build sweep_large" GROUP_TIMEOUT=${GT:-420} LARGE_REPS=${LARGE_REPS:-2} OUT=$OUT bash scripts/device_run.sh
grep -h "rc=\|skip" $OUT/run.log | head; grep -c "verified=1" $OUT/bench.log; grep -i "error\|skipped" $OUT/bench.log | head
ls -la $OUT
