#!/usr/bin/env bash
# Session 16, call E (H200): build the frozen tree (.dev/clean, commit $C) once, then the GPU tests
# of scan and copy_if, the huge tests of scan v15 and copy_if v06 at 2^31 + 17, and
# compute-sanitizer's four tools on scan v14, v15 and copy_if v06, v07.
set -u
C=$(sed -n 's/^COMMIT=//p' .dev/frozen_gpu.sh)
export LADDER_GIT_COMMIT=$C
cd .dev/clean || exit 1
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/e
STEPS=build OUT=$OUT/e bash scripts/device_run.sh > $OUT/e/build.txt 2>&1 || { tail -30 $OUT/e/build.txt; exit 1; }
echo "built $C t=$(el)s"; ls build-device/cuda-ladder build-device/ladder-tests
T=build-device/ladder-tests
timeout 240 $T --gtest_filter='*scan*:*copy_if*' --gtest_brief=1 > $OUT/e/tests-scan-copy_if.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "PASSED|FAILED|tests ran|SKIPPED" $OUT/e/tests-scan-copy_if.txt | head -12
LADDER_HUGE_TESTS=scan,copy_if timeout 200 $T --gtest_filter='Huge/*scan_v15*:Huge/*copy_if_v06*' > $OUT/e/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[  |PASSED|FAILED" $OUT/e/huge.txt | tail -8
F='Registry/*scan_v14_*_n1048583_*:Registry/*scan_v15_*_n1048583_*:Registry/*copy_if_v06_*_n1048583_*:Registry/*copy_if_v07_*_n1048583_*'
R='Registry/*scan_v14_*_n1048583_small_signed*:Registry/*scan_v15_*_n1048583_small_signed*:Registry/*copy_if_v06_*_n1048583_keep50*:Registry/*copy_if_v07_*_n1048583_keep50*'
for tool in memcheck racecheck synccheck initcheck; do
  f=$F; lim=70; [ $tool = racecheck ] && { f=$R; lim=100; }
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="$f" --gtest_brief=1 > $OUT/e/san-$tool.txt 2>&1
  echo "$tool rc=$? t=$(el)s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/e/san-$tool.txt | tail -1) $(grep -E 'tests ran|PASSED' $OUT/e/san-$tool.txt | tr '\n' ' ')"
done
cd $OUT && tar czf e.tgz e && rm -rf e && ls -la
