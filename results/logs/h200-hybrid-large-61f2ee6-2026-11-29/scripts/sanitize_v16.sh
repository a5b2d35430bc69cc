#!/usr/bin/env bash
# compute-sanitizer's four tools over v16's new kernels at small sizes (issue 53): the hybrid road
# from 200,000 keys, its passes cut into 50,000-key portions, and the 16-bit bucket pass forced.
# One test case of about 1M keys a tool (racecheck and synccheck are slow: one case each).
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
[ -x build-device/ladder-tests ] || { STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }; }
echo "build done $(( $(date +%s) - T0 ))s"
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for shape in 1024x17 1024x34; do
  for tool in memcheck racecheck synccheck initcheck; do
    LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000 LADDER_SORT_V16_BUCKET=$shape \
      timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-device/ladder-tests \
      --gtest_filter="$F" --gtest_brief=1 > $OUT/$tool-$shape.log 2>&1
    echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/$tool-$shape.log | head -3
  done
done
cd $OUT && tar czf sanitize.tgz *.log && rm -f *.log
