#!/usr/bin/env bash
# Session 18: sort v17 on both sides of its last dispatch bound, 2^32 - 1 keys (the 32-bit roads)
# and 2^32 (sorted parts, then the merge), uniform, sorted and few, each result checked against
# the CPU's sort by the benchmark (verified=1), one repetition. The DispatchTest at this bound
# needs LADDER_HUGE_TESTS and every bound's every input, more than one call holds.
set -u
export LADDER_GIT_COMMIT=94394b5
T0=$(date +%s)
STEPS=build OUT=$OUT/b bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "built $(( $(date +%s) - T0 ))s"
timeout 330 stdbuf -oL build-device/cuda-ladder --ops=sort --sizes=4294967295,4294967296 \
  --benchmark_filter='^sort/v17_constant_buckets/' --benchmark_repetitions=1 \
  --benchmark_out=$OUT/nvidia-h200-sort-2e32-bound.json --benchmark_out_format=json > $OUT/bench.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 ))s"
grep -E "v17|ERROR|verified" $OUT/bench.txt | cut -c1-160
rm -rf $OUT/b
