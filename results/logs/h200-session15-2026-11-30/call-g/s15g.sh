#!/usr/bin/env bash
# Session 15, call G (H200): probe_merge's sweep of the shipped loop's shapes and split groups.
set -u
mkdir -p $OUT/g
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/g/cfg.txt 2>&1; cmake --build build-device --target sort_probe_merge -j 16 > $OUT/g/build-probe.txt 2>&1 || { tail $OUT/g/build-probe.txt; exit 1; }
LADDER_SORT_PART_KEYS=1000000 timeout 60 ./build-device/probes/sort_probe_merge 1990000 > $OUT/g/probe-2parts.txt 2>&1; echo "2 parts rc=$?"; cat $OUT/g/probe-2parts.txt
timeout 240 ./build-device/probes/sort_probe_merge > $OUT/g/probe-2e32p5.txt 2>&1; echo "2^32+5 rc=$?"; cat $OUT/g/probe-2e32p5.txt
