#!/usr/bin/env bash
# Sort v16 mended, on one GPU: build, sort tests, sort group (5 reps), sizes past 2^28, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS
export LADDER_GIT_COMMIT=$(cat .dev/commit)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -1 | tr 'A-Z ' 'a-z-')
W=/tmp/w; mkdir -p $W; L=$OUT/run-$gpu.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee -a $L
OUT=$W STEPS=build bash scripts/device_run.sh > $W/build.log 2>&1 || { tail -30 $W/build.log; exit 1; }
echo "build done at $((SECONDS - START)) s" | tee -a $L
T=build-device/ladder-tests
$T --gtest_filter='*sort_v16*:*sort_v15*:HostRegistry*' --gtest_brief=1 > $W/tests.log 2>&1; echo "tests v15 v16 rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $W/tests.log | tr '\n' ' ')" | tee -a $L
(cd build-device && ctest -R 'gpu_sort' --output-on-failure) > $W/ctest.log 2>&1; echo "ctest gpu_sort rc=$? $(grep -E 'tests passed|Passed|Failed' $W/ctest.log | tr '\n' ' ')" | tee -a $L
echo "tests done at $((SECONDS - START)) s" | tee -a $L
OUT=$W STEPS=bench BENCH_GROUPS=sort GROUP_TIMEOUT=200 bash scripts/device_run.sh > $W/bench-step.log 2>&1
cp $W/*-sort.json $OUT/ 2>/dev/null
grep -E "sort rc" $W/run.log | tee -a $L
echo "bench done at $((SECONDS - START)) s" | tee -a $L
mkdir -p $W/large
timeout 170 build-device/cuda-ladder --ops=sort --sizes=271000000,271000001,2^29,1073741823 --benchmark_repetitions=1 \
  --benchmark_filter='^sort/(v15_[a-z_]+|v16_[a-z_]+|cub)/' --results_dir=$W/large > $W/large.log 2>&1
echo "large rc=$?" | tee -a $L
for f in $W/large/*.json; do cp $f $OUT/$(basename $f .json)-large-sort.json; done
grep -E "manual_time" $W/large.log | awk '{print $1, $2}' | tee -a $L
echo "large done at $((SECONDS - START)) s" | tee -a $L
F='Registry/*sort_v16*_n1048583_*'
for tool in memcheck synccheck initcheck; do
  LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_brief=1 \
    --gtest_filter="$F" > $W/san-$tool.log 2>&1
  echo "hybrid 2^20+7 $tool rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $W/san-$tool.log | sort | uniq -c | tr '\n' ' ')" | tee -a $L
done
for sh in default 256x36 1024x17; do for k in starts16_kernel bucket_sort_kernel; do
  [ $sh != default ] && [ $k = starts16_kernel ] && continue
  LADDER_SORT_V16_BUCKET=$([ $sh = default ] && echo 256x4 || echo $sh) LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 \
    --kernel-name kns=$k --launch-count 1 $T --gtest_brief=1 --gtest_filter='Registry/*sort_v16*_n1048583_uniform*' > $W/race-$k-$sh.log 2>&1
  echo "racecheck $k $sh rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $W/race-$k-$sh.log | sort | uniq -c | tr '\n' ' ')" | tee -a $L
done; done
echo "total $((SECONDS - START)) s" | tee -a $L
gzip -f $W/*.log; tar -czf $OUT/logs-$gpu.tar.gz -C $W --exclude='*.json' --exclude=large .
