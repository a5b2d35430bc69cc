#!/bin/bash
# Session 24, call 10: scan v17 (v17_aged_lookahead): the build, the GPU tests of scan's v16 and
# v17 (edge sizes, distributions, unaligned views, dispatch bounds, random sizes; not the 2^31 + 17
# test), and the benchmark of v15, v16, v17 and CUB at 2^24, 2^26 and 2^28 (5 repetitions).
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
cmake -S . -B build > /dev/null && cmake --build build -j16 --target cuda-ladder ladder-tests 2>&1 | grep -i 'error\|warning' | head
timeout 100 ./build/ladder-tests --gtest_filter='*scan_v17*:*scan_v16*:-Huge*' > $OUT/tests.txt 2>&1; echo "tests rc=$?"
tail -4 $OUT/tests.txt
timeout 120 ./build/cuda-ladder --ops=scan --sizes=2^24,2^26,2^28 --benchmark_filter='^scan/(v15_warp_specialized|v16_size_dispatch|v17_aged_lookahead|cub)/' --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT > $OUT/bench.txt 2>&1; echo "bench rc=$?"
grep median $OUT/bench.txt
