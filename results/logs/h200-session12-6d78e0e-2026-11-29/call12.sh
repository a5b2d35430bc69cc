#!/usr/bin/env bash
# Session 12, call 1 (H200): build sm_90 and the sm_80 build (compute_80 PTX) side by side;
# Nsight Compute's per-kernel duration and DRAM bytes of v17 on few and uniform keys at 2^28
# (no graphs; sort kernels only); v17's four small-road test sets on the sm_80 build; the opt-in
# huge tests of sort and sort_pairs (2^31 + 17).
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
mkdir -p $OUT/c
( cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/c/build90.txt 2>&1 &&
  cmake --build build-device -j 10 --target cuda-ladder ladder-tests >> $OUT/c/build90.txt 2>&1; echo "build90 rc=$?" >> $OUT/c/build90.txt ) &
P90=$!
( cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 > $OUT/c/build80.txt 2>&1 &&
  cmake --build build80 -j 6 --target ladder-tests >> $OUT/c/build80.txt 2>&1; echo "build80 rc=$?" >> $OUT/c/build80.txt ) &
P80=$!
wait $P90; tail -1 $OUT/c/build90.txt; echo "t=$(( $(date +%s) - T0 ))s"
F='sort/v17_constant_buckets/n:268435456/dist:(few|uniform)'
LADDER_NO_GRAPHS=1 timeout 200 ncu --clock-control none --kernel-name-base demangled -k 'regex:sort::' \
  --launch-count 60 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size \
  -o $OUT/c/v17-2e28 ./build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_min_time=0.001 --no-blocking > $OUT/c/ncu.txt 2>&1
echo "ncu rc=$? t=$(( $(date +%s) - T0 ))s"; tail -3 $OUT/c/ncu.txt
ncu --import $OUT/c/v17-2e28.ncu-rep --csv --page raw --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size > $OUT/c/ncu-raw.csv 2>&1
python3 - $OUT/c/ncu-raw.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]; idx = {k: i for i, k in enumerate(h)}
for r in rows[2:]:
    name = r[idx['Kernel Name']].split('(')[0].replace('ladder::sort::', '')[:44]
    print(f"{r[idx['ID']]:>3} {name:44s} {r[idx['gpu__time_duration.sum']]:>10} us? rd {r[idx['dram__bytes_read.sum']]:>10} wr {r[idx['dram__bytes_write.sum']]:>10} sm% {r[idx['sm__throughput.avg.pct_of_peak_sustained_elapsed']]:>6} grid {r[idx['launch__grid_size']]}")
print('units:', [rows[1][idx[k]] for k in ('gpu__time_duration.sum','dram__bytes_read.sum','dram__bytes_write.sum')])
PY
wait $P80; tail -1 $OUT/c/build80.txt; echo "t=$(( $(date +%s) - T0 ))s"
for env in "LADDER_SORT_V16_HYBRID_FROM=200000" \
           "LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V17_NO_SAMPLE_CHECK=1" \
           "LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000" \
           "LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_V16_BUCKET=1024x34 LADDER_SORT_V17_NO_SAMPLE_CHECK=1"; do
  tag=$(echo $env | tr ' =' '_-' | cut -c1-90)
  env $env timeout 100 build80/ladder-tests --gtest_filter='*sort_v17*' --gtest_brief=1 > $OUT/c/arch80-$tag.log 2>&1
  echo "arch80 [$env] rc=$? t=$(( $(date +%s) - T0 ))s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |skip" $OUT/c/arch80-$tag.log | head -4
done
LADDER_HUGE_TESTS=sort,sort_pairs timeout 240 ./build-device/ladder-tests --gtest_filter='Huge/*sort*' > $OUT/c/huge.log 2>&1
echo "huge rc=$? t=$(( $(date +%s) - T0 ))s"; grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) " $OUT/c/huge.log | head -10
cd $OUT && tar czf call12.tgz c && rm -rf c
