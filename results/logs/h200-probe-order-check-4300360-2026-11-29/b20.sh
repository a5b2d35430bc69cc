#!/bin/bash
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PROBE_SET=5 .dev/bin/probe_bucket_bits 134217728 268435456 536870912 1073741823 > $OUT/b20.log 2>&1; echo "rc=$?" >> $OUT/b20.log
PROBE_SET=5 .dev/bin/probe_bucket_bits 268435456 >> $OUT/b20.log 2>&1; echo "rc=$?" >> $OUT/b20.log
cat $OUT/b20.log
