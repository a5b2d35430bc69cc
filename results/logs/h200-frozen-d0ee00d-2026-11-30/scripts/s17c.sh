#!/usr/bin/env bash
# Session 17, call C (H200): build the commit to be frozen in .dev/clean (build-device stays for
# the frozen parts), then elementwise v08's checks: the elementwise GPU tests, v08 at 2^31+17 and
# 2^32+5, compute-sanitizer's four tools on v08's small cases, add_f32's sweep and large sizes.
set -u
C=$(grep ^COMMIT= .dev/frozen_gpu.sh | cut -d= -f2)
export LADDER_GIT_COMMIT=$C
cd .dev/clean || exit 1
mkdir -p $OUT/c
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
STEPS=build OUT=$OUT/c/b bash scripts/device_run.sh > $OUT/c/build.txt 2>&1 || { tail -30 $OUT/c/build.txt; exit 1; }
echo "built t=$(el)s"
B=build-device
timeout 150 $B/ladder-tests --gtest_filter='*gelu_f*:*fused_f*:*add_f32*' --gtest_brief=1 > $OUT/c/tests-elementwise.txt 2>&1
echo "tests rc=$? t=$(el)s"; grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests ran|FAILED" $OUT/c/tests-elementwise.txt | head
LADDER_HUGE_TESTS=add_f32 timeout 150 $B/ladder-tests --gtest_filter='*BeyondInt32*add_f32_v08*' > $OUT/c/huge-v08.txt 2>&1
echo "huge rc=$? t=$(el)s"; grep -E "^\[ +(OK|PASSED|FAILED|SKIPPED)" $OUT/c/huge-v08.txt | head
for tool in memcheck racecheck synccheck initcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/ladder-tests \
    --gtest_filter='*add_f32_v08*:-*BeyondInt32*:*n25600000*' > $OUT/c/sanitizer-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED' $OUT/c/sanitizer-$tool.txt | tr '\n' ' ')"
done
echo "sanitizer t=$(el)s"
SWEEP_OPS=add_f32 STEPS="sweep sweep_large" SWEEP_TOP_ONLY=1 OUT=$OUT/c/sw GROUP_TIMEOUT=200 bash scripts/device_run.sh > $OUT/c/sweep.txt 2>&1
echo "sweep t=$(el)s"; cat $OUT/c/sw/run.log
python3 - $OUT/c/sw <<'P'
import json, glob, sys, collections
t = collections.defaultdict(dict)
for f in glob.glob(sys.argv[1] + "/*.json"):
    for b in json.load(open(f))["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b["name"].split("/")
        if len(parts) < 3: continue
        t[parts[2]][parts[1]] = b["real_time"]
for n in sorted(t, key=lambda s: float(s.split(":")[1]) if s.split(":")[1].isdigit() else 0):
    r = t[n]
    print(n, {k: round(v, 2) for k, v in r.items()}, "v08/cub=%.4f" % (r["v08_bulk_copy"] / r["cub"]) if "v08_bulk_copy" in r and "cub" in r else "")
P
cd $OUT && tar czf c.tgz c && rm -rf c
