#!/usr/bin/env bash
# Session 16, call D (H200): 128-byte-aligned stages: scan v15's probe copy; copy_if's variants.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p $OUT/d
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/ps15 > $OUT/d/build-scan.txt 2>&1 &
nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o /tmp/pst > $OUT/d/build-copy_if.txt 2>&1
wait; echo "built t=$(el)s"
stdbuf -oL timeout 200 /tmp/ps15 align > $OUT/d/probe_v15_stores-align.txt 2>&1; echo "scan probe rc=$? t=$(el)s"
sed -n '/^summary/,$p' $OUT/d/probe_v15_stores-align.txt; grep -c "mismatches 0" $OUT/d/probe_v15_stores-align.txt
PROBE_ALIGNED=1 stdbuf -oL timeout 300 /tmp/pst > $OUT/d/probe_v06_stores-aligned.txt 2>&1; echo "copy_if probe rc=$? t=$(el)s"
grep -hE "^summary|^  |control|WRONG|check .*mismatches [1-9]" $OUT/d/probe_v06_stores-aligned.txt | head -80
