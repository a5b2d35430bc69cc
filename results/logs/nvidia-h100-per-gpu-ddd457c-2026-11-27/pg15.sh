#!/usr/bin/env bash
# The per-GPU run at one commit (the tree carried is the clean commit in .dev/commit), in stages
# that fit one device call: bash .dev/pg15.sh STAGE...
#   groups: sort copy_if reduce scan histogram elementwise axis transfer; sweep1 sweep2: the
#   top-only sweeps; quick; tests15: v15's GPU tests and the counted-from-200000 ctest; san15:
#   compute-sanitizer over v15 (small sizes; 2^20 + 7 counted, kernels from the host; 2^27
#   dispatch memcheck through the graph); race27: racecheck over v15's 2^27 dispatch test
#   (kernels from the host); huge15: v15 at 2^31 + 17.
# A stage starts only if its estimate fits LIMIT seconds from the start. REQUIRE=H200 exits 3
# on any other GPU. Everything lands in one tar in $OUT.
set -uo pipefail
START=$SECONDS
LIMIT=${LIMIT:-570}
export LADDER_GIT_COMMIT=$(cat .dev/commit)
nvidia-smi -L
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -1 | tr 'A-Z ' 'a-z-')
if [ -n "${REQUIRE:-}" ] && ! nvidia-smi -L | grep -q "$REQUIRE"; then echo "not $REQUIRE: exit"; exit 3; fi
W=/tmp/pg15-$$; mkdir -p "$W"
git status --short | head -5
est() { case $1 in sort) echo 60;; copy_if) echo 75;; reduce) echo 25;; scan) echo 25;;
  histogram) echo 125;; elementwise) echo 35;; axis) echo 45;; transfer) echo 35;;
  sweep1) echo 45;; sweep2) echo 70;; quick) echo 40;; tests15) echo 120;; san15) echo 300;;
  race27) echo ${RACE_T:-300};; huge15) echo 150;; *) echo 100;; esac; }
if [ ! -x build-device/cuda-ladder ] || [ ! -x build-device/ladder-tests ]; then
  OUT=$W STEPS=build bash scripts/device_run.sh || { tar -czf "$OUT/pg15-$gpu-fail.tar.gz" -C "$W" .; exit 1; }
  echo "build done at $((SECONDS - START)) s" | tee -a "$W/stages.log"
fi
T=build-device/ladder-tests
for st in "$@"; do
  if (( SECONDS - START + $(est "$st") > LIMIT )); then echo "NOT RUN (time): $st" | tee -a "$W/stages.log"; continue; fi
  t0=$SECONDS
  case $st in
    sweep1) OUT=$W STEPS=sweep SWEEP_TOP_ONLY=1 SWEEP_OPS=reduce,scan,copy_if,histogram,histogram_u8 bash scripts/device_run.sh | tail -2 ;;
    sweep2) OUT=$W STEPS=sweep SWEEP_TOP_ONLY=1 SWEEP_OPS=gelu_f32,gelu_f16,fused_f32,fused_f16,add_f32,sort,sort_pairs bash scripts/device_run.sh | tail -2 ;;
    quick) mkdir -p "$W/quick"; build-device/cuda-ladder --quick --results_dir="$W/quick" >"$W/quick.log" 2>&1; echo "quick rc=$?"; tail -2 "$W/quick.log" ;;
    tests15) $T --gtest_filter='*sort_v15*:HostRegistry*' --gtest_brief=1 >"$W/tests15.log" 2>&1; echo "tests15 rc=$?"; tail -3 "$W/tests15.log"
      LADDER_SORT_V15_COUNTED_FROM=200000 $T --gtest_filter='*sort_v15*' --gtest_brief=1 >"$W/tests15-counted.log" 2>&1; echo "tests15 counted rc=$?"; tail -3 "$W/tests15-counted.log" ;;
    san15) F='Registry/*sort_v15*_n33_*:Registry/*sort_v15*_n1000_*:Registry/*sort_v15*_n1025_*:Registry/*sort_v15*_n257_*'
      for tool in memcheck racecheck synccheck initcheck; do
        timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_brief=1 --gtest_filter="$F" >"$W/san15-small-$tool.log" 2>&1
        echo "small $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$W/san15-small-$tool.log" | sort | uniq -c | tr '\n' ' ')"
        LADDER_NO_GRAPHS=1 LADDER_SORT_V15_COUNTED_FROM=200000 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_brief=1 \
          --gtest_filter='Registry/*sort_v15*_n1048583_*' >"$W/san15-counted-$tool.log" 2>&1
        echo "counted 2^20+7 $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$W/san15-counted-$tool.log" | sort | uniq -c | tr '\n' ' ')"
      done
      timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_brief=1 --gtest_filter='Dispatch/*sort_v15*' >"$W/san15-dispatch-memcheck.log" 2>&1
      echo "dispatch memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$W/san15-dispatch-memcheck.log" | sort | uniq -c | tr '\n' ' ')" ;;
    race27) LADDER_NO_GRAPHS=1 timeout ${RACE_T:-300} compute-sanitizer --tool racecheck --error-exitcode 9 $T --gtest_brief=1 \
          --gtest_filter="${RACE_FILTER:-Dispatch/*sort_v15*}" >"$W/race27.log" 2>&1
      echo "race27 rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' "$W/race27.log" | sort | uniq -c | tr '\n' ' ')" ;;
    huge15) LADDER_HUGE_TESTS=sort timeout 150 $T --gtest_filter='Huge/*sort_v15*' >"$W/huge15.log" 2>&1; echo "huge15 rc=$?"; grep -E "OK|FAILED|SKIPPED|PASSED" "$W/huge15.log" | head ;;
    *) OUT=$W STEPS=bench BENCH_GROUPS=$st bash scripts/device_run.sh | tail -3 ;;
  esac
  echo "$st done in $((SECONDS - t0)) s (at $((SECONDS - START)) s)" | tee -a "$W/stages.log"
done
gzip -f "$W"/bench.log 2>/dev/null
tar -czf "$OUT/pg15-$gpu-$(date +%H%M%S).tar.gz" -C "$W" .
ls -la "$OUT"
