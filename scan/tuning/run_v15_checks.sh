#!/usr/bin/env bash
# scan/tuning/run_v15_checks.sh — one device call for scan v15: build, the scan tests (v15 at
# every edge size, offset and random case, and at 2^31 + 17), compute-sanitizer on v15's small
# cases, and probe_v15.cu. Logs go to $OUT. Every step has its own time limit, so a hang (a
# pipeline deadlock) costs one step, not the call.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-device-out}
mkdir -p "$OUT"
LOG="$OUT/v15-checks.log"
log() { echo "=== $* ($(date +%T))" | tee -a "$LOG"; }
log build
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1
timeout 300 cmake --build build-device -j "$(nproc)" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
timeout 120 nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/tuning/probe_v15.cu common/device.cu -o build-device/probe15 >>"$LOG" 2>&1
log "scan tests"
timeout 240 build-device/ladder-tests --gtest_filter='*scan*' 2>&1 | grep -E "PASSED|FAILED|tests ran|got |Failure" | head -40 | tee -a "$LOG"
log "huge scan v15"
LADDER_HUGE_TESTS=scan timeout 120 build-device/ladder-tests --gtest_filter='Huge/*scan*' 2>&1 | grep -E "OK|PASSED|FAILED|SKIPPED|ms\)" | head -10 | tee -a "$LOG"
log sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 9 build-device/ladder-tests \
    --gtest_filter='Registry/*scan_v15*_n33_*:Registry/*scan_v15*_n1000_*:Registry/*scan_v15*_n1025_*:Registry/*scan_v15*_n1048583_*' \
    >"$OUT/sanitizer-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.log" | sort | uniq -c | tr '\n' ' ')" | tee -a "$LOG"
  grep -E "tests? from .* ran|FAILED" "$OUT/sanitizer-$tool.log" | tail -3 | tee -a "$LOG"
done
log probe
timeout 200 build-device/probe15 2>&1 | tee "$OUT/probe15.txt" | tee -a "$LOG"
log done
