#!/usr/bin/env python3
"""Summarises scripts/ncu_counters.sh's CSVs (one per version) into one Markdown table.

    python3 scripts/ncu_summary.py DIR OUT.md

Each CSV is `ncu --csv --page raw` output: a header row, a units row, then one row per profiled
kernel launch. The harness's own kernels are dropped first (HARNESS: the read-ceiling
measurement at start-up, the digests that let a check reuse a verdict, the GPU-side input
generation, the code probe; the L2 flush is already left out by ncu_counters.sh). The harness
launches a version three times per benchmark (check, timed iteration, check); the remaining rows
split into three equal groups and the middle one, the timed launch, is summed over its kernels
(a version may launch several). Ratios (threads per
instruction, occupancy) are averaged weighted by each kernel's instructions.
"""
import csv
import glob
import os
import re
import sys

# Kernels that the harness launches around a version's, not the version's own (common/device.cu,
# elementwise/elementwise.cu, and thrust::sequence's for the pairs' values in sort/sort.cu).
HARNESS = re.compile(r"read_ceiling_kernel|flush_read_kernel|digest_kernel|code_probe_kernel|"
                     r"generate_kernel|block_kernel|for_each")

SUMS = {
    "gpu__time_duration.sum": "time (µs)",
    "dram__bytes_read.sum": "DRAM read (MB)",
    "dram__bytes_write.sum": "DRAM write (MB)",
    "lts__t_sectors_srcunit_tex_op_write.sum": "L2 write (MB)",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "bank conflicts ld",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "bank conflicts st",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum": "bank conflicts atom",
    "smsp__inst_executed.sum": "instructions (M)",
    "smsp__sass_inst_executed_op_global_atom.sum": "global atom",
    "smsp__sass_inst_executed_op_global_red.sum": "global red",
    "smsp__sass_inst_executed_op_shared_atom.sum": "shared atom",
}
RATIOS = {
    "smsp__thread_inst_executed_per_inst_executed.ratio": "threads / instr",
    "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio": "pred-on threads / instr",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy %",
    # the share of cycles on which a scheduler issued an instruction, and the warps it had to
    # choose from: a kernel bound by latency issues on few cycles with few warps
    "sm__inst_issued.avg.pct_of_peak_sustained_active": "issue active %",
    "smsp__warps_active.avg.per_cycle_active": "warps / scheduler",
}
SCALE = {"gpu__time_duration.sum": {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1, "us": 1,
                                   "msecond": 1e3, "ms": 1e3},
         "lts__t_sectors_srcunit_tex_op_write.sum": {"sector": 32e-6, "": 32e-6},
         "dram__bytes_read.sum": {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1, "Gbyte": 1e3},
         "dram__bytes_write.sum": {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1, "Gbyte": 1e3}}


def number(text):
    return float(text.replace(",", "")) if text not in ("", "n/a") else 0.0


def short_name(kernel):
    """A kernel's function name without return type, namespaces or template arguments:
    'void ladder::sort::v08::onesweep_kernel<256u, ...>(...)' -> 'onesweep_kernel'."""
    name = re.sub(r"^void\s+", "", kernel.strip()).replace("(anonymous namespace)::", "")
    name = re.split(r"[<(]", name, maxsplit=1)[0]
    return name.split("::")[-1]


def timed_rows(path):
    """(header, units, rows): the CSV's rows of the timed launch (the middle third once the
    harness's kernels are dropped), or None."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if start is None:
        return None
    header, units = rows[start], rows[start + 1]
    data = [r for r in rows[start + 2:] if len(r) == len(header) and r[0].isdigit()]
    if "Kernel Name" in header:
        name = header.index("Kernel Name")
        data = [r for r in data if not HARNESS.search(r[name])]
    if not data:
        return None
    per = len(data) // 3 if len(data) % 3 == 0 else len(data)
    return header, units, (data[per:2 * per] if per != len(data) else data)


def values(header, units, timed):
    """{column: value} over the rows `timed`: SUMS summed, RATIOS weighted by instructions."""
    col = {name: i for i, name in enumerate(header)}
    out = {}
    for metric, label in SUMS.items():
        if metric in col:
            scale = SCALE.get(metric, {}).get(units[col[metric]], 1)
            if metric == "smsp__inst_executed.sum":
                scale = 1e-6  # millions
            out[label] = sum(number(r[col[metric]]) for r in timed) * scale
    weights = [number(r[col["smsp__inst_executed.sum"]]) for r in timed] \
        if "smsp__inst_executed.sum" in col else [1.0] * len(timed)
    total = sum(weights) or 1.0
    for metric, label in RATIOS.items():
        if metric in col:
            out[label] = sum(w * number(r[col[metric]]) for w, r in zip(weights, timed)) / total
    return out


def parse(path):
    """({column: value} for the timed launch, number of kernels in it) or None."""
    got = timed_rows(path)
    if got is None:
        return None
    header, units, timed = got
    return values(header, units, timed), len(timed)


def kernels(path):
    """[(kernel's short name, {column: value})] for each kernel of the timed launch, in launch
    order, or None."""
    got = timed_rows(path)
    if got is None:
        return None
    header, units, timed = got
    name = header.index("Kernel Name") if "Kernel Name" in header else None
    return [(short_name(r[name]) if name is not None else "?", values(header, units, [r]))
            for r in timed]


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    labels = list(SUMS.values()) + list(RATIOS.values())
    lines = ["# Nsight Compute counters per version", "",
             "Generated by `scripts/ncu_summary.py` from `scripts/ncu_counters.sh`'s CSVs "
             "(`ncu --clock-control none`); the timed launch of each benchmark, summed over its "
             "kernels.", "",
             "| version | kernels | " + " | ".join(labels) + " |",
             "|---|--:|" + "--:|" * len(labels)]
    for path in sorted(glob.glob(os.path.join(argv[1], "*.csv"))):
        name = os.path.basename(path)[:-4].replace("__", "/")
        got = parse(path)
        if got is None:
            lines.append(f"| `{name}` | no data |" + " |" * len(labels))
            continue
        values, kernels = got
        cells = [f"{values[l]:,.3g}" if l in values else "—" for l in labels]
        lines.append(f"| `{name}` | {kernels} | " + " | ".join(cells) + " |")
    with open(argv[2], "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
