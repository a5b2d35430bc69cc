#!/usr/bin/env bash
set -u
mkdir -p $OUT/c
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/c/cfg.txt 2>&1; cmake --build build-device --target sort_probe_merge -j 16 > $OUT/c/build-probe.txt 2>&1 || { tail $OUT/c/build-probe.txt; exit 1; }
export LADDER_SORT_PART_KEYS=1000000
timeout 100 compute-sanitizer --print-limit 3 ./build-device/probes/sort_probe_merge 1999999 > $OUT/c/san-2parts.txt 2>&1; echo san rc=$?; cat $OUT/c/san-2parts.txt
timeout 60 ./build-device/probes/sort_probe_merge 25600000 > $OUT/c/small.txt 2>&1; echo small rc=$?; cat $OUT/c/small.txt
unset LADDER_SORT_PART_KEYS
timeout 300 stdbuf -oL ./build-device/probes/sort_probe_merge 2>&1 | tee $OUT/c/probe_merge-2e32p5.txt; echo rc=$?
