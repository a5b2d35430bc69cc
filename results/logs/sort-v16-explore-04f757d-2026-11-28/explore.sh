#!/usr/bin/env bash
# Exploration of sort v16's mends and bucket shapes on one GPU (lab; not committed as a result).
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
L=$OUT/explore.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee -a $L
t0=$(date +%s)
cmake -S . -B b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release > $OUT/build.log 2>&1 && cmake --build b -j16 >> $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head; tail -20 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s" | tee -a $L
for sh in ${TEST_SHAPES:-default 256x4 256x10 256x18 512x5 512x9 768x6 1024x5 512x18 1024x9}; do
  echo "tests shape=$sh: $(LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=$sh timeout 120 b/ladder-tests --gtest_filter='*sort_v16*' --gtest_brief=1 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|got' | head -5 | tr '\n' ' ')" | tee -a $L
done
echo "tests plain v16: $(timeout 200 b/ladder-tests --gtest_filter='*sort_v16*' --gtest_brief=1 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure' | head -5 | tr '\n' ' ')" | tee -a $L
echo "elapsed $(( $(date +%s) - t0 )) s" | tee -a $L
F='^sort/(v16_[a-z_]+|cub)/n:268435456/dist:uniform/'
for sh in ${BENCH_SHAPES:-default 512x9 768x6 1024x5 512x18}; do
  LADDER_SORT_V16_BUCKET=$sh timeout 120 b/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter="$F" \
    --benchmark_repetitions=3 --benchmark_display_aggregates_only=true > $OUT/b_$sh.log 2>&1
  echo "shape=$sh $(grep -E 'median' $OUT/b_$sh.log | awk '{print $1, $2}' | sed 's/manual_time_median//' | tr '\n' ' ')" | tee -a $L
done
echo "elapsed $(( $(date +%s) - t0 )) s" | tee -a $L
if [ -n "${FULL:-}" ]; then
  timeout 200 b/cuda-ladder --ops=sort --sizes=2^27,2^28 --benchmark_filter='^sort/(v15_[a-z_]+|v16_[a-z_]+|cub)/' \
    --benchmark_repetitions=3 --benchmark_display_aggregates_only=true > $OUT/full.log 2>&1
  grep -E 'median|ERROR' $OUT/full.log | awk '{print $1, $2}' | sed 's/manual_time_median//' | tee -a $L
fi
if [ -n "${NCU:-}" ]; then
  LADDER_NO_GRAPHS=1 timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum,smsp__inst_executed.sum \
    --kernel-name regex:'sample|count16|reduce16|starts16|fill_status|onesweep|bucket' --launch-skip 0 --launch-count 8 \
    b/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter='^sort/v16_[a-z_]+/n:268435456/dist:uniform/' --no-blocking \
    --benchmark_repetitions=1 > $OUT/ncu.log 2>&1
  grep -E "bucket_sort|onesweep|starts16|count16|reduce16|sample|fill|gpu__time|inst_executed" $OUT/ncu.log | sed -E 's/\(unsigned.*//' | tee -a $L
fi
echo "total $(( $(date +%s) - t0 )) s" | tee -a $L
