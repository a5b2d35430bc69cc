#!/usr/bin/env python3
"""Runs a command and prints one line: its wall time, its peak resident set and its exit status.

    python3 scripts/measure_run.py build/cuda-ladder --quick

The line reads `MEASURE wall_s=… maxrss_gb=… rc=… cmd=…`: wall_s is the child's wall time in
seconds, maxrss_gb its ru_maxrss (KiB on Linux) divided by 10^6. The run times in the README and
in results/PROVENANCE.md were measured with it. Exits with the command's status.
"""
import resource
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    start = time.time()
    rc = subprocess.call(sys.argv[1:])
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6
    print(f"MEASURE wall_s={time.time() - start:.1f} maxrss_gb={rss:.2f} rc={rc} "
          f"cmd={' '.join(sys.argv[1:])}", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
