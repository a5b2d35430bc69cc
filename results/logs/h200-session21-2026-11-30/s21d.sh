#!/bin/bash
# Session 21, call 4: ./p loads (the look-ahead's status reads as .relaxed.gpu, .cg, .volatile or .L1::no_allocate), twice; and cuobjdump of the look-ahead's loads.
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15 2>&1 | grep -v Wno
for r in 1 2; do
  timeout 150 /tmp/p15 loads > $OUT/probe_v15_loads-run$r.txt 2>&1; echo "run $r rc=$?"
  grep -A30 '^summary' $OUT/probe_v15_loads-run$r.txt
  grep 'grid\|clusters' $OUT/probe_v15_loads-run$r.txt
  grep mismatches $OUT/probe_v15_loads-run$r.txt | grep -v "mismatches 0 " | cut -c1-70 | sort | uniq -c
done
cuobjdump -sass /tmp/p15 > /tmp/p15.sass 2>/dev/null; echo "sass rc=$?"
awk '/Function :/{f=$3} /LDG|LD\.E|ST\.E|STG/{match($0,/(LDG|LD|STG|ST)\.[A-Z0-9._]*/); k[f" "substr($0,RSTART,RLENGTH)]++} END{for(x in k) print k[x], x}' /tmp/p15.sass | sort -k2 > $OUT/ld_kinds_by_kernel.txt
wc -l $OUT/ld_kinds_by_kernel.txt; grep 'Lj16777313E\|Lj285212769E\|Lj553648225E\|Lj1090519137E' $OUT/ld_kinds_by_kernel.txt | grep -v 'LDGSTS' | head -40
