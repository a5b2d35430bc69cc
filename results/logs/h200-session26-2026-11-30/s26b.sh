#!/bin/bash
# Session 26, call 2 (H200, the warm machine of call 1, its build): compute-sanitizer's four tools
# on scan v18's dispatch test (its pipeline at 6,483,969 elements, aligned and at offsets 1 and 3)
# and its ScanWorkspace test (one workspace, zeroed once, through 2^24 + 3, both sides of every
# dispatch bound, 2^23 + 11 and offsets 1 and 3).
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
for tool in memcheck racecheck synccheck initcheck; do
  timeout 130 compute-sanitizer --tool $tool --error-exitcode 9 ./build/ladder-tests \
    --gtest_filter='Dispatch*scan_v18*:ScanWorkspace*v18*' > $OUT/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$tool.txt | tr '\n' ' ') t=$(el)s"
done
