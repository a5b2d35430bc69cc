set -x
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
(nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o /tmp/p15s 2>&1 | tail -5) &
(nvcc -std=c++17 --expt-relaxed-constexpr -arch=sm_90 -O3 -I. -o /tmp/plh reduce/lab/probe_load_hint.cu 2>&1 | tail -5) &
wait
/tmp/p15s 2>&1 | tee $OUT/probe_v15_stores.txt
/tmp/plh 31 2>&1 | tee $OUT/probe_load_hint_31.txt
