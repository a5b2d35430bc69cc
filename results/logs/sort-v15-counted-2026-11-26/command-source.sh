nvidia-smi -L
mkdir -p $OUT/r
[ -x build-device/cuda-ladder ] || { OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; }
timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:counted -c 1 -o $OUT/r/v15-pass1 build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter='^sort/v15_counted_ahead/n:268435456/dist:few/' --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/r/ncu15.log 2>&1; echo "ncu15 rc=$?"
timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:onesweep --launch-skip 1 -c 1 -o $OUT/r/v14-pass1 build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter='^sort/v14_l2_prefetch/n:268435456/dist:few/' --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/r/ncu14.log 2>&1; echo "ncu14 rc=$?"
for v in v15 v14; do
ncu -i $OUT/r/$v-pass1.ncu-rep --page source --csv --print-source sass > $OUT/r/$v-few-pass1-sass.csv 2>&1; echo "src $v rc=$?"
echo "== $v"; python3 scripts/ncu_phases.py $OUT/r/$v-few-pass1-sass.csv
done
gzip -f $OUT/r/*.csv; rm -f $OUT/r/*.ncu-rep
tar -czf $OUT/v15src.tar.gz -C $OUT/r . && rm -rf $OUT/r
