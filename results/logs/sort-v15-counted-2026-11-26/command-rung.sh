nvidia-smi -L
mkdir -p $OUT/r
OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; tail -1 $OUT/r/run.log
build-device/ladder-tests --gtest_filter='*sort_v15*' --gtest_brief=1 > $OUT/r/tests.log 2>&1; echo "tests rc=$?"; tail -3 $OUT/r/tests.log; grep -c "OK \]" $OUT/r/tests.log
if [ "${SAN:-1}" = 1 ]; then
for tool in memcheck racecheck synccheck initcheck; do
timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 build-device/ladder-tests --gtest_filter='Registry/*sort_v15*_n33_*:Registry/*sort_v15*_n1000_*:Registry/*sort_v15*_n1025_*:Registry/*sort_v15*_n257_*' > $OUT/r/san-small-$tool.log 2>&1; echo "small $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/r/san-small-$tool.log | sort | uniq -c | tr '\n' ' ') $(grep -E 'tests? ran' $OUT/r/san-small-$tool.log)"
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/ladder-tests --gtest_filter='Dispatch/*sort_v15*' > $OUT/r/san-dispatch-memcheck.log 2>&1; echo "dispatch memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/r/san-dispatch-memcheck.log | sort | uniq -c | tr '\n' ' ') $(grep -E 'tests? ran|PASSED|FAILED' $OUT/r/san-dispatch-memcheck.log | tr '\n' ' ')"
fi
for sz in 2^27 2^28; do
mkdir -p $OUT/r/$sz
build-device/cuda-ladder --ops=sort --sizes=$sz --benchmark_filter='^sort/(v14_l2_prefetch|v15_counted_ahead|cub)/' --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/r/$sz > $OUT/r/bench-$sz.log 2>&1; echo "bench $sz rc=$?"
grep -E "median|ERROR" $OUT/r/bench-$sz.log | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//'
done
tar -czf $OUT/v15r.tar.gz -C $OUT/r . && rm -rf $OUT/r
