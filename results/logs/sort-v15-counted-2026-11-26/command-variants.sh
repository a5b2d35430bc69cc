nvidia-smi -L
mkdir -p $OUT/r
OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; tail -1 $OUT/r/run.log
build-device/cuda-ladder --ops=sort --benchmark_filter='^sort/(v14_l2_prefetch|v15_counted_ahead|w15h|w15a|w15b|w15c)/.*dist:uniform' --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/r > $OUT/r/bench.log 2>&1; echo "bench rc=$?"
grep -E "median" $OUT/r/bench.log | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//'
tar -czf $OUT/v15v.tar.gz -C $OUT/r . && rm -rf $OUT/r
