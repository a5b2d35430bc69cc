#!/usr/bin/env bash
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
F='Registry/*sort_v10_narrow_status_n1048583*:Registry/*sort_pairs_v10_narrow_status_n1048583*:Registry/*sort_v10_narrow_status_n1000_*'
for tool in memcheck racecheck; do
  LADDER_SORT_PORTION_KEYS=50000 timeout 130 compute-sanitizer --tool $tool --error-exitcode 9 ./build-device/ladder-tests --gtest_filter="$F" --gtest_brief=1 > $OUT/$tool-portions.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED|tests ran" $OUT/$tool-portions.log | head -4
done
