nvidia-smi -L
mkdir -p $OUT/r
OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"
(cd build-device && ctest -R 'gpu_sort_v15_counted_small' --output-on-failure > $OUT/r/ctest-small.log 2>&1; echo "ctest small rc=$?"; tail -4 $OUT/r/ctest-small.log)
export LADDER_SORT_V15_COUNTED_FROM=200000
build-device/ladder-tests --gtest_filter='*sort_v15*' > $OUT/r/tests-small.log 2>&1; echo "tests small rc=$? $(grep -E 'PASSED|FAILED' $OUT/r/tests-small.log | tr '\n' ' ')"
grep -c "OK \]" $OUT/r/tests-small.log
for tool in memcheck racecheck synccheck initcheck; do
LADDER_NO_GRAPHS=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build-device/ladder-tests --gtest_filter='Registry/*sort_v15*_n1048583_*' > $OUT/r/san-small-counted-$tool.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/r/san-small-counted-$tool.log | sort | uniq -c | tr '\n' ' ') $(grep -E 'tests? ran|PASSED|FAILED' $OUT/r/san-small-counted-$tool.log | tr '\n' ' ')"
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/ladder-tests --gtest_filter='Registry/*sort_v15*_n1048583_*' > $OUT/r/san-small-counted-graph-memcheck.log 2>&1; echo "graph memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/r/san-small-counted-graph-memcheck.log | sort | uniq -c | tr '\n' ' ') $(grep -E 'tests? ran|PASSED|FAILED' $OUT/r/san-small-counted-graph-memcheck.log | tr '\n' ' ')"
LADDER_SORT_V15_COUNTED_FROM=abc build-device/cuda-ladder --ops=sort --sizes=2^20 --benchmark_filter='^sort/v15_counted_ahead/.*dist:few' --benchmark_repetitions=1 2>&1 | grep -E "v15|LADDER" | head -3
tar -czf $OUT/v15small.tar.gz -C $OUT/r . && rm -rf $OUT/r
