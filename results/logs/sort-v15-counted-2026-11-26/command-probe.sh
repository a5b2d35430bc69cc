nvidia-smi -L
mkdir -p $OUT/r
OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; tail -1 $OUT/r/run.log
build-device/ladder-tests --gtest_filter="*sort_w15s32*" --gtest_brief=1 > $OUT/r/tests.log 2>&1; echo "tests rc=$?"; tail -2 $OUT/r/tests.log
for ver in v14_l2_prefetch w15s32 w15s w15s16 v14_l2_prefetch w15s32; do
timeout 120 ncu --clock-control none -k regex:'counted|onesweep' -c 4 --csv --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter="^sort/$ver/n:268435456/dist:few/" --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/r/ncu-$ver.csv 2>&1
python3 - $OUT/r/ncu-$ver.csv $ver <<'PY'
import csv, io, sys
lines = open(sys.argv[1]).read().splitlines()
start = [i for i, l in enumerate(lines) if l.startswith('"ID"')][0]
rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
k = {}
for r in rows:
    k.setdefault(r['ID'], {})[r['Metric Name'][:12]] = r['Metric Value']
print(sys.argv[2], ' | '.join(' '.join(m.values()) for i, m in sorted(k.items(), key=lambda x: int(x[0]))))
PY
done
build-device/cuda-ladder --ops=sort --sizes=2^28 --no-blocking --benchmark_filter='^sort/(v14_l2_prefetch|v15_counted_ahead|w15s|w15s32|cub)/.*dist:(uniform|few)' --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/r > $OUT/r/bench-nb.log 2>&1; echo "bench rc=$?"
grep -E 'median|ERROR' $OUT/r/bench-nb.log | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//'
tar -czf $OUT/probe.tar.gz -C $OUT/r . && rm -rf $OUT/r
