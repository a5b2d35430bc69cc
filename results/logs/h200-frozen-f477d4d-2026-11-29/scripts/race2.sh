#!/usr/bin/env bash
# racecheck and the conditional graph nodes: v16's small hybrid road, v15's counted road, with
# graphs and with LADDER_NO_GRAPHS (the same kernels launched from the host)
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
[ -x build-device/ladder-tests ] || { STEPS=build OUT=$OUT bash scripts/device_run.sh > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }; }
F16='Registry/*sort_v16_top_digits_first_n1048583_uniform'
F15='Registry/*sort_v15_counted_ahead_n1048583_uniform'
H="LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_SORT_PORTION_KEYS=50000"
for c in "v15 $F15 LADDER_SORT_V15_COUNTED_FROM=200000" "v15ng $F15 LADDER_SORT_V15_COUNTED_FROM=200000 LADDER_NO_GRAPHS=1" \
         "v16ng17 $F16 $H LADDER_NO_GRAPHS=1 LADDER_SORT_V16_BUCKET=1024x17" "v16ng34 $F16 $H LADDER_NO_GRAPHS=1 LADDER_SORT_V16_BUCKET=1024x34"; do
  set -- $c; name=$1; f=$2; shift 2
  for tool in racecheck synccheck; do
    env "$@" timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 ./build-device/ladder-tests --gtest_filter="$f" > $OUT/$name-$tool.log 2>&1
    echo "$name [$*] $tool rc=$? $(( $(date +%s) - T0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|did.t terminate' $OUT/$name-$tool.log | tr '\n' ' ')"
  done
done
F2='^sort_pairs/v12_large_tiles/n:[0-9]+/manual_time$'
mkdir -p $OUT/b
timeout 200 ./build-device/cuda-ladder --ops=sort_pairs --sizes=270999999,271000000,271000001 \
  --benchmark_filter="$F2" --benchmark_repetitions=1 --results_dir=$OUT/b > $OUT/pairs-bounds.log 2>&1
echo "pairs bounds rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/pairs-bounds.log; grep -ci "verified=0\|error\|wrong\|mismatch" $OUT/pairs-bounds.log
grep -E "manual_time " $OUT/pairs-bounds.log | awk '{print $1, $2, $3}'
cd $OUT && tar czf race2.tgz *.log b && rm -rf *.log b
