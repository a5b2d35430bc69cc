#!/usr/bin/env bash
# Where v17's time goes on `few` at 2^28 (H200): Nsight Compute's duration of each kernel of one
# sort (no graphs: the roads chosen on the host), for the committed v17 and for a variant whose
# count adds one shared atomic a key (no __match_any_sync), which is also timed as the benchmark
# times it.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean || exit 1
mkdir -p $OUT/p
if [ ! -x build-device/cuda-ladder ]; then
STEPS=build OUT=$OUT/p bash scripts/device_run.sh > $OUT/p/build.txt 2>&1 || { tail -30 $OUT/p/build.txt; exit 1; }
fi
echo "build done $(( $(date +%s) - T0 ))s"
rm -rf /tmp/varA && mkdir -p /tmp/varA && tar --exclude=./build-device -cf - . | tar -xf - -C /tmp/varA
cp ../v17_varA.cuh /tmp/varA/sort/v17_constant_buckets.cuh
( cd /tmp/varA && cmake -S . -B bv -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/varA-build.txt 2>&1 &&
  cmake --build bv -j 10 --target cuda-ladder >> /tmp/varA-build.txt 2>&1; echo "variant build rc=$?" >> /tmp/varA-build.txt ) &
VPID=$!
F='sort/v17_constant_buckets/n:268435456/dist:few'
prof() {  # $1 binary, $2 out name
  LADDER_NO_GRAPHS=1 timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum -c 40 $1 --ops=sort \
    --sizes=2^28 --benchmark_filter="$F" --benchmark_repetitions=1 --no-blocking > $OUT/p/$2.txt 2>&1
  echo "$2 rc=$? $(( $(date +%s) - T0 ))s"
  awk '/^  [a-zA-Z_].*\(/ {name=$1} /gpu__time_duration.sum/ {print name, $(NF)}' $OUT/p/$2.txt | sed 's/(.*//' | head -40 | tr '\n' ';'; echo
}
prof ./build-device/cuda-ladder ncu-main
wait $VPID; tail -1 /tmp/varA-build.txt
prof /tmp/varA/bv/cuda-ladder ncu-varA
timeout 100 /tmp/varA/bv/cuda-ladder --ops=sort --sizes=2^28 --benchmark_repetitions=5 \
  --benchmark_filter='sort/(v15_counted_ahead|v17_constant_buckets)/n:268435456/dist:few' > $OUT/p/bench-varA.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 ))s"; grep -E "_median" $OUT/p/bench-varA.txt | awk '{print $1, $2, $3}'
cd $OUT && tar czf prof.tgz p && rm -rf p
