#!/usr/bin/env bash
# Nsight Compute over every registered version at one moderate size: the hardware's own counters
# for each rung's claim (bank conflicts, threads active per instruction, occupancy, DRAM bytes,
# instructions, atomics). Run on a GPU machine:
#   scripts/ncu_counters.sh [BUILD_DIR] [OUT_DIR] [N] [OPS]
#     (defaults: build-device, results/ncu-<gpu>, 4194304, every operator)
# One ncu process per version (the benchmark filter names it), --clock-control none (the clocks
# stay as the card runs them), the L2 flush kernel and the harness's read-ceiling, digest and
# input-generation kernels excluded (at 2^28 the read ceiling alone launches 144 kernels), and
# --no-blocking: the profiler runs kernels one at a time, so the timing's stream-holding kernel
# would wait for a launch that cannot start until it ends. A benchmark launches its version three
# times (check, timed iteration, check): the CSV keeps all three, with any harness kernels left
# around them (older CSVs hold the excluded ones too); scripts/ncu_summary.py drops those, takes
# the timed launch and writes the table the chapters cite (and their per-kernel tables: issue
# active % and warps per scheduler say whether a kernel waits on latency).
set -uo pipefail
cd "$(dirname "$0")/.."
# Sort v15 runs as a CUDA graph with a conditional node, whose kernels Nsight Compute does not
# profile; this makes it launch the same kernels without the graph (sort/v15_counted_ahead.cuh).
export LADDER_NO_GRAPHS=1
BUILD=${1:-build-device}
N=${3:-4194304}
BIN="$BUILD/cuda-ladder"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -1 | tr 'A-Z ' 'a-z-')
OUT=${2:-results/ncu-$gpu}
mkdir -p "$OUT"
rm -f "$OUT/failed.txt"
# DRAM bytes: what crossed the HBM interface during the kernel; writes still sitting in the 60 MB
# L2 when it ends are not among them, so the kernel's own stores are counted at the L2 as well
# (sectors written by the SMs, 32 bytes each). Atomics: warp-level SASS instructions. Threads
# per instruction: active lanes (a branch that splits a warp lowers it) and predicated-on lanes
# (a branch the compiler turned into predication lowers only this one).
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,\
smsp__thread_inst_executed_per_inst_executed.ratio,\
smsp__thread_inst_executed_pred_on_per_inst_executed.ratio,\
sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,\
smsp__sass_inst_executed_op_shared_atom.sum,\
sm__inst_issued.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active
# Every version and the first benchmark distribution of its operator, from the catalog.
"$BIN" --list ${4:+--ops=$4} | python3 -c '
import json, sys
for op in json.load(sys.stdin)["operators"]:
    dists = op["distributions"]
    for v in op["versions"]:
        print(op["name"], v["slug"], dists[0], v["max_n"] or 0)
' | while read -r op slug dist max_n; do
  # NCU_SLUGS (an extended regex) narrows the run to the versions it matches, e.g. "v15|cub".
  [ -n "${NCU_SLUGS:-}" ] && ! [[ "$slug" =~ ^($NCU_SLUGS) ]] && continue
  [ "$max_n" -gt 0 ] && [ "$max_n" -lt "$N" ] && n=$max_n || n=$N
  filter="^$op/$slug/n:$n"
  # operators benchmarked on several distributions put it in the name; the first is the main one
  case "$op" in copy_if | sort | histogram | histogram_u8 | fused_f32 | fused_f16 | row_sum | col_sum) filter="$filter/dist:$dist" ;; esac
  timeout 300 ncu --clock-control none --csv --page raw --metrics "$METRICS" \
    -k 'regex:^(?!.*(flush_read_kernel|read_ceiling_kernel|digest_kernel|generate_kernel))' \
    "$BIN" --ops="$op" --sizes="$n" --benchmark_filter="$filter/" --benchmark_min_time=1x \
    --benchmark_repetitions=1 --no-blocking >"$OUT/${op}__${slug}.csv" 2>"$OUT/${op}__${slug}.log"
  rc=$?
  echo "$op/$slug n=$n rc=$rc"
  [ "$rc" -eq 0 ] || echo "$op/$slug" >>"$OUT/failed.txt"
done
python3 scripts/ncu_summary.py "$OUT" "$OUT/summary.md"
if [ -s "$OUT/failed.txt" ]; then
  echo "ncu_counters: $(wc -l <"$OUT/failed.txt") version(s) failed, listed in $OUT/failed.txt" >&2
  exit 1
fi
