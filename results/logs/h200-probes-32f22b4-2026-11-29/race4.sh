#!/usr/bin/env bash
# racecheck on v16's small hybrid road without graphs, the 1,024 x 17 bucket shape alone (it did
# not finish in 440 s beside the 1,024 x 34 run on 2026-11-29)
T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
export LADDER_GIT_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/ct.log 2>&1 && cmake --build /tmp/bt --target ladder-tests -j 16 >>/tmp/ct.log 2>&1; echo "build rc=$? $(( $(date +%s) - T0 ))s"
F16='Registry/*sort_v16_top_digits_first_n1048583_uniform'
/tmp/bt/ladder-tests --gtest_list_tests --gtest_filter="$F16" | head -5
LEFT=$(( 585 - ($(date +%s) - T0) ))
LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_NO_GRAPHS=1 LADDER_SORT_V16_BUCKET=1024x17 timeout $LEFT \
  compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/bt/ladder-tests --gtest_filter="$F16" > $OUT/race-1024x17-alone.log 2>&1
echo "racecheck rc=$? $(( $(date +%s) - T0 ))s (timeout was ${LEFT}s)"
tail -5 $OUT/race-1024x17-alone.log
