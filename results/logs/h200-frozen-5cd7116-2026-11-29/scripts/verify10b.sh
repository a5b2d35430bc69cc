#!/usr/bin/env bash
# 5cd711663968 on the frozen run's build: v15, v16 and CUB on uniform keys at 1.1e9, 1.5e9 and 2^31 + 17
# (the 16-bit bucket kernel), sorted and few at 2^31 + 17; one repetition, every result checked.
set -u
export LADDER_GIT_COMMIT=$1
T0=$(date +%s)
cd .dev/clean/build-device || exit 1
mkdir -p $OUT/x
F='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:uniform/manual_time$'
timeout 200 ./cuda-ladder --ops=sort --sizes=1100000000,1500000000,2147483665 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/x/cross > $OUT/x/cross.log 2>&1
echo "cross rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/x/cross.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/x/cross.log | head -5
grep -E "manual_time " $OUT/x/cross.log | awk '{print $1, $2, $3}'
F='^sort/(v15_counted_ahead|v16_top_digits_first|cub)/n:[0-9]+/dist:(sorted|few)/manual_time$'
timeout 120 ./cuda-ladder --ops=sort --sizes=2147483665 --benchmark_filter="$F" \
  --benchmark_repetitions=1 --benchmark_context=sweep=large,repetitions=1 --results_dir=$OUT/x/bound > $OUT/x/bound.log 2>&1
echo "bound rc=$? $(( $(date +%s) - T0 ))s"; grep -c "verified=1" $OUT/x/bound.log; grep -i "error\|wrong\|fail\|mismatch" $OUT/x/bound.log | head -5
grep -E "manual_time " $OUT/x/bound.log | awk '{print $1, $2, $3}'
cd $OUT && tar czf cross.tgz x && rm -rf x
