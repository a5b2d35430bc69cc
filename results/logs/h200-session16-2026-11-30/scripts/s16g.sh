#!/usr/bin/env bash
# Session 16, call G (H200): v15's shapes again with the stages aligned (probe_v15_stores align-shapes).
set -u
mkdir -p $OUT/g
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/ps15 > $OUT/g/build.txt 2>&1 || { cat $OUT/g/build.txt; exit 1; }
stdbuf -oL timeout 200 /tmp/ps15 align-shapes > $OUT/g/probe_v15_stores-align-shapes.txt 2>&1; echo "rc=$?"
grep "^kernel" $OUT/g/probe_v15_stores-align-shapes.txt; sed -n '/^summary/,$p' $OUT/g/probe_v15_stores-align-shapes.txt; grep -c "mismatches 0" $OUT/g/probe_v15_stores-align-shapes.txt
