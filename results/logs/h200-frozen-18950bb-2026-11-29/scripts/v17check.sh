#!/usr/bin/env bash
# Sort v17 (the third road for skewed inputs whose large buckets hold one key value): build the
# committed tree in .dev/clean (the frozen run's build, reused by its parts), v17's small-road
# ctests (and v16's, whose passes_on gained a flag), a mutant build whose check never reports a
# mixed bucket (gpu_sort_v17_no_sample_check must then fail on few_top), and the benchmark of
# v15, v16, v17 and CUB at 2^27 and 2^28 (uniform, sorted, few).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/v
STEPS=build OUT=$OUT/v bash scripts/device_run.sh > $OUT/v/build.txt 2>&1 || { tail -30 $OUT/v/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
rm -rf /tmp/mut && mkdir -p /tmp/mut && tar --exclude=./build-device -cf - . | tar -xf - -C /tmp/mut
sed -i 's/if (__syncthreads_or(found) \&\& threadIdx.x == 0) \*mixed = 1;/if (__syncthreads_or(found) \&\& threadIdx.x == 0) *mixed = 0;/' /tmp/mut/sort/v17_constant_buckets.cuh
echo "mutant lines: $(grep -c '\*mixed = 0;' /tmp/mut/sort/v17_constant_buckets.cuh)"
( cd /tmp/mut && cmake -S . -B bm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/mut-build.txt 2>&1 &&
  cmake --build bm -j 8 --target ladder-tests >> /tmp/mut-build.txt 2>&1; echo "mutant build rc=$?" >> /tmp/mut-build.txt ) &
MPID=$!
cd build-device
cuobjdump -res-usage CMakeFiles/ladder_core.dir/sort/sort.cu.o 2>&1 | grep -A1 "v17" | grep -o "Function [^ ]*\|REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*" | paste - - > $OUT/v/res-usage.txt; cat $OUT/v/res-usage.txt | cut -c1-160
timeout 280 ctest -R "gpu_sort_v17|gpu_sort_v16_hybrid_small" -j 5 --output-on-failure > $OUT/v/ctest.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; grep -E "tests passed|Failed|Passed|\*\*\*|FAILED" $OUT/v/ctest.log | head -20
wait $MPID; tail -1 /tmp/mut-build.txt; cp /tmp/mut-build.txt $OUT/v/mutant-build.txt
M='Registry/*sort_v17_constant_buckets_n*'
LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V17_NO_SAMPLE_CHECK=1 timeout 60 /tmp/mut/bm/ladder-tests \
  --gtest_filter="$M" --gtest_brief=1 > $OUT/v/mutant.log 2>&1
echo "mutant rc=$? (must fail) $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED  \]|tests ran|differ" $OUT/v/mutant.log | head -12
timeout 200 ./cuda-ladder --ops=sort --sizes=2^27,2^28 --benchmark_repetitions=5 \
  --benchmark_filter='sort/(v15_counted_ahead|v16_top_digits_first|v17_constant_buckets|cub)/' \
  --results_dir=$OUT/v/bench > $OUT/v/bench.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 ))s"; grep -E "_median" $OUT/v/bench.txt | awk '{print $1, $2, $3}' | head -40
cd $OUT && tar czf v17check.tgz v && rm -rf v
