nvidia-smi --query-gpu=name --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15s || exit 1
/tmp/p15s small > $OUT/probe_v15_small.txt 2>&1; echo rc=$?
head -1 $OUT/probe_v15_small.txt; grep -A20 "^summary" $OUT/probe_v15_small.txt; grep -c "mismatches 0" $OUT/probe_v15_small.txt; grep -v "mismatches 0" $OUT/probe_v15_small.txt | grep round | head -3
