#!/usr/bin/env bash
# Sort v16 on the device: bash .dev/pg16.sh STAGE... (build first if needed). Stages:
#   tests16: v16's GPU tests, and with the hybrid from 200,000 keys; bench16: v14, v15, v16 and CUB
#   at 2^27 and 2^28 (uniform, sorted, few), 5 repetitions; san16: compute-sanitizer over v16 at
#   2^20 + 7 (hybrid from 200,000, kernels from the host) and small sizes; huge16: 2^31 + 17.
set -uo pipefail
START=$SECONDS
export LADDER_GIT_COMMIT=$(cat .dev/commit 2>/dev/null || echo dev)
nvidia-smi -L
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -1 | tr 'A-Z ' 'a-z-')
W=/tmp/pg16-$$; mkdir -p "$W"
if [ ! -x build-device/cuda-ladder ] || [ ! -x build-device/ladder-tests ] || [ -n "${REBUILD:-}" ]; then
  OUT=$W STEPS=build bash scripts/device_run.sh > "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; tar -czf "$OUT/pg16-$gpu-fail.tar.gz" -C "$W" .; exit 1; }
  echo "build done at $((SECONDS - START)) s"
fi
T=build-device/ladder-tests
for st in "$@"; do
  t0=$SECONDS
  case $st in
    tests16) $T --gtest_filter='*sort_v16*:*sort_v15*:HostRegistry*' --gtest_brief=1 >"$W/tests16.log" 2>&1; echo "tests16 rc=$?"; tail -4 "$W/tests16.log"
      LADDER_SORT_V16_HYBRID_FROM=200000 $T --gtest_filter='*sort_v16*' --gtest_brief=1 >"$W/tests16-small.log" 2>&1; echo "tests16 small rc=$?"; tail -4 "$W/tests16-small.log" ;;
    bench16) build-device/cuda-ladder --ops=sort --sizes=2^27,2^28 --benchmark_repetitions=${REPS:-5} \
        --benchmark_filter="${BF:-^sort/(v14_[a-z0-9_]+|v15_[a-z_]+|v16_[a-z_]+|cub)/}" --results_dir="$W/bench16" >"$W/bench16.log" 2>&1
      echo "bench16 rc=$?"; grep -E "median" "$W/bench16.log" | awk '{print $1, $2, $3}' ;;
    san16) F='Registry/*sort_v16*_n1048583_*'
      for tool in memcheck racecheck synccheck initcheck; do
        LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_brief=1 \
          --gtest_filter="$F" >"$W/san16-$tool.log" 2>&1
        echo "hybrid 2^20+7 $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$W/san16-$tool.log" | sort | uniq -c | tr '\n' ' ')"
      done ;;
    sandispatch) LADDER_SORT_V16_HYBRID_FROM=200000 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_brief=1 \
        --gtest_filter='Registry/*sort_v16*_n1048583_*' >"$W/san16-graph-memcheck.log" 2>&1
      echo "graph memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$W/san16-graph-memcheck.log" | sort | uniq -c | tr '\n' ' ')" ;;
    race16) for k in bucket_sort_kernel count16_kernel onesweep_kernel; do
        LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 timeout ${RACE_T:-150} compute-sanitizer --tool racecheck --error-exitcode 9 \
          --kernel-name kns=$k --launch-count ${RACE_LAUNCHES:-2} $T --gtest_brief=1 --gtest_filter='Registry/*sort_v16*_n1048583_uniform*' >"$W/race16-$k.log" 2>&1
        echo "racecheck $k rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' "$W/race16-$k.log" | sort | uniq -c | tr '\n' ' ')"
      done ;;
    huge16) LADDER_HUGE_TESTS=sort timeout 150 $T --gtest_filter='Huge/*sort_v16*' >"$W/huge16.log" 2>&1; echo "huge16 rc=$?"; grep -E "OK|FAILED|SKIPPED|PASSED" "$W/huge16.log" | head ;;
  esac
  echo "$st done in $((SECONDS - t0)) s (at $((SECONDS - START)) s)"
done
gzip -f "$W"/*.log 2>/dev/null
tar -czf "$OUT/pg16-$gpu-$(date +%H%M%S).tar.gz" -C "$W" .
