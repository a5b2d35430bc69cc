#!/usr/bin/env bash
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; L=$OUT/explore.log; t0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee -a $L
cmake -S . -B b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release > $OUT/build.log 2>&1 && cmake --build b -j16 >> $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head; exit 1; }
echo "build $(( $(date +%s) - t0 )) s" | tee -a $L
b/cuda-ladder --list | python3 -c "import json,sys; [print('bounds', v['slug'], v.get('dispatch_bounds')) for o in json.load(sys.stdin)['operators'] if o['name']=='sort' for v in o['versions'] if v['slug'].startswith('v16')]" | tee -a $L
for sh in default 256x36 1024x17 512x34; do
  echo "tests shape=$sh: $(LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=$sh timeout 100 b/ladder-tests --gtest_filter='*sort_v16*' --gtest_brief=1 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|got' | head -5 | tr '\n' ' ')" | tee -a $L
done
B() { tag=$1; shift; timeout 150 "$@" > $OUT/$tag.log 2>&1; echo "$tag rc=$? $(grep -E 'manual_time|ERROR' $OUT/$tag.log | grep -v _mean | awk '{print $1, $2}' | sed 's#/manual_time##; s#_median##' | tr '\n' ' ')" | tee -a $L; }
F='sort/(v15_[a-z_]+|v16_[a-z_]+|cub)'
B b28 b/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter="^$F/" --benchmark_repetitions=3 --benchmark_display_aggregates_only=true
B big b/cuda-ladder --ops=sort --sizes=271000001,2^29,1073741823 --benchmark_filter="^$F/n:[0-9]+/dist:uniform/" --benchmark_repetitions=1
B big_alt env LADDER_SORT_V16_BUCKET=512x18 b/cuda-ladder --ops=sort --sizes=2^29 --benchmark_filter="^sort/v16_[a-z_]+/n:[0-9]+/dist:uniform/" --benchmark_repetitions=1
B big_alt2 env LADDER_SORT_V16_BUCKET=512x34 b/cuda-ladder --ops=sort --sizes=1073741823 --benchmark_filter="^sort/v16_[a-z_]+/n:[0-9]+/dist:uniform/" --benchmark_repetitions=1
B big_sf b/cuda-ladder --ops=sort --sizes=2^29 --benchmark_filter="^$F/n:[0-9]+/dist:(sorted|few)/" --benchmark_repetitions=1
echo "total $(( $(date +%s) - t0 )) s" | tee -a $L
