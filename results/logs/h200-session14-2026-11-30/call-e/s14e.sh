#!/usr/bin/env bash
# Session 14, call E (H200): Nsight Compute on the parts road's merge round at 2^32 + 5 uniform keys:
# how v17's time splits between the split search and the merge.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/e
[ -x build-device/cuda-ladder ] || { cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/e/build.txt 2>&1 &&
  cmake --build build-device -j 16 --target cuda-ladder >> $OUT/e/build.txt 2>&1 || { tail -20 $OUT/e/build.txt; exit 1; }; }
echo "built t=$(el)s"
timeout 200 ncu --clock-control none -k regex:merge --launch-count 2 \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
  ./build-device/cuda-ladder --ops=sort --sizes=2^32+5 --benchmark_filter='^sort/v17_.*uniform' \
  --benchmark_repetitions=1 > $OUT/e/ncu-merge-2e32p5.txt 2>&1
echo "ncu rc=$? t=$(el)s"
grep -E "merge|gpu__time|dram__bytes|launch__|warps_active|verified" $OUT/e/ncu-merge-2e32p5.txt | cut -c1-150
