#!/usr/bin/env bash
# frozen run, part B: the sweeps (top rungs), the large sizes, the unaligned views
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
mkdir -p $OUT/frozen
if [ ! -x build-device/cuda-ladder ]; then
  STEPS=build OUT=$OUT/frozen bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
  echo "build done $(( $(date +%s) - T0 ))s"
fi
STEPS="${STEPS_B:-sweep unaligned}" SWEEP_TOP_ONLY=1 OUT=$OUT/frozen GROUP_TIMEOUT=${GT:-400} bash scripts/device_run.sh > $OUT/steps.txt 2>&1
echo "steps done $(( $(date +%s) - T0 ))s"; grep "rc=\|===" $OUT/frozen/run.log
ls $OUT/frozen; grep -c "verified=1" $OUT/frozen/bench.log; grep -ci "verified=0\|mismatch" $OUT/frozen/bench.log
if [ -n "${EXTRA:-}" ]; then
  mkdir -p $OUT/extra
  timeout 150 ./build-device/cuda-ladder --ops=sort --sizes=2^30,2^31 \
    --benchmark_filter='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:(sorted|few)/manual_time$' \
    --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/extra > $OUT/extra.log 2>&1
  echo "extra rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/extra.log
  grep -E "manual_time " $OUT/extra.log | awk '{print $1, $2, $3}'
fi
