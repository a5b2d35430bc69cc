#!/usr/bin/env bash
# After parts B and C, on the frozen run's build: v17's small-road ctests (as shipped and with the
# sample's check off), then compute-sanitizer's four tools on v17's third road (few, 1,048,583 keys)
# and on the check's refusal (few_top with the sample's check off).
set -u
T0=$(date +%s)
cd .dev/clean/build-device || exit 1
mkdir -p $OUT/s
timeout 170 ctest -R "gpu_sort_v17_small|gpu_sort_v17_no_sample_check" -j 2 --output-on-failure > $OUT/s/ctest.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; grep -E "tests passed|Failed|Passed|FAILED" $OUT/s/ctest.log | head
export LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000
for d in few few_top; do
  [ $d = few_top ] && export LADDER_SORT_V17_NO_SAMPLE_CHECK=1
  F="Registry/*sort_v17_constant_buckets_n1048583_$d"
  for tool in memcheck racecheck initcheck synccheck; do
    extra=""; [ $tool = racecheck ] && extra="--kernel-name regex:count32_kernel|check_kernel|bucket_sort"
    timeout 60 compute-sanitizer --tool $tool $extra --error-exitcode 9 ./ladder-tests \
      --gtest_filter="$F" --gtest_brief=1 > $OUT/s/san-$d-$tool.log 2>&1
    echo "$d $tool rc=$? $(( $(date +%s) - T0 ))s $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/s/san-$d-$tool.log | tr '\n' ' ')"
  done
done
cd $OUT && tar czf v17san.tgz s && rm -rf s
