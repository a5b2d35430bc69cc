#!/usr/bin/env bash
# Session 18, before frozen part A (H200): build, the elementwise GPU tests (v09's dispatch test at
# 2^26 - 1 and 2^26 among them), v09 at 2^31+17 and 2^32+5, compute-sanitizer's four tools on
# v09's small cases, Nsight Compute's counters of add_f32 v08 and CUB at 4,194,304.
set -u
C=$(grep ^COMMIT= .dev/frozen_gpu.sh | cut -d= -f2)
export LADDER_GIT_COMMIT=$C
cd .dev/clean || exit 1
mkdir -p $OUT/checks
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
STEPS=build OUT=$OUT/checks/b bash scripts/device_run.sh > $OUT/checks/build.txt 2>&1 || { tail -30 $OUT/checks/build.txt; exit 1; }
echo "built t=$(el)s"
B=build-device
timeout 150 $B/ladder-tests --gtest_filter='*gelu_f*:*fused_f*:*add_f32*' --gtest_brief=1 > $OUT/checks/tests-elementwise.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED)|FAILED" $OUT/checks/tests-elementwise.txt | head
grep -c "add_f32_v09" $OUT/checks/tests-elementwise.txt
LADDER_HUGE_TESTS=add_f32 timeout 100 $B/ladder-tests --gtest_filter='*BeyondInt32*add_f32_v09*' > $OUT/checks/huge-v09.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/checks/huge-v09.txt | head
for tool in memcheck racecheck synccheck initcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/ladder-tests \
    --gtest_filter='*add_f32_v09*:-*BeyondInt32*:*n25600000*:*Dispatch*' > $OUT/checks/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -cE '^\[       OK' $OUT/checks/sanitizer-$tool.txt) ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' $OUT/checks/sanitizer-$tool.txt | tr '\n' ' ')"
done
echo "checks t=$(el)s"
NCU_SLUGS="v08|cub" timeout 200 bash scripts/ncu_counters.sh $B $OUT/checks/ncu 4194304 add_f32 > $OUT/checks/ncu.txt 2>&1
echo "ncu rc=$? t=$(el)s"; tail -5 $OUT/checks/ncu.txt
(cd $OUT && tar czf checks.tgz checks && rm -rf checks)
