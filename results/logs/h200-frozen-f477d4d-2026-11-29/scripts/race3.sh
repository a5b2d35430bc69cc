#!/usr/bin/env bash
# racecheck on v16's small hybrid road without graphs (racecheck dies on a conditional node), both
# bucket shapes at once, long timeout (each took over 90 s)
T0=$(date +%s)
F16='Registry/*sort_v16_top_digits_first_n1048583_uniform'
for s in 1024x17 1024x34; do
  ( LADDER_SORT_V16_HYBRID_FROM=200000 LADDER_NO_GRAPHS=1 LADDER_SORT_V16_BUCKET=$s timeout 440 \
      compute-sanitizer --tool racecheck --error-exitcode 9 ./build-device/ladder-tests --gtest_filter="$F16" > $OUT/race-$s.log 2>&1
    echo "$s racecheck rc=$? $(( $(date +%s) - T0 ))s $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/race-$s.log | tr '\n' ' ')" ) &
done
wait
