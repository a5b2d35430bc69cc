#!/usr/bin/env bash
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
( cd build-device && timeout 400 ctest -R '^gpu$' --output-on-failure > $OUT/ctest-gpu.log 2>&1; echo "ctest rc=$?" >> $OUT/ctest-gpu.log )
tail -22 $OUT/ctest-gpu.log
echo "ctest done $(( $(date +%s) - T0 ))s"
LADDER_SORT_PORTION_KEYS=50000 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-device/ladder-tests --gtest_filter='*EdgeSizes*sort_v10_narrow*:*EdgeSizes*sort_pairs_v10_narrow*' --gtest_brief=1 > $OUT/memcheck-portions.log 2>&1
echo "memcheck rc=$? $(( $(date +%s) - T0 ))s"; tail -4 $OUT/memcheck-portions.log
