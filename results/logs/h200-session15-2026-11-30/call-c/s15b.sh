#!/usr/bin/env bash
set -u
mkdir -p $OUT/b
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/b/cfg.txt 2>&1; cmake --build build-device --target sort_probe_merge -j 16 > $OUT/b/build-probe.txt 2>&1 || { tail $OUT/b/build-probe.txt; exit 1; }
cuobjdump -sass build-device/probes/sort_probe_merge > $OUT/b/probe.sass 2>&1; echo sass rc=$? $(wc -l < $OUT/b/probe.sass)
export LADDER_SORT_PART_KEYS=1000000
timeout 200 compute-sanitizer --print-limit 5 ./build-device/probes/sort_probe_merge 25600000 > $OUT/b/san-small.txt 2>&1; echo san rc=$?; tail -25 $OUT/b/san-small.txt
unset LADDER_SORT_PART_KEYS
timeout 300 stdbuf -oL ./build-device/probes/sort_probe_merge 2>&1 | tee $OUT/b/probe_merge-2e32p5.txt; echo rc=$?
