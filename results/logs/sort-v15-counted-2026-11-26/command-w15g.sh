nvidia-smi -L
mkdir -p $OUT/r
OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; tail -2 $OUT/r/run.log
build-device/ladder-tests --gtest_filter='*sort_w15g*:*sort_v15*' --gtest_brief=1 > $OUT/r/tests.log 2>&1; echo "tests rc=$?"; tail -3 $OUT/r/tests.log
F='^sort/(v14_l2_prefetch|w15g|cub)/'
build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter=$F --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/r > $OUT/r/bench.log 2>&1; echo "bench rc=$?"
grep -E "median|ERROR" $OUT/r/bench.log | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//' | head -20
mkdir -p $OUT/r/s24
build-device/cuda-ladder --ops=sort --sizes=2^24,25600000 --benchmark_filter=$F --benchmark_repetitions=5 --benchmark_display_aggregates_only=true --results_dir=$OUT/r/s24 > $OUT/r/bench24.log 2>&1; echo "bench24 rc=$?"
grep -E "median|ERROR" $OUT/r/bench24.log | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//' | head -30
for vd in ${NCU_LIST:-w15g:few:7 w15g:uniform:7}; do
IFS=: read ver dist cnt <<< "$vd"
timeout 200 ncu --clock-control none -k regex:'counted|histogram|bases|onesweep' -c $cnt --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,lts__t_requests_op_red.sum build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter="^sort/$ver/n:268435456/dist:$dist/" --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/r/ncu-$ver-$dist.csv 2>&1; echo "ncu $ver $dist rc=$?"
python3 - $OUT/r/ncu-$ver-$dist.csv <<'PY'
import csv, io, sys
lines = open(sys.argv[1]).read().splitlines()
start = [i for i, l in enumerate(lines) if l.startswith('"ID"')][0]
rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
k = {}
for r in rows:
    k.setdefault(r['ID'], {'name': r['Kernel Name'].split('(')[0][-22:]})[r['Metric Name'][:24]] = r['Metric Value']
for i, m in sorted(k.items(), key=lambda x: int(x[0])):
    print(i, *m.values())
PY
done
tar -czf $OUT/v15gr.tar.gz -C $OUT/r . && rm -rf $OUT/r
