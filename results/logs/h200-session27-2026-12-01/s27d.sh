#!/bin/bash
# Session 27, call 6 (H200, the warm machine of the frozen run and of call 5): every GPU test of ladder-tests
# (the opt-in huge sizes excluded, as by default), from the frozen run's build of 92dbf88
# (.dev/clean/build-device) where it has ladder-tests, else a fresh build: copy_if v09, every
# CopyIfWorkspace and ScanWorkspace test, and every other rung.
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
B=.dev/clean/build-device
if [ ! -x $B/ladder-tests ]; then
  B=build
  cmake -S . -B build > /dev/null && cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE 'error|warning' | head
fi
echo "tests from $B, built t=$(el)s"
timeout 500 $B/ladder-tests --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED" $OUT/tests.txt | head
