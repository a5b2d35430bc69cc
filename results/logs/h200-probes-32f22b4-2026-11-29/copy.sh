nvidia-smi --query-gpu=name --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_copy.cu common/device.cu -o /tmp/pc || exit 1
/tmp/pc > $OUT/probe_copy.txt 2>&1; echo rc=$?
grep -A12 "^summary" $OUT/probe_copy.txt; grep -c "mismatches [1-9]" $OUT/probe_copy.txt
timeout 150 ncu --clock-control none -c 6 --metrics gpu__time_duration.sum /tmp/pc > $OUT/ncu-first-kernels.txt 2>&1; echo ncu rc=$?
grep -E "Context|duration" $OUT/ncu-first-kernels.txt | head -20
