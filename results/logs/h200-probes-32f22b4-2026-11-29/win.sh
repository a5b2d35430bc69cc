nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/pw && S=copy_if/v06_warp_specialized.cuh
for W in 16 32 64; do sed -e "s/copy_if::v06 {/copy_if::v06_w$W {/" -e "s/kWindow = 8;/kWindow = $W;/" $S > /tmp/pw/v06_w$W.cuh; done
nvcc -O3 -std=c++17 -arch=sm_90 -I. -I/tmp/pw copy_if/lab/probe_v06_window.cu common/device.cu -o /tmp/pw/p || exit 1
/tmp/pw/p > $OUT/probe_v06_window.txt 2>&1; echo rc=$?
grep -A7 "^summary" $OUT/probe_v06_window.txt; grep -c "WRONG\|MISMATCH" $OUT/probe_v06_window.txt; grep "mismatches [1-9]" $OUT/probe_v06_window.txt | head -3
