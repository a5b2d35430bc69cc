#!/usr/bin/env bash
# Session 16, call A (H200): the ptxas reproducer; copy_if's store and status probe.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/a
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/a/nvidia-smi.txt 2>&1
cat $OUT/a/nvidia-smi.txt
nvcc -O3 -std=c++17 -arch=sm_90 sort/lab/probe_ptxas_merge.cu -o /tmp/repro > $OUT/a/repro.txt 2>&1
echo "repro built rc=$? t=$(el)s"
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pst > $OUT/a/probe_v06_stores-build.txt 2>&1 &
BPID=$!
stdbuf -oL timeout 120 /tmp/repro >> $OUT/a/repro.txt 2>&1; echo "repro rc=$? t=$(el)s"; cat $OUT/a/repro.txt
cuobjdump -sass -fun '_Z10merge_flatILj256ELj8EEvPKjPjmmPKm' /tmp/repro > $OUT/a/repro-sass-256x8.txt 2>&1
echo "sass lines: $(wc -l < $OUT/a/repro-sass-256x8.txt)"
wait $BPID; echo "probe built rc=$? t=$(el)s"; cat $OUT/a/probe_v06_stores.txt 2>/dev/null
stdbuf -oL timeout 400 /tmp/pst > $OUT/a/probe_v06_stores.txt 2>&1; echo "probe rc=$? t=$(el)s"
grep -E "^summary|^  |control|WRONG|check .*mismatches [1-9]" $OUT/a/probe_v06_stores.txt | head -120
