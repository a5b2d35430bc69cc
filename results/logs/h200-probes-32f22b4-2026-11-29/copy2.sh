nvidia-smi --query-gpu=name --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_copy.cu common/device.cu -o /tmp/pc || exit 1
/tmp/pc > $OUT/probe_copy-2.txt 2>&1; echo rc=$?
head -1 $OUT/probe_copy-2.txt; grep -A16 "^summary" $OUT/probe_copy-2.txt; grep -c "mismatches [1-9]" $OUT/probe_copy-2.txt
