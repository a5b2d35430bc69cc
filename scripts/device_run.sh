#!/usr/bin/env bash
# One run on a machine with a GPU: build, test, sanitize a sample, benchmark, and collect the
# logs and the raw JSON in one folder, $OUT (default ./device-out). The committed results were
# made with it. Example:
#   OUT=out STEPS="build tests bench" BENCH_GROUPS="reduce scan" bash scripts/device_run.sh \
#     [extra cuda-ladder flags]
# Options (environment variables):
#   STEPS         the phases, in this order (default: build tests sanitizer bench extra):
#                 build      configure and build into build-device/ for the GPUs it sees
#                 tests      ctest -V into $OUT/tests.log.gz
#                 sanitizer  compute-sanitizer's four tools over every version at small sizes;
#                            one log a tool and $OUT/sanitizer-summary.md
#                 bench      the benchmark, one cuda-ladder process per group (5 repetitions)
#                 unaligned  scan and copy_if's last rungs and CUB on a 2^28 view one element
#                            off alignment
#                 extra      the error paths (a size that does not fit, a kernel that faults) and
#                            the best rungs at 2^31 + 17
#                 sweep      2^10 .. 2^27 for v01, v02, the last rungs and CUB of each operator
#                 sweep_large  2^29, 2^30 and 2^31 for each operator's top rung and CUB
#                            (LARGE_REPS repetitions, default 2; sizes that do not fit the GPU's
#                            memory skip with one line)
#                 arch80     the -DCMAKE_CUDA_ARCHITECTURES=80 build's tests and benchmark here
#                 huge       the opt-in tests at 2^31 + 17 and 2^32 + 5, and sort's at 271,000,000 and 2^30 keys
#                            +-1 on every input (HUGE_OPS=op1,op2 narrows them)
#                 ncu        Nsight Compute over every version (NCU_OPS, NCU_SLUGS narrow it), as
#                            one tar.gz
#                 probes     the standalone probes named in PROBES (paths of */lab/probe_*.cu)
#   BENCH_GROUPS  the benchmark groups (default: all); each is its own process with its own time
#                 limit, GROUP_TIMEOUT seconds (default 300), writing $OUT/<gpu>-<group>.json, so
#                 a group that runs out of time loses only itself (Google Benchmark writes the
#                 JSON's closing brackets at exit)
#   SWEEP_OPS, SWEEP_SIZES, SWEEP_FILTER, SWEEP_TOP_ONLY  narrow the sweep (see that step)
# The sanitizer step alone takes many minutes on a large GPU; run it on its own if the machine
# is lent for a limited time.
# A frozen run (what the chapters quote): STEPS="build bench sweep sweep_large unaligned" from one
# committed tree (LADDER_GIT_COMMIT=<sha> where the build cannot see .git), SWEEP_TOP_ONLY=1, then
# here `python3 scripts/freeze.py <OUT folders>`, plots.py and report.py.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-device-out}
STEPS=${STEPS:-build tests sanitizer bench extra}
BENCH_GROUPS=${BENCH_GROUPS:-reduce axis scan sort elementwise transfer copy_if histogram}
GROUP_TIMEOUT=${GROUP_TIMEOUT:-300}
mkdir -p "$OUT"
BUILD=build-device
LOG="$OUT/run.log"
log() { echo "=== $* ($(date +%T))" | tee -a "$LOG"; }
has() { [[ " $STEPS " == *" $1 "* ]]; }
ops_of() {
  case "$1" in
    elementwise) echo "gelu_f32,gelu_f16,fused_f32,fused_f16,add_f32" ;;
    histogram) echo "histogram,histogram_u8" ;;
    axis) echo "row_sum,col_sum" ;;
    transfer) echo "h2d,d2h,host_sum,pipeline_gelu" ;;
    sort) echo "sort,sort_pairs" ;;
    *) echo "$1" ;;
  esac
}

if has build; then
  log configure
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 || { tail -50 "$LOG"; exit 1; }
  log build
  cmake --build "$BUILD" -j "$(nproc)" >>"$LOG" 2>&1 || { grep -E "error" "$LOG" | head -40; exit 1; }
fi

test_rc=-
if has tests; then
  log tests
  (cd "$BUILD" && ctest -V) >"$OUT/tests.log" 2>&1
  test_rc=$?
  grep -E "tests passed|\[  (PASSED|FAILED) |Test #|Failure|got |GPU code" "$OUT/tests.log" | head -60 | tee -a "$LOG"
  gzip -f "$OUT/tests.log"
fi

if has sanitizer; then
  # Every registered version at its small edge sizes (33 elements: not a multiple of any block;
  # about a thousand; the unaligned sub-views), under each tool; one log per tool, summarised
  # per version by scripts/sanitizer_summary.py into $OUT/sanitizer-summary.md.
  log sanitizer
  args=()
  for tool in memcheck racecheck synccheck initcheck; do
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$BUILD/ladder-tests" \
      --gtest_filter='Registry/*_n33_*:Registry/*_n1000_*:Registry/*_n1025_*:Registry/*_n257_*' \
      >"$OUT/sanitizer-$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.log" | sort | uniq -c | tr '\n' ' ')" | tee -a "$LOG"
    grep -E "tests? from .* ran|FAILED" "$OUT/sanitizer-$tool.log" | tail -3 | tee -a "$LOG"
    args+=("$tool=$OUT/sanitizer-$tool.log")
  done
  python3 scripts/sanitizer_summary.py "$OUT/sanitizer-summary.md" "${args[@]}" | tee -a "$LOG"
fi

bench_rc=0
if has bench; then
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$OUT/bench.log" 2>&1
  for group in $BENCH_GROUPS; do
    log "benchmark $group"
    mkdir -p "$OUT/tmp"
    timeout "$GROUP_TIMEOUT" "$BUILD/cuda-ladder" --ops="$(ops_of "$group")" --results_dir="$OUT/tmp" \
      --benchmark_repetitions=5 --benchmark_display_aggregates_only=true "$@" >>"$OUT/bench.log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && bench_rc=$rc
    echo "$group rc=$rc" | tee -a "$LOG"
    for f in "$OUT"/tmp/*.json; do [ -e "$f" ] && mv "$f" "$OUT/$(basename "$f" .json)-$group.json"; done
    rmdir "$OUT/tmp"
  done
  grep -E "median|ERROR" "$OUT/bench.log" | sed -E 's/ +/ /g' | awk '{print $1, $2, $3}' | sed 's/manual_time_median//'
fi

if has unaligned; then
  # The Hopper pipelines (scan v15, copy_if v06/v07), the rungs before them and CUB on a 2^28
  # view one element past a 16-byte boundary: $OUT/<gpu>-unaligned.json, which report.py
  # tabulates beside the aligned ladder run.
  log "unaligned input"
  mkdir -p "$OUT/tmp"
  timeout "$GROUP_TIMEOUT" "$BUILD/cuda-ladder" --ops=scan,copy_if --sizes=2^28 --offset=1 \
    --benchmark_filter='^(scan/(v13|v14|v15)_[a-z_]+|scan/cub|copy_if/(v05|v06|v07)_[a-z_]+|copy_if/cub)/n:[0-9]+(/dist:keep50)?/offset' \
    --results_dir="$OUT/tmp" --benchmark_repetitions=5 --benchmark_display_aggregates_only=true \
    "$@" >>"$OUT/bench.log" 2>&1
  echo "unaligned rc=$?" | tee -a "$LOG"
  for f in "$OUT"/tmp/*.json; do [ -e "$f" ] && mv "$f" "$OUT/$(basename "$f" .json)-unaligned.json"; done
  rmdir "$OUT/tmp"
fi

if has extra; then
  log "error paths"
  # A size the GPU cannot hold: skipped with one line per benchmark (its need and the free
  # memory), listed at the end, exit status 0.
  "$BUILD/cuda-ladder" --ops=reduce --sizes=2^40 --benchmark_filter='v1[01]|cub' >"$OUT/x.tmp" 2>&1
  echo "exit $? (want 0)" >>"$OUT/x.tmp"
  grep -E "skipped|ERROR|error|exit" "$OUT/x.tmp" | cut -c1-200 | sort -u | tee -a "$LOG"
  log "a kernel that faults"
  # --inject-fault: the named benchmark faults on purpose; the run must name it, skip the rest,
  # exit 1, and leave valid JSON behind.
  mkdir -p "$OUT/fault"
  "$BUILD/cuda-ladder" --ops=reduce --sizes=2^20 --inject-fault='reduce/v05' \
    --results_dir="$OUT/fault" >"$OUT/x.tmp" 2>&1
  echo "exit $? (want 1)" >>"$OUT/x.tmp"
  grep -E "ERROR|error|exit" "$OUT/x.tmp" | cut -c1-200 | head -6 | tee -a "$LOG"
  python3 -c "import json,glob,sys; d=json.load(open(glob.glob(sys.argv[1]+'/*.json')[0])); print('fault JSON valid:', len(d['benchmarks']), 'entries')" "$OUT/fault" 2>&1 | tee -a "$LOG"
  rm -rf "$OUT/fault"
  log "beyond 32-bit indexing"
  # The best rungs and CUB at n = 2^31 + 17, checked before and after timing.
  timeout 300 "$BUILD/cuda-ladder" --ops=reduce,scan,copy_if --sizes=2^31+17 \
    --benchmark_filter='reduce/(v1[0-2]|cub)|scan/(v1[4-6]|cub)|copy_if/(v0[5-8]_[a-z_]+|cub)/n:2147483665/dist:keep50' \
    >"$OUT/x.tmp" 2>&1
  echo "exit $?" >>"$OUT/x.tmp"
  grep -E "manual_time|ERROR|error|exit" "$OUT/x.tmp" | sed -E 's/ +/ /g' | cut -c1-160 | tee -a "$LOG"
  rm -f "$OUT/x.tmp"
fi

if has sweep; then
  # GB/s against n from 2^10 to 2^27 for the versions that matter: per operator v01, v02, the
  # last two rungs, the last order-keeping one (copy_if) and the library baseline, on the
  # headline input (uniform keys, 50% kept). Sweeping every operator takes longer than one
  # device call: give SWEEP_OPS two or three operators a call (sort and the elementwise
  # operators take over a minute each on an H200). The
  # ladder sizes come from the bench step's files, so the sweep leaves them out. Written as
  # $OUT/<gpu>-sweep-<ops>.json: report.py tabulates *-sweep*.json by size and plots.py draws
  # <gpu>-<op>-sweep.png, apart from the ladder tables.
  # SWEEP_TOP_ONLY=1 keeps only each operator's top order-keeping rung and CUB (the ratio-to-CUB
  # chart's data, in about half the time; what a per-GPU run needs).
  # SWEEP_SIZES and SWEEP_FILTER (a --benchmark_filter regex) replace the sizes and the versions
  # for a closer look around one size: the file is then <gpu>-closeup-<ops>.json, a lab note to
  # keep under results/logs/ (report.py reads results/*.json as ladder runs and sweeps).
  log "size sweep"
  names=$("$BUILD/cuda-ladder" --list ${SWEEP_OPS:+--ops=$SWEEP_OPS} | python3 -c '
import json, os, sys
names = []
for op in json.load(sys.stdin)["operators"]:
    rungs = [v["slug"] for v in op["versions"] if not v["baseline"]]
    ordered = [v["slug"] for v in op["versions"] if not v["baseline"] and v["keeps_order"]]
    pick = ([s for s in rungs if s[:3] in ("v01", "v02")] + rungs[-2:] + ordered[-1:]
            + ["cub"])
    if os.environ.get("SWEEP_TOP_ONLY"):  # the rung a user would call and the library
        pick = (ordered[-1:] or rungs[-1:]) + ["cub"]
    names += [op["name"] + "/" + s + "/" for s in dict.fromkeys(pick)]
print("|".join(names))')
  filter="^($names)n:[0-9]+(/dist:(uniform|keep50))?/manual_time\$"
  filter=${SWEEP_FILTER:-$filter}
  tag=$(echo "${SWEEP_OPS:-all}" | tr ',' '-')
  mkdir -p "$OUT/tmp"
  timeout "${GROUP_TIMEOUT}" "$BUILD/cuda-ladder" ${SWEEP_OPS:+--ops=$SWEEP_OPS} \
    --sizes="${SWEEP_SIZES:-2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^27}" \
    --benchmark_filter="$filter" \
    --results_dir="$OUT/tmp" --benchmark_repetitions=3 \
    --benchmark_display_aggregates_only=true >>"$OUT/bench.log" 2>&1
  echo "sweep rc=$?" | tee -a "$LOG"
  kind=sweep
  [ -n "${SWEEP_SIZES:-}${SWEEP_FILTER:-}" ] && kind=closeup
  for f in "$OUT"/tmp/*.json; do [ -e "$f" ] && mv "$f" "$OUT/$(basename "$f" .json)-$kind-$tag.json"; done
  rmdir "$OUT/tmp"
fi

if has sweep_large; then
  # The sizes above the ladder's 2^28 that an H100 or H200 user sorts and scans (issue 53): each
  # operator's top order-keeping rung and CUB at 2^29, 2^30 and 2^31, LARGE_REPS repetitions
  # (default 2; the JSON's context says how many), on the headline input. The memory guard skips
  # a size that does not fit, with one line. Written as $OUT/<gpu>-sweep-large-<ops>.json.
  log "large sizes"
  names=$("$BUILD/cuda-ladder" --list ${SWEEP_OPS:+--ops=$SWEEP_OPS} | python3 -c '
import json, sys
names = []
for op in json.load(sys.stdin)["operators"]:
    rungs = [v["slug"] for v in op["versions"] if not v["baseline"]]
    ordered = [v["slug"] for v in op["versions"] if not v["baseline"] and v["keeps_order"]]
    names += [op["name"] + "/" + s + "/" for s in (ordered[-1:] or rungs[-1:]) + ["cub"]]
print("|".join(names))')
  tag=$(echo "${SWEEP_OPS:-all}" | tr ',' '-')
  mkdir -p "$OUT/tmp"
  timeout "${GROUP_TIMEOUT}" "$BUILD/cuda-ladder" ${SWEEP_OPS:+--ops=$SWEEP_OPS} \
    --sizes=2^29,2^30,2^31 \
    --benchmark_filter="^($names)n:[0-9]+(/dist:(uniform|keep50))?/manual_time\$" \
    --results_dir="$OUT/tmp" --benchmark_repetitions="${LARGE_REPS:-2}" \
    --benchmark_context=sweep=large,repetitions="${LARGE_REPS:-2}" \
    --benchmark_display_aggregates_only=true >>"$OUT/bench.log" 2>&1
  echo "large sizes rc=$?" | tee -a "$LOG"
  for f in "$OUT"/tmp/*.json; do [ -e "$f" ] && mv "$f" "$OUT/$(basename "$f" .json)-sweep-large-$tag.json"; done
  rmdir "$OUT/tmp"
fi

if has arch80; then
  # The portable build on this GPU (issue 19): compute_80 PTX and sm_80 cubins only, so a Hopper
  # runs JIT-compiled compute_80 code and the Hopper-only rungs must skip with one line. The GPU
  # tests (ARCH80_FILTER, a gtest filter; default all but the host tests) and one repetition of
  # the benchmark (ARCH80_OPS to narrow it) into $OUT/arch80-tests.log and arch80-bench.log.
  log "sm_80 build"
  if cmake -S . -B build80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80 >>"$LOG" 2>&1 &&
    cmake --build build80 -j "$(nproc)" >>"$LOG" 2>&1; then
    timeout "$GROUP_TIMEOUT" build80/ladder-tests --gtest_filter="${ARCH80_FILTER:--Host*}" \
      --gtest_brief=1 >"$OUT/arch80-tests.log" 2>&1
    echo "arch80 tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/arch80-tests.log" | tr '\n' ' ')" |
      tee -a "$LOG"
    timeout "$GROUP_TIMEOUT" build80/cuda-ladder ${ARCH80_OPS:+--ops=$ARCH80_OPS} \
      --benchmark_repetitions=1 >"$OUT/arch80-bench.log" 2>&1
    echo "arch80 benchmark rc=$? verified=1: $(grep -c 'verified=1' "$OUT/arch80-bench.log"), " \
      "ERROR lines: $(grep -c 'ERROR OCCURRED' "$OUT/arch80-bench.log"), skips: " \
      "$(grep -c 'SKIPPED: .needs sm_90 code' "$OUT/arch80-bench.log"), context lost: " \
      "$(grep -ci 'context was lost' "$OUT/arch80-bench.log")" | tee -a "$LOG"
  else
    echo "arch80 build failed" | tee -a "$LOG"
  fi
fi

if has huge; then
  # Each operator's best rung at n = 2^31 + 17 and 2^32 + 5 (tests/test_versions.cpp, HugeTest;
  # rungs whose largest n is below skip with a line), and sort's and sort_pairs' at 271,000,000
  # and 2^30 keys, each +-1, on every input (HugeBoundsTest).
  log "huge tests"
  LADDER_HUGE_TESTS=${HUGE_OPS:-1} "$BUILD/ladder-tests" \
    --gtest_filter='Huge/*:Huge2e32/*:HugeBounds/*' \
    >"$OUT/huge.log" 2>&1
  echo "huge rc=$?" | tee -a "$LOG"
  grep -E "^\[ +(OK|FAILED) |PASSED|FAILED  \]" "$OUT/huge.log" | tee -a "$LOG"
fi

if has ncu; then
  # Nsight Compute over every version (scripts/ncu_counters.sh); the CSVs come back as one tar.
  log "ncu counters"
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -1 | tr 'A-Z ' 'a-z-')
  scripts/ncu_counters.sh "$BUILD" "$OUT/ncu-$gpu" 4194304 "${NCU_OPS:-}" >>"$LOG" 2>&1
  tar -czf "$OUT/ncu-$gpu.tar.gz" -C "$OUT" "ncu-$gpu" && rm -rf "$OUT/ncu-$gpu"
  echo "ncu: $OUT/ncu-$gpu.tar.gz" | tee -a "$LOG"
fi

if has probes; then
  # Standalone probes (the */lab/probe_*.cu files, not part of the binary): PROBES names the
  # sources, compiled here in parallel for sm_90 and run one after the other, each under
  # PROBE_TIMEOUT seconds, into $OUT/probe-<name>.log.
  log "probes"
  mkdir -p probe-bin
  for src in ${PROBES:-}; do
    name=$(basename "$src" .cu)
    nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I. "$src" common/device.cu -o "probe-bin/$name" \
      >"probe-bin/$name.build.log" 2>&1 &
  done
  wait
  for src in ${PROBES:-}; do
    name=$(basename "$src" .cu)
    if [ -x "probe-bin/$name" ]; then
      timeout "${PROBE_TIMEOUT:-120}" stdbuf -oL "probe-bin/$name" >"$OUT/probe-$name.log" 2>&1
      echo "probe $name rc=$?" | tee -a "$LOG"
    else
      echo "probe $name did not build: $(head -3 "probe-bin/$name.build.log")" | tee -a "$LOG"
    fi
  done
fi

log "done: tests rc=$test_rc, benchmark rc=$bench_rc"
