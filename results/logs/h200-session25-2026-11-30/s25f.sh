#!/bin/bash
# Session 25, call 6 (H200), at the head after the frozen run (kernels as at f1e83ab): every GPU
# test of ladder-tests (the opt-in huge sizes excluded, as by default), a last check of the tree
# the frozen run was made from.
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build > /dev/null && cmake --build build -j16 --target ladder-tests 2>&1 | grep -iE 'error|warning' | head
echo "built t=$(el)s"
timeout 380 ./build/ladder-tests --gtest_brief=1 > $OUT/tests.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED" $OUT/tests.txt | head
