#!/usr/bin/env bash
# racecheck died at once on v16's small hybrid road (1,048,583 keys): find which setting does it
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
[ -x build-device/ladder-tests ] || { STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }; }
echo "build done $(( $(date +%s) - T0 ))s"
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
echo "--- plain, env as in racecheck"; LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000 LADDER_SORT_V16_BUCKET=1024x34 ./build-device/ladder-tests --gtest_filter="$F" --gtest_brief=1 2>&1 | tail -3; echo "rc=${PIPESTATUS[0]}"
for e in "" "LADDER_SORT_V16_HYBRID_FROM=200000" "LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000" "LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=1024x34"; do
  echo "--- racecheck env: [$e]"
  env $e timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 ./build-device/ladder-tests --gtest_filter="$F" 2>&1 | grep -v "^\[ \|^Note" | tail -12; echo "rc=${PIPESTATUS[0]} $(( $(date +%s) - T0 ))s"
done
echo "--- racecheck gdb-less: dmesg-free host trace"; LADDER_SORT_V16_HYBRID_FROM=200000 timeout 60 compute-sanitizer --tool racecheck --show-backtrace yes ./build-device/ladder-tests --gtest_filter="$F" > $OUT/r.log 2>&1; echo rc=$?
F2='^sort_pairs/v12_large_tiles/n:[0-9]+/dist:[a-z]+/manual_time$'
timeout 200 ./build-device/cuda-ladder --ops=sort_pairs --sizes=270999999,271000000,271000001 \
  --benchmark_filter="$F2" --benchmark_repetitions=1 --results_dir=$OUT/b > $OUT/pairs-bounds.log 2>&1
echo "pairs bounds rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/pairs-bounds.log; grep -ci "verified=0\|error\|wrong\|mismatch" $OUT/pairs-bounds.log
grep -E "manual_time " $OUT/pairs-bounds.log | awk '{print $1, $2, $3}'
cd $OUT && tar czf race.tgz *.log b && rm -rf *.log b
