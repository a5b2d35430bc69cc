#!/bin/bash
# Session 25, call 1 (H200), prepared in session 24: the head's first GPU run since v15's refactor
# and v17's mends. Build; scan's GPU tests and every operator's dispatch test (now also unaligned
# at each larger path's smallest n); scan v17 at 2^31 + 17 (HugeTest); compute-sanitizer's four
# tools on v17's dispatch test (its aged kernel at 6,483,969, aligned and at offsets 1 and 3);
# then copy_if's PROBE_AGE=1 (v06's shape with the aged look-ahead).
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
timeout 200 ./build/ladder-tests --gtest_filter='*scan*:Dispatch*:-Huge*' --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/tests.txt | head
LADDER_HUGE_TESTS=scan timeout 90 ./build/ladder-tests --gtest_filter='Huge/*scan_v17*' > $OUT/huge.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/huge.txt | head
for tool in memcheck racecheck synccheck initcheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
    --gtest_filter='Dispatch*scan_v17*' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
done
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pc 2>&1 | grep -v Wno
PROBE_AGE=1 timeout 150 /tmp/pc > $OUT/probe_v06_age.txt 2>&1; echo "probe rc=$? t=$(el)s"
grep -A20 -i '^summary' $OUT/probe_v06_age.txt | head -40
