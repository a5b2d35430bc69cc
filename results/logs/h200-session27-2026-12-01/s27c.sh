#!/bin/bash
# Session 27, call 5 (H200), after the frozen run at 92dbf88: the -DCMAKE_CUDA_ARCHITECTURES=80
# build (compute_80 PTX, JIT-compiled on this Hopper, where current_device_runs_sm90_code() is
# false, so v09 takes v08's one-block and v05 paths): copy_if v09's GPU tests and every
# CopyIfWorkspace test (issue 52 asks each new rung for the sm_80 build's tests).
set -u
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/configure80.txt 2>&1 || { tail $OUT/configure80.txt; exit 1; }
cmake --build build80 -j16 --target ladder-tests > $OUT/build80.txt 2>&1 || { grep -E "error" $OUT/build80.txt | head; exit 1; }
echo "built t=$(el)s"
timeout 240 build80/ladder-tests --gtest_filter='*copy_if_v09*:CopyIfWorkspace*:-Huge*' --gtest_brief=1 > $OUT/arch80-copy_if.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED" $OUT/arch80-copy_if.txt | head
