#!/usr/bin/env bash
# compute-sanitizer over v16's new kernels (hybrid from 200,000 keys, 50,000-key portions, both
# bucket shapes), then 271,000,000 +- 1 keys for v16 and v12's pairs, every distribution.
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
[ -x build-device/ladder-tests ] || { STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }; }
echo "build done $(( $(date +%s) - T0 ))s"
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for run in "1024x34 memcheck" "1024x34 racecheck" "1024x34 synccheck" "1024x34 initcheck" "1024x17 memcheck" "1024x17 initcheck" "1024x17 racecheck" "1024x17 synccheck"; do
  set -- $run; shape=$1; tool=$2
  LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000 LADDER_SORT_V16_BUCKET=$shape \
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 ./build-device/ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/$tool-$shape.log 2>&1
  echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/$tool-$shape.log | head -3
  [ $(( $(date +%s) - T0 )) -gt 330 ] && break
done
F2='^(sort/v16_top_digits_first|sort_pairs/v12_large_tiles)/n:[0-9]+/dist:[a-z]+/manual_time$'
mkdir -p $OUT/b
timeout $(( 560 - ($(date +%s) - T0) )) ./build-device/cuda-ladder --ops=sort --sizes=270999999,271000000,271000001 \
  --benchmark_filter="$F2" --benchmark_repetitions=1 --results_dir=$OUT/b > $OUT/bounds.log 2>&1
echo "bounds rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/bounds.log; grep -ci "verified=0\|error\|wrong\|mismatch" $OUT/bounds.log
grep -E "manual_time " $OUT/bounds.log | awk '{print $1, $2, $3}'
cd $OUT && tar czf final.tgz *.log b && rm -rf *.log b
