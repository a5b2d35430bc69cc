#!/usr/bin/env bash
# 5cd711663968: sort v16's bucket passes stop their order check after a warp's first 32 slots when
# those are out of order (bucket_in_order and bucket_sort16_kernel), the stable rounds' counters
# to starts in one helper; a nearly_sorted input for the tests. Build the committed tree in
# .dev/clean (the frozen run's build, reused by its parts); resource usage of the bucket kernels;
# v16's small-road ctests (every distribution, nearly_sorted included); Nsight Compute listing the
# bucket kernels' launches under the sanitizer's settings; compute-sanitizer's four tools with
# 1,024 x 34 and 256 x 18 forced; v16's GPU tests at the default road. Meanwhile a mutant build
# (/tmp/mut: the vote inverted, so a warp whose first 32 slots ARE in order stops checking and
# calls its bucket sorted) whose small-road tests must fail on nearly_sorted.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/v
STEPS=build OUT=$OUT/v bash scripts/device_run.sh > $OUT/v/build.txt 2>&1 || { tail -30 $OUT/v/build.txt; exit 1; }
echo "build done $(( $(date +%s) - T0 ))s"
# the mutant, built in the background
rm -rf /tmp/mut && mkdir -p /tmp/mut && tar --exclude=./build-device -cf - . | tar -xf - -C /tmp/mut
sed -i 's/if (j == 0 \&\& !__all_sync(0xffffffffu, ordered)) break;/if (j == 0 \&\& __all_sync(0xffffffffu, ordered)) break;/' /tmp/mut/sort/v16_top_digits_first.cuh
grep -c "j == 0 && __all_sync" /tmp/mut/sort/v16_top_digits_first.cuh > $OUT/v/mutant-lines.txt
( cd /tmp/mut && cmake -S . -B bm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/mut-build.txt 2>&1 &&
  cmake --build bm -j 8 --target ladder-tests >> /tmp/mut-build.txt 2>&1; echo "mutant build rc=$?" >> /tmp/mut-build.txt ) &
MPID=$!
cd build-device
cuobjdump -res-usage CMakeFiles/ladder_core.dir/sort/sort.cu.o 2>&1 | grep -A1 "bucket_sort16_kernel\|bucket_sort_kernel\|bucket_sort_pairs_kernel" > $OUT/v/res-usage.txt; grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*" $OUT/v/res-usage.txt | tr '\n' ' '; echo
timeout 300 ctest -R "gpu_sort_v16" -j 7 --output-on-failure > $OUT/v/ctest-v16.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - T0 ))s"; grep -E "tests passed|Failed|Passed|\*\*\*" $OUT/v/ctest-v16.log | head -12
F='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for shape in 1024x34 256x18; do
  export LADDER_NO_GRAPHS=1 LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=$shape
  timeout 60 ncu --clock-control none -k regex:bucket_sort --metrics gpu__time_duration.sum ./ladder-tests \
    --gtest_filter="$F" --gtest_brief=1 > $OUT/v/ncu-launches-$shape.log 2>&1
  echo "ncu $shape rc=$? launch lines: $(grep -c 'bucket_sort16_kernel' $OUT/v/ncu-launches-$shape.log) x 16-bit, $(grep -c 'bucket_sort_kernel' $OUT/v/ncu-launches-$shape.log) x 32-bit"
  K=$([ $shape = 1024x34 ] && echo bucket_sort16_kernel || echo bucket_sort_kernel)
  for tool in memcheck racecheck initcheck synccheck; do
    extra=""; [ $tool = racecheck ] && extra="--kernel-name kns=$K --launch-count 1"
    timeout 80 compute-sanitizer --tool $tool $extra --error-exitcode 9 ./ladder-tests \
      --gtest_filter="$F" --gtest_brief=1 > $OUT/v/san-$shape-$tool.log 2>&1
    echo "$shape $tool rc=$? $(( $(date +%s) - T0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/v/san-$shape-$tool.log | head -3
  done
done
unset LADDER_NO_GRAPHS LADDER_SORT_V16_HYBRID_FROM LADDER_SORT_V16_BUCKET
timeout 150 ./ladder-tests --gtest_filter='*sort_v16*:*sort_pairs_v16*' --gtest_brief=1 > $OUT/v/default.log 2>&1
echo "tests rc=$? $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED|tests ran|SKIPPED" $OUT/v/default.log | head -8
wait $MPID; tail -2 /tmp/mut-build.txt; cp /tmp/mut-build.txt $OUT/v/mutant-build.txt
echo "mutant lines changed: $(cat $OUT/v/mutant-lines.txt) $(( $(date +%s) - T0 ))s"
for shape in 256x4 1024x34; do
  M='Registry/*sort_v16_top_digits_first_n25600000_*:Registry/*sort_pairs_v16_top_digits_first_n25600000_*'
  LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=$shape timeout 120 /tmp/mut/bm/ladder-tests \
    --gtest_filter="$M" --gtest_brief=1 > $OUT/v/mutant-$shape.log 2>&1
  echo "mutant $shape rc=$? (must fail) $(( $(date +%s) - T0 ))s"; grep -E "PASSED|FAILED  \]|tests ran" $OUT/v/mutant-$shape.log | head -12
done
cd $OUT && tar czf verify.tgz v && rm -rf v
