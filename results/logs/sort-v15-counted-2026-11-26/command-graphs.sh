nvidia-smi -L
mkdir -p $OUT/r
OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; tail -2 $OUT/r/run.log
build-device/ladder-tests --gtest_filter='*sort_w15*:*sort_v15*' --gtest_brief=1 > $OUT/r/tests.log 2>&1; echo "tests rc=$?"; tail -3 $OUT/r/tests.log
F='^sort/(v14_l2_prefetch|v15_counted_ahead|w15w|cub)/.*dist:(uniform|few)'
for sz in 2^24 25600000 2^28; do
mkdir -p $OUT/r/$sz
build-device/cuda-ladder --ops=sort --sizes=$sz --benchmark_filter=$F --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/r/$sz > $OUT/r/bench-$sz.log 2>&1; echo "bench $sz rc=$?"
grep -E "median|ERROR" $OUT/r/bench-$sz.log | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//' | head -20
done
tar -czf $OUT/v15gx.tar.gz -C $OUT/r . && rm -rf $OUT/r
