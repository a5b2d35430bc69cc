#!/usr/bin/env bash
# Whichever GPU comes: on an H200 the sort group, the sort sweep, v16's tests and sanitizers;
# on an H100 Nsight Compute over v16 and CUB at 2^28 uniform keys (kernels from the host).
set -uo pipefail
if nvidia-smi -L | grep -q H200; then
  LIMIT=330 bash .dev/pg15.sh sort sweep2 2>&1 | tail -6
  RACE_T=80 RACE_LAUNCHES=1 bash .dev/pg16.sh tests16 race16 2>&1 | tail -14
  F='Registry/*sort_v16*_n1048583_uniform*'
  for tool in memcheck synccheck initcheck; do
    (( SECONDS > 330 )) && { echo "$tool not run (time)"; continue; }
    LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 build-device/ladder-tests --gtest_brief=1 --gtest_filter="$F" > $OUT/san16-h200-$tool.log 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/san16-h200-$tool.log | tr '\n' ' ')"
  done
else
  nvidia-smi -L; echo 'not an H200: nothing run'; exit 3
  if [ ! -x build-device/cuda-ladder ]; then OUT=/tmp STEPS=build bash scripts/device_run.sh > /tmp/build.log 2>&1 || { tail -20 /tmp/build.log; exit 1; }; fi
  mkdir -p $OUT/f; export LADDER_NO_GRAPHS=1 LADDER_GIT_COMMIT=$(cat .dev/commit)
  METRICS=$(sed -n '/^METRICS=/,/per_cycle_active/p' scripts/ncu_counters.sh | tr -d '\\\n' | sed 's/^METRICS=//')
  for slug in v16_top_digits_first cub; do
    timeout 150 ncu --clock-control none --csv --page raw --metrics "$METRICS" -k 'regex:^(?!.*(flush_read_kernel|read_ceiling_kernel|digest_kernel|generate_kernel))' build-device/cuda-ladder --ops=sort --sizes=268435456 --benchmark_filter="^sort/$slug/n:268435456/dist:uniform/" --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/f/sort__$slug.csv 2> $OUT/f/sort__$slug.log
    echo "uniform $slug rc=$? $SECONDS"
  done
  python3 scripts/ncu_summary.py $OUT/f $OUT/f/summary.md | tail -3
  cd $OUT && tar -czf ncu-uniform-h100.tar.gz f && rm -rf f
fi
