nvidia-smi -L
mkdir -p $OUT/r
[ -x build-device/cuda-ladder ] || { OUT=$OUT/r STEPS=build bash scripts/device_run.sh > /dev/null 2>&1; echo "build rc=$?"; }
timeout 300 ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:onesweep --launch-skip 2 -c 1 -o $OUT/r/few-pass3 build-device/cuda-ladder --ops=sort --sizes=2^28 --benchmark_filter='^sort/v14_l2_prefetch/n:268435456/dist:few/' --benchmark_min_time=1x --benchmark_repetitions=1 --no-blocking > $OUT/r/ncu.log 2>&1; echo "ncu rc=$?"
ncu -i $OUT/r/few-pass3.ncu-rep --page source --csv --print-source sass > $OUT/r/sort__v14_l2_prefetch-few-pass3-sass.csv 2>&1; echo "src rc=$?"
python3 scripts/ncu_phases.py $OUT/r/sort__v14_l2_prefetch-few-pass3-sass.csv
gzip -f $OUT/r/*.csv; rm -f $OUT/r/*.ncu-rep
tar -czf $OUT/fewsrc.tar.gz -C $OUT/r . && rm -rf $OUT/r
