#!/usr/bin/env bash
set -u
mkdir -p $OUT/d
nvcc -O3 -std=c++17 -arch=sm_90 -I. elementwise/lab/probe_add_bulk.cu common/device.cu -o pab > $OUT/d/build.txt 2>&1 || { cat $OUT/d/build.txt; exit 1; }
PROBE_V08=1 stdbuf -oL ./pab > $OUT/d/probe_add_bulk_v08.log 2>&1; echo "pab rc=$?"
cat $OUT/d/probe_add_bulk_v08.log
