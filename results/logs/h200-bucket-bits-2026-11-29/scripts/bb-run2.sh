#!/bin/bash
# probe_bucket_bits, the second set: 10 to 13 bits in the atomic round, plain counters or not.
nvidia-smi --query-gpu=name --format=csv,noheader
PROBE_SET=2 .dev/bin/probe_bucket_bits > $OUT/bb2.log 2>&1; echo "rc=$?" >> $OUT/bb2.log
cat $OUT/bb2.log
