nvidia-smi -L
mkdir -p $OUT/r
[ -x build-device/cuda-ladder ] || { OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; }
for dist in few uniform; do
timeout 200 ncu --clock-control none -k regex:'onesweep|histogram|bases' -c 14 --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter="^sort/v14_l2_prefetch/n:268435456/dist:$dist/" --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/r/ncu-v14-$dist.csv 2>&1; echo "ncu $dist rc=$?"
python3 - $OUT/r/ncu-v14-$dist.csv <<'PY'
import csv, io, sys
lines = open(sys.argv[1]).read().splitlines()
start = [i for i, l in enumerate(lines) if l.startswith('"ID"')][0]
rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
k = {}
for r in rows:
    k.setdefault(r['ID'], {'name': r['Kernel Name'].split('(')[0][:60]})[r['Metric Name'].split('__')[1][:18]] = r['Metric Value']
for i, m in sorted(k.items(), key=lambda x: int(x[0])):
    print(i, *m.values())
PY
done
tar -czf $OUT/few.tar.gz -C $OUT/r ncu-v14-few.csv ncu-v14-uniform.csv && rm -rf $OUT/r
