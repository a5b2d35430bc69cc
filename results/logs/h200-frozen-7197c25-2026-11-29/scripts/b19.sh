#!/bin/bash
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$(date +%s)
PROBE_SET=4 .dev/bin/probe_bucket_bits 134217728 268435456 536870912 1073741823 2147483648 1500000000 1200000000 1100000000 > $OUT/b19.log 2>&1; echo "rc=$?" >> $OUT/b19.log
cat $OUT/b19.log; echo "t=$(( $(date +%s) - T0 ))s"
