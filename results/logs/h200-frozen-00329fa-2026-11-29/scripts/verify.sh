#!/usr/bin/env bash
# Sort v16 with the bucket pass's wider atomic round: build the committed tree in .dev/clean (the
# frozen run's build folder, reused by its parts), v16's GPU tests at the default road and on the
# small road with every bucket shape forced, compute-sanitizer on the keys' bucket kernels, and
# sort at 2^27 and 2^28 (v15, v16, CUB; 2 repetitions).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean || exit 1
mkdir -p $OUT/v
STEPS=build OUT=$OUT/v bash scripts/device_run.sh > $OUT/v/build.txt 2>&1 || { tail -30 $OUT/v/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
cd build-device
timeout 200 ./ladder-tests --gtest_filter='*sort_v16*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/v/default.log 2>&1
echo "default rc=$? $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED|tests ran|SKIPPED" $OUT/v/default.log | head -8
timeout 200 ctest -R "gpu_sort_v16" --output-on-failure > $OUT/v/ctest.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; grep -E "Test +#|tests passed|FAILED" $OUT/v/ctest.log | head -12
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for run in "256x10 memcheck" "256x18 memcheck" "256x36 memcheck" "1024x17 memcheck" "256x18 initcheck" "256x18 synccheck" "256x10 racecheck" "256x18 racecheck" "256x36 racecheck" "1024x17 racecheck"; do
  set -- $run; shape=$1; tool=$2
  extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=bucket_sort_kernel --launch-count 1"
  LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=$shape \
    timeout 100 compute-sanitizer --tool $tool $extra --error-exitcode 9 ./ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/v/san-$tool-$shape.log 2>&1
  echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|Skipped" $OUT/v/san-$tool-$shape.log | head -3
done
timeout 150 ./cuda-ladder --ops=sort --sizes=2^27,2^28 --benchmark_filter='v15|v16|cub/' --benchmark_repetitions=2 \
  --benchmark_out=$OUT/v/sort.json --benchmark_out_format=json > $OUT/v/sort.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 ))s"
grep -E "median" $OUT/v/sort.txt | awk '{print $1, $2, $3}' | head -20
cd $OUT && tar czf verify.tgz v && rm -rf v
