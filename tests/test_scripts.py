#!/usr/bin/env python3
"""Tests of the scripts in scripts/, on a results file a real run wrote
(results/nvidia-h200-scan.json). Standard library unittest, so CI needs nothing extra; pytest
runs them too (`python3 -m pytest tests/test_scripts.py`)."""
import glob
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import compare  # noqa: E402
import figkeys  # noqa: E402
import ncu_phases  # noqa: E402
import ncu_summary  # noqa: E402
import report  # noqa: E402
from ladder_report import lessons, results  # noqa: E402
import sanitizer_summary  # noqa: E402

REAL = os.path.join(ROOT, "results", "nvidia-h200-scan.json")
# A run on unaligned views, kept as a lab note (report.py reads it only where prose names it).
UNALIGNED = os.path.join(ROOT, "results", "logs", "nvidia-h200-unaligned-deda07d-2026-11-23.json.gz")


class CompareTest(unittest.TestCase):
    def test_u_test_matches_scipy_reference_values(self):
        # scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic").pvalue
        self.assertAlmostEqual(compare.mann_whitney_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]),
                               0.01219, places=5)
        self.assertAlmostEqual(compare.mann_whitney_p([5, 5, 5, 6], [5, 6, 6, 7, 7]), 0.11614,
                               places=5)
        self.assertEqual(compare.mann_whitney_p([1.0, 2.2, 3.1], [1.5, 2.0, 3.3]), 1.0)

    def test_a_file_against_itself_changes_nothing(self):
        _, runs = compare.load(REAL)
        rows, geomean = compare.compare(runs, runs)
        self.assertTrue(rows)
        self.assertAlmostEqual(geomean, 1.0)
        self.assertTrue(all(r[3] == 0 and not r[5] for r in rows))

    def test_a_slower_copy_is_reported_slower(self):
        with open(REAL) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            b["real_time"] *= 1.5
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(data, f)
        try:
            out = io.StringIO()
            with redirect_stdout(out):
                rc = compare.main([REAL, f.name, "--filter", "v13"])
            self.assertEqual(rc, 0)
            self.assertIn("+0.5000", out.getvalue())
            self.assertIn("OVERALL_GEOMEAN", out.getvalue())
            self.assertIn(" *", out.getvalue())  # 5 vs 5 repetitions, all slower: significant
        finally:
            os.unlink(f.name)

    def test_several_files_per_side_merge_and_sum_up_per_operator(self):
        reduce_file = os.path.join(ROOT, "results", "nvidia-h200-reduce.json")
        with open(REAL) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            b["real_time"] *= 2.0
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(data, f)
        try:
            _, merged, paths = compare.load_many(f"{REAL},{reduce_file}")
            self.assertEqual(paths, [REAL, reduce_file])
            self.assertTrue(any(k.startswith("scan/") for k in merged))
            self.assertTrue(any(k.startswith("reduce/") for k in merged))
            out = io.StringIO()
            with redirect_stdout(out):  # scan twice as slow, reduce unchanged
                rc = compare.main([f"{REAL},{reduce_file}", f"{f.name},{reduce_file}", "--by-op"])
            self.assertEqual(rc, 0)
            table = out.getvalue().split("Operator")[1]
            self.assertRegex(table, r"scan +\d+ +2\.000")
            self.assertRegex(table, r"reduce +\d+ +1\.000")
        finally:
            os.unlink(f.name)
        with self.assertRaises(OSError):
            compare.load_many(os.path.join(ROOT, "results", "no-such-*.json"))

    def test_no_common_benchmark_is_an_error(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare.py"), REAL,
                            os.path.join(ROOT, "results", "nvidia-h200-reduce.json")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error", r.stderr)


class ReportTest(unittest.TestCase):
    def test_tables_come_from_the_json(self):
        ctx, runs = report.load(REAL)
        self.assertEqual(ctx["gpu"], "NVIDIA H200")
        table, figures = report.op_table(runs, "scan", 1 << 28)
        self.assertIn("`v13_vectorized_lookback`", table)
        self.assertIn("cub", figures)
        self.assertTrue(all(f["verified"] for f in figures.values() if f))

    def test_across_gpus_from_the_per_gpu_run(self):
        files = report.per_gpu_files()  # a real two-H100 run, committed
        self.assertEqual(len(files), 2)
        text = report.across_gpus_section(files)
        self.assertIn("NVIDIA H100 80GB HBM3 (device 0)", text)
        self.assertIn("NVIDIA H100 80GB HBM3 (device 1)", text)
        self.assertIn("| reduce | `v12_size_dispatch` |", text)
        # compare.py: the 40 benchmarks both files hold
        self.assertIn("| NVIDIA H100 80GB HBM3 (device 1) | 40 |", text)
        self.assertIsNone(report.across_gpus_section(files[:1]))

    def test_gpu_models_side_by_side(self):
        groups = report.gpu_groups(report.results_files())
        ordered = [("nvidia-h200", groups["nvidia-h200"]),
                   ("nvidia-h100-80gb-hbm3", groups["nvidia-h100-80gb-hbm3"])]
        text = report.models_section(ordered)
        self.assertIn("## GPU models side by side: NVIDIA H200 and NVIDIA H100 80GB HBM3", text)
        # The ratio column is the second model's time over the first's, from the same figures
        # the two ladder tables show.
        h200 = report.op_table(report.merged_runs(groups["nvidia-h200"]), "sort", 1 << 28,
                               "uniform")[1]["cub"]["time_us"]
        h100 = report.op_table(report.merged_runs(groups["nvidia-h100-80gb-hbm3"]), "sort",
                               1 << 28, "uniform")[1]["cub"]["time_us"]
        row = next(line for line in text.splitlines() if line.startswith("| sort | `cub` |"))
        self.assertTrue(row.endswith(f"| {h100 / h200:.3f}× |"), row)
        self.assertRegex(text, r"\| H100 80GB HBM3 ÷ H200 \| sort \| \d+ \| \d\.\d{3} \|")
        self.assertIsNone(report.models_section(ordered[:1]))

    def test_sweeps_are_tabulated_not_given_tables_per_size(self):
        sweeps = report.sweep_files()
        self.assertTrue(sweeps)
        self.assertFalse(set(sweeps) & set(report.results_files()))
        ladder = report.merged_runs(report.gpu_groups(report.results_files())["nvidia-h200"])
        group = report.gpu_groups(sweeps)["nvidia-h200"]
        runs = report.swept_runs(ladder, group, "scan")
        table = report.sweep_table(runs, "scan")
        lines = table.splitlines()
        self.assertIn("`v18_epoch_statuses`", lines[0])  # the top-only sweep's rung
        self.assertIn("`cub`", lines[0])
        sizes = [int(line.split("|")[1].replace(",", "")) for line in lines[2:]]
        self.assertEqual(sizes, sorted(sizes))
        self.assertIn(1 << 10, sizes)
        self.assertIn(1 << 28, sizes)  # the ladder runs' sizes join the sweep's

    def test_the_newest_sweep_speaks_for_an_operator(self):
        group = [("old.json", {"date": "2026-01-01"}, {("scan", "cub", 1024, None): 1}),
                 ("new.json", {"date": "2026-02-01"}, {("scan", "v15_x", 1024, None): 2,
                                                        ("reduce", "cub", 1024, None): 3}),
                 ("other.json", {"date": "2025-12-01"}, {("sort", "cub", 1024, "uniform"): 4})]
        self.assertEqual(report.sweep_for(group, "scan")[0], "new.json")
        self.assertEqual(report.sweep_for(group, "sort")[0], "other.json")
        self.assertIsNone(report.sweep_for(group, "histogram"))
        merged = report.swept_runs({("scan", "v01_y", 1 << 28, None): 9}, group, "scan")
        self.assertEqual(set(merged), {("scan", "v01_y", 1 << 28, None),
                                       ("scan", "v15_x", 1024, None)})

    def test_freeze_names_one_commit_of_one_gpu_and_refuses_a_mix(self):
        import freeze
        with tempfile.TemporaryDirectory() as d:
            root, out = os.path.join(d, "tree"), os.path.join(d, "out")
            os.makedirs(os.path.join(root, "results"))
            os.makedirs(out)
            with open(os.path.join(root, "results", "MANIFEST.json"), "w") as f:
                json.dump({"about": ["x"], "gpus": {
                    "gpu-a": {"scan": "gpu-a-scan.json", "old": "gpu-a-old.json"},
                    "gpu-b": {"scan": "gpu-b-scan.json"}}}, f)
            for name in ("gpu-a-old.json", "gpu-b-scan.json"):
                open(os.path.join(root, "results", name), "w").write("{}")
            # gpu-a's frozen scan file, which a lab note quotes (prefixed and, gpu-a being the
            # default GPU here, unprefixed); gpu-b's key and a kept file's key stay as they are
            with open(os.path.join(root, "results", "gpu-a-scan.json"), "w") as f:
                json.dump({"context": {"gpu_slug": "gpu-a", "git_commit": "0123456789ab",
                                       "date": "2026-01-02T03:04:05+00:00"},
                           "benchmarks": [{"name": "scan/v01_x/n:1024/manual_time",
                                           "run_type": "iteration", "real_time": 1.0}]}, f)
            os.makedirs(os.path.join(root, "scan", "lab"))
            sidecar = os.path.join(root, "scan", "lab", "figures.txt")
            with open(sidecar, "w") as f:
                f.write("# names\n"
                        "a = time gpu-a@scan/v01_x/n:2^10\n"
                        "b = time scan/v01_x/n:1024\n"
                        "c = time gpu-b@scan/v01_x/n:1024\n"
                        "d = time logs/x.json.gz@scan/v01_x/n:1024\n"
                        "e = time gpu-a@scan/v02_y/n:1024\n")

            def write(name, slug="gpu-a", commit="abc123"):
                with open(os.path.join(out, name), "w") as f:
                    json.dump({"context": {"gpu_slug": slug, "git_commit": commit},
                               "benchmarks": []}, f)
            write("gpu-a-scan.json")
            write("gpu-a-sweep-large-scan.json")
            with redirect_stdout(io.StringIO()) as said:
                self.assertEqual(freeze.main([out, "--root", root]), 0)
            self.assertIn("pinned 2 lab-note figures (2 benchmark references)", said.getvalue())
            with open(os.path.join(root, "results", "MANIFEST.json")) as f:
                m = json.load(f)
            self.assertEqual(m["gpus"]["gpu-a"], {"scan": "gpu-a-scan.json",
                                                  "sweep-large-scan": "gpu-a-sweep-large-scan.json"})
            self.assertEqual(m["gpus"]["gpu-b"], {"scan": "gpu-b-scan.json"})  # kept
            # the retired files are kept, gzipped, and the lab note's keys of gpu-a name them
            kept = "logs/gpu-a-frozen-0123456-2026-01-02/results/gpu-a-scan.json.gz"
            with gzip.open(os.path.join(root, "results", kept), "rt") as f:
                self.assertEqual(json.load(f)["context"]["git_commit"], "0123456789ab")
            with open(sidecar) as f:
                self.assertEqual(f.read(), "# names\n"
                                 f"a = time {kept}@scan/v01_x/n:2^10\n"
                                 f"b = time {kept}@scan/v01_x/n:1024\n"
                                 "c = time gpu-b@scan/v01_x/n:1024\n"
                                 "d = time logs/x.json.gz@scan/v01_x/n:1024\n"
                                 "e = time gpu-a@scan/v02_y/n:1024\n")  # in no kept file
            self.assertEqual(m["about"], ["x"])
            self.assertFalse(os.path.exists(os.path.join(root, "results", "gpu-a-old.json")))
            self.assertTrue(os.path.exists(os.path.join(root, "results", "gpu-b-scan.json")))
            # --keep-in names the folder the retired files go to (here the run just frozen,
            # frozen again); a name that is not one folder is refused.
            with redirect_stdout(io.StringIO()):
                self.assertEqual(freeze.main([out, "--root", root, "--keep-in", "run-a"]), 0)
            with gzip.open(os.path.join(root, "results", "logs", "run-a", "results",
                                        "gpu-a-scan.json.gz"), "rt") as f:
                self.assertEqual(json.load(f)["context"]["git_commit"], "abc123")
            for bad in ("../run-a", "a/b", ""):
                err = io.StringIO()
                with redirect_stderr(err), redirect_stdout(io.StringIO()):
                    self.assertEqual(freeze.main([out, "--root", root, "--keep-in", bad]), 1)
                self.assertEqual(len(err.getvalue().strip().splitlines()), 1, bad)
            # The refusals: one line, exit status 1, nothing written.
            for case in [dict(commit="def456"), dict(commit="abc123-dirty"),
                         dict(commit="unknown"), dict(slug="gpu-b")]:
                for f in glob.glob(os.path.join(out, "*.json")):
                    os.remove(f)
                write("gpu-a-scan.json")
                args = dict(case)
                slug = args.get("slug", "gpu-a")
                write(f"{slug}-sweep-x.json", slug=slug, commit=args.get("commit", "abc123"))
                err = io.StringIO()
                with redirect_stderr(err), redirect_stdout(io.StringIO()):
                    self.assertEqual(freeze.main([out, "--root", root]), 1, case)
                self.assertEqual(len(err.getvalue().strip().splitlines()), 1, case)
                self.assertIn("freeze.py: error:", err.getvalue())
            with redirect_stderr(io.StringIO()) as err:
                self.assertEqual(freeze.main([os.path.join(d, "none")]), 1)

    def test_a_large_size_sweep_adds_sizes_and_supersedes_nothing(self):
        main = ("r/nvidia-h200-sweep-scan.json", {"date": "2026-01-01"},
                {("scan", "v16_x", 1024, None): 1, ("scan", "cub", 1024, None): 2})
        large = ("r/nvidia-h200-sweep-large-scan.json", {"date": "2026-03-01"},
                 {("scan", "v16_x", 1 << 30, None): 3, ("scan", "cub", 1 << 30, None): 4})
        group = [main, large]
        self.assertTrue(report.is_large_sweep(large[0]))
        self.assertFalse(report.is_large_sweep(main[0]))
        # The newer, large-size file does not speak for the operator in place of the main sweep...
        self.assertEqual(report.sweep_for(group, "scan")[0], main[0])
        # ...it adds its sizes to it.
        merged = report.swept_runs({}, group, "scan")
        self.assertEqual({k[2] for k in merged}, {1024, 1 << 30})
        self.assertIsNone(report.sweep_for([large], "scan"))
        self.assertEqual({k[2] for k in report.swept_runs({}, [large], "scan")}, {1 << 30})

    def test_ratio_to_cub_against_n(self):
        def entry(t):
            return {"reps": [{"real_time": t, "time_unit": "us"}], "median": None, "errors": []}
        runs = {}
        for n, a, c in [(1024, 6.0, 4.0), (4096, 5.0, 5.0), (1 << 20, 8.0, 10.0),
                        (1 << 28, 500.0, 400.0)]:
            runs[("scan", "v15_x", n, None)] = entry(a)
            runs[("scan", "v02_y", n, None)] = entry(10 * a)
            runs[("scan", "cub", n, None)] = entry(c)
        top, points = report.ratio_to_cub(runs, "scan")
        self.assertEqual(top, "v15_x")  # the highest rung measured at every size
        self.assertEqual(points, [(1024, 1.5), (4096, 1.0), (1 << 20, 0.8), (1 << 28, 1.25)])

    def test_a_baseline_other_than_cub(self):
        # col_sum is compared with cuBLAS (report.BASELINE): the ratio uses it, and a `cub`
        # entry, were there one, would not count.
        def entry(t):
            return {"reps": [{"real_time": t, "time_unit": "us"}], "median": None, "errors": []}
        runs = {}
        for n, a, c in [(1024, 3.0, 4.0), (1 << 28, 300.0, 200.0)]:
            runs[("col_sum", "v03_x", n, "square")] = entry(a)
            runs[("col_sum", "cublas_gemv", n, "square")] = entry(c)
            runs[("col_sum", "cub", n, "square")] = entry(1.0)
        self.assertEqual(report.baseline_slug("col_sum"), "cublas_gemv")
        self.assertEqual(report.baseline_slug("reduce"), "cub")
        top, points = report.ratio_to_cub(runs, "col_sum")
        self.assertEqual(top, "v03_x")
        self.assertEqual(points, [(1024, 0.75), (1 << 28, 1.5)])

    def test_unaligned_runs_stand_apart_and_beside_the_aligned(self):
        # The committed unaligned run is a lab note now (results/logs/, gzipped): unaligned_files()
        # finds none in results/, and the section still pairs each /offset:K run with the ladder.
        self.assertFalse(set(report.unaligned_files()) & set(report.results_files()))
        files = [UNALIGNED]
        _, aligned = report.load(files[0])
        self.assertFalse(aligned)  # every benchmark there is an /offset:K one
        _, off = report.load(files[0], offsets=True)
        self.assertIn(("scan", "v15_warp_specialized", 1 << 28, None, 1), off)
        ladder = report.merged_runs(report.gpu_groups(report.results_files())["nvidia-h200"])
        text = report.unaligned_section(ladder, report.gpu_groups(files)["nvidia-h200"])
        row = next(line for line in text.splitlines() if "`v15_warp_specialized`" in line)
        cells = [c.strip() for c in row.split("|")]
        self.assertEqual(cells[4], "1")  # K
        self.assertNotEqual(cells[5], "—")  # the aligned time was found

    def test_figures_in_prose_come_from_the_json(self):
        lookup, errors = report.figure_lookup(report.results_files()), []
        key = "scan/v15_warp_specialized/n:2^28"
        want = report.fmt_time(lookup(report.figure_key(key))["time_us"]) + " µs"
        text = f"v15 takes <!--fig:time {key}-->1.0 µs<!--/fig--> (typed by hand)"
        out = report.render_figures(text, lookup, errors)
        self.assertEqual(out, f"v15 takes <!--fig:time {key}-->{want}<!--/fig--> (typed by hand)")
        ratio = report.render_figures(
            f"<!--fig:ratio {key} scan/cub/n:268435456-->x<!--/fig-->", lookup, errors)
        self.assertRegex(ratio, r"-->0\.\d{3}×<!--")
        # FILE@key reads that one file (a run kept in results/logs/), not the GPU's results.
        rel = os.path.relpath(UNALIGNED, os.path.join(ROOT, "results"))
        unaligned = report.render_figures(
            f"<!--fig:time {rel}@{key}/offset:1-->x<!--/fig-->", lookup, errors)
        _, off = report.load(UNALIGNED, offsets=True)
        want = report.fmt_time(report.summary(off[report.figure_key(key + "/offset:1")])["time_us"])
        self.assertIn(f"-->{want} µs<!--", unaligned)
        self.assertEqual(errors, [])
        # A key that no file of the GPU's results holds (the unaligned runs use offsets 1 and 3)
        # is an error, and so is a file that does not exist, not a silent fallback to the GPU's
        # results.
        report.render_figures(f"<!--fig:time {key}/offset:2-->x<!--/fig-->", lookup, errors)
        self.assertEqual(len(errors), 1)
        report.render_figures(f"<!--fig:time logs/none.json.gz@{key}-->x<!--/fig-->", lookup,
                              errors)
        self.assertEqual(len(errors), 2)
        self.assertIn("no such results file", errors[1])
        errors.clear()
        report.render_figures("<!--fig:time scan/v99_none/n:2^28-->1<!--/fig-->", lookup, errors)
        self.assertEqual(len(errors), 1)

    def test_plots_help_works_without_matplotlib(self):
        # --help needs no matplotlib; drawing without it is one clear line and exit status 1.
        code = ("import runpy, sys; sys.modules['matplotlib'] = None; sys.argv = ['plots.py'] + "
                "sys.argv[1:]; runpy.run_path(%r, run_name='__main__')"
                % os.path.join(ROOT, "scripts", "plots.py"))
        helped = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True,
                                text=True)
        self.assertEqual(helped.returncode, 0)
        self.assertIn("usage: plots.py", helped.stdout)
        drawn = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(drawn.returncode, 1)
        self.assertIn("matplotlib is not installed", drawn.stderr)

    def test_lab_notes_are_rendered_like_the_chapters(self):
        # A temporary root with the real results: <op>/lab/LAB_NOTES.md gets its figure spans and
        # counter blocks filled; a root without lab notes renders none.
        with tempfile.TemporaryDirectory() as d:
            os.symlink(os.path.join(ROOT, "results"), os.path.join(d, "results"))
            old_root = results.ROOT
            try:
                results.ROOT = d
                files, errors = report.results_files(), []
                self.assertEqual(report.lab_notes_files(), [])
                self.assertEqual(set(report.render_all(files, errors)),
                                 {os.path.join(d, "RESULTS.md")})
                os.makedirs(os.path.join(d, "reduce", "lab"))
                notes = os.path.join(d, "reduce", "lab", "LAB_NOTES.md")
                with open(notes, "w") as f:
                    f.write("# Reduce: lab notes\n\nCUB took <!--fig:time reduce/cub/n:2^28-->x"
                            "<!--/fig--> at 198269b.\n\n"
                            "<!-- BEGIN generated counters: reduce ncu-nvidia-h200 -->\n"
                            "<!-- END generated counters -->\n"
                            "and <!--fig:time reduce/v99_none/n:2^28-->?<!--/fig-->\n")
                out = report.render_all(files, errors)[notes]
            finally:
                results.ROOT = old_root
        lookup = report.figure_lookup(report.results_files())
        want = report.fmt_time(lookup(report.figure_key("reduce/cub/n:2^28"))["time_us"])
        self.assertIn(f"-->{want} µs<!--/fig--> at 198269b.", out)
        self.assertIn("| `v11_tiled_loads` | 1 |", out)  # the counters table
        self.assertEqual(errors, ["reduce/lab/LAB_NOTES.md: no result for 'reduce/v99_none/n:2^28'"])

    def test_named_figures_come_from_the_folders_sidecar(self):
        # A span may name its figure, defined once in the folder's figures.txt: the value is the
        # long span's. A name undefined, defined twice or used by no file is an error.
        lookup = report.figure_lookup(report.results_files())
        key = "scan/v15_warp_specialized/n:2^28 scan/cub/n:2^28"
        errors, used = [], set()
        want = report.render_figures(f"<!--fig:ratio {key}-->?<!--/fig-->", lookup, errors)
        got = report.render_figures("<!--fig v15_cub_2e28-->?<!--/fig--> and "
                                    "<!--fig nowhere-->1<!--/fig-->", lookup, errors,
                                    {"v15_cub_2e28": ("ratio", key)}, used)
        self.assertEqual(got, want.replace(f":ratio {key}", " v15_cub_2e28")
                         + " and <!--fig nowhere-->1<!--/fig-->")
        self.assertEqual(used, {"v15_cub_2e28", "nowhere"})
        self.assertEqual(errors, ["figure name 'nowhere' is not defined (in the folder's "
                                  "figures.txt)"])
        with tempfile.TemporaryDirectory() as d:
            os.symlink(os.path.join(ROOT, "results"), os.path.join(d, "results"))
            for op in ("scan", "sort"):
                os.makedirs(os.path.join(d, op, "lab"))
            with open(os.path.join(d, "scan", "lab", "LAB_NOTES.md"), "w") as f:
                f.write("v15: <!--fig v15_cub_2e28-->?<!--/fig-->, <!--fig v15_us-->?<!--/fig-->\n")
            with open(os.path.join(d, "scan", "lab", "figures.txt"), "w") as f:
                f.write(f"# names\n\nv15_cub_2e28 = ratio {key}\n"
                        "v15_us = time scan/v15_warp_specialized/n:2^28\n"
                        "v15_us = time scan/v15_warp_specialized/n:2^10\n"
                        "unused = pct scan/cub/n:2^28\nbad line\n"
                        "two = time scan/cub/n:2^28 scan/cub/n:2^10\n")
            with open(os.path.join(d, "sort", "figures.txt"), "w") as f:
                f.write("lonely = time sort/cub/n:2^28/dist:uniform\n")
            old_root = results.ROOT
            try:
                results.ROOT = d
                errors = []
                out = report.render_all(report.results_files(), errors)
            finally:
                results.ROOT = old_root
        self.assertIn("v15: " + got.split(" and ")[0] + ", <!--fig v15_us-->",
                      out[os.path.join(d, "scan", "lab", "LAB_NOTES.md")])
        self.assertEqual(errors, [
            "scan/lab/figures.txt:5: 'v15_us' defined twice (first at line 4)",
            "scan/lab/figures.txt:7: not a figure definition (NAME = KIND KEY [KEY]): 'bad line'",
            "scan/lab/figures.txt:8: 'two': kind 'time' with 2 key(s) (time, pct, pct2, pctread, "
            "gbps take one; ratio two)",
            "scan/lab/figures.txt: 'two' is defined but no file of its folder uses it",
            "scan/lab/figures.txt: 'unused' is defined but no file of its folder uses it",
            "sort/figures.txt: 'lonely' is defined but no file of its folder uses it"])

    def test_read_ceiling_beside_the_copy_ceiling(self):
        # A synthetic run with the read ceiling (context read_ceiling_gbps, counter pct_read):
        # the read-only operators' tables gain a "% read ceiling" column and the context table
        # its row; other operators, and runs without it, are unchanged.
        def bench(name, t, pct_copy, pct_read=None):
            b = {"name": name + "/manual_time", "run_name": name + "/manual_time",
                 "run_type": "iteration", "real_time": t, "time_unit": "us", "GB/s": 1000.0,
                 "pct_copy": pct_copy, "verified": 1.0}
            if pct_read is not None:
                b["pct_read"] = pct_read
            return b
        ctx = {"gpu": "Test GPU", "gpu_slug": "test-gpu", "copy_ceiling_gbps": "4000.0",
               "read_ceiling_gbps": "4400.0", "read_ceiling_method": "streaming read"}
        benches = [bench("reduce/v01_x/n:1024", 10.0, 50.0, 45.5),
                   bench("reduce/v02_y/n:1024", 5.0, 100.0, 90.9),
                   bench("reduce/cub/n:1024", 6.0, 83.3, 75.8),
                   bench("scan/v01_x/n:1024", 10.0, 50.0, 45.5),
                   bench("scan/cub/n:1024", 9.0, 55.0, 50.0)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "test-gpu.json")
            with open(path, "w") as f:
                json.dump({"context": ctx, "benchmarks": benches}, f)
            got_ctx, runs = report.load(path)
            for b in benches:  # the same run without the read ceiling
                b.pop("pct_read")
            with open(path, "w") as f:
                json.dump({"context": {k: v for k, v in ctx.items() if "read" not in k},
                           "benchmarks": benches}, f)
            old_ctx, old_runs = report.load(path)
        table, figures = report.op_table(runs, "reduce", 1024)
        lines = table.splitlines()
        self.assertEqual(lines[0], "| version | time (µs) | GB/s | % copy ceiling | "
                         "% read ceiling | × previous | speed vs CUB | verified |")
        self.assertEqual(lines[1], "|---|--:|--:|--:|--:|--:|--:|:-:|")
        self.assertEqual(lines[3], "| `v02_y` | 5.00 | 1,000 | 100.0% | 90.9% | 2.00× | 1.20× "
                         "| ✓ |")
        self.assertAlmostEqual(figures["cub"]["pct_read"], 75.8)
        self.assertNotIn("read", report.op_table(runs, "scan", 1024)[0])
        self.assertIn("| measured read ceiling (GB/s) | 4400.0 |", report.context_table(got_ctx, 1))
        self.assertIn("| read ceiling method | streaming read |", report.context_table(got_ctx, 1))
        # without it: the table as before
        old_table, old_figures = report.op_table(old_runs, "reduce", 1024)
        self.assertEqual(old_table.splitlines()[3],
                         "| `v02_y` | 5.00 | 1,000 | 100.0% | 2.00× | 1.20× | ✓ |")
        self.assertIsNone(old_figures["cub"]["pct_read"])
        self.assertNotIn("read", report.context_table(old_ctx, 1))
        # a figure span of it, and an error where the run has none
        self.assertEqual(report.figure_value("pctread", "reduce/v02_y/n:2^10",
                                             lambda k, s=None: figures[k[1]]), "90.9%")
        with self.assertRaises(ValueError):
            report.figure_value("pctread", "reduce/v02_y/n:2^10",
                                lambda k, s=None: old_figures[k[1]])

    def test_a_figure_near_its_target_is_not_rounded_onto_it(self):
        # 96.97% against a 97% target: one decimal would print 97.0% beside "missed"; the target
        # tables and the pct2 figure kind print enough decimals to show which side it is on.
        from ladder_report.fmt import fmt_pct_against, fmt_ratio_against
        self.assertEqual(fmt_pct_against(96.97, 97), "96.97%")
        self.assertEqual(fmt_pct_against(97.04, 97), "97.04%")
        self.assertEqual(fmt_pct_against(96.9996, 97), "96.9996%")
        self.assertEqual(fmt_pct_against(95.4, 97), "95.4%")
        self.assertEqual(fmt_ratio_against(0.8504, 0.85), "0.8504")
        self.assertEqual(fmt_ratio_against(0.763, 0.85), "0.763")
        fig = {"pct_copy": 96.97}
        self.assertEqual(report.figure_value("pct2", "scan/v17_x/n:2^28", lambda k, s=None: fig),
                         "96.97%")
        self.assertEqual(report.figure_value("pct", "scan/v17_x/n:2^28", lambda k, s=None: fig),
                         "97.0%")

    def test_captions_under_pictures_and_in_caption_spans(self):
        # A temporary root whose results/plots holds two pictures and a captions.json naming
        # one: each embedded picture gets its caption in italics under it, where there is one.
        with tempfile.TemporaryDirectory() as d:
            plots = os.path.join(d, "results", "plots")
            os.makedirs(plots)
            for name in os.listdir(os.path.join(ROOT, "results")):
                if name != "plots":
                    os.symlink(os.path.join(ROOT, "results", name), os.path.join(d, "results", name))
            for png in ("nvidia-h200-scan-ladder.png", "scan-vs-cub.png"):
                open(os.path.join(plots, png), "w").close()
            old_root = results.ROOT
            try:
                results.ROOT = d
                files, errors = report.results_files(), []
                chapter = ("# Scan\n\n<!-- BEGIN generated results: scan -->\n"
                           "<!-- END generated results: scan -->\n"
                           "See <!--caption:scan-vs-cub.png-->old<!--/caption-->.\n")
                bare = report.render_chapter(None, "scan", files, chapter)
                self.assertEqual(report.render_captions(bare, errors), bare)
                self.assertEqual(errors, ["no caption for 'scan-vs-cub.png' in "
                                          "results/plots/captions.json"])
                with open(os.path.join(plots, "captions.json"), "w") as f:
                    json.dump({"scan-vs-cub.png": "H200 and H100: v16 over *cub* against n.",
                               "unused.png": "x"}, f)
                errors = []
                text = report.render_captions(report.render_chapter(None, "scan", files,
                                                                    chapter), errors)
                results_md = report.render_results(files)
            finally:
                results.ROOT = old_root
        self.assertEqual(errors, [])
        # without captions: the pictures alone, and the sentence saying what they draw
        self.assertIn("The pictures (`scripts/plots.py`): each version's time", bare)
        self.assertIn("(../results/plots/nvidia-h200-scan-ladder.png)\n\n"
                      "![scan-vs-cub](../results/plots/scan-vs-cub.png)\n\n", bare)
        # with them: the caption under its picture, none under the other
        self.assertIn("(../results/plots/nvidia-h200-scan-ladder.png)\n\n"
                      "![scan-vs-cub](../results/plots/scan-vs-cub.png)\n\n"
                      "*H200 and H100: v16 over \\*cub\\* against n.*\n\n", text)
        self.assertIn("say under each what they draw", text)
        self.assertTrue(text.endswith("See <!--caption:scan-vs-cub.png-->H200 and H100: v16 over "
                                      "*cub* against n.<!--/caption-->.\n"))
        self.assertIn("![scan-vs-cub](results/plots/scan-vs-cub.png)\n\n"
                      "*H200 and H100: v16 over \\*cub\\* against n.*\n", results_md)

    def test_committed_reports_are_up_to_date(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "report.py"), "--check"],
                           capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


class LessonCheckTest(unittest.TestCase):
    """report.py --check --lessons: lab talk in a chapter or version header fails."""
    CLEAN = ("# Reduce\n\nv11 loads a tile per block; it takes "
             "<!--fig:ratio logs/nvidia-h200-sweep-62be97c-2026-11-23.json.gz@reduce/v11_x/n:2^10 "
             "reduce/cub/n:2^10-->1.272×<!--/fig--> CUB's time.\n<!-- a note at deda07d -->\n"
             "Constants like 0x9e3779b9 and sizes like 1234567 are no hashes.\n")

    def tree(self, d, chapters, header=None):
        for rel, text in chapters.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        if header is not None:
            os.makedirs(os.path.join(d, "reduce", "rows"), exist_ok=True)
            with open(os.path.join(d, "reduce", "rows", "v01_x.cuh"), "w") as f:
                f.write(header)

    def test_a_clean_chapter_passes(self):
        with tempfile.TemporaryDirectory() as d:
            self.tree(d, {"reduce/README.md": self.CLEAN, "results/PROVENANCE.md": "at 198269b\n",
                          "reduce/lab/LAB_NOTES.md": "session 9 at 198269b, probe_v10.cu\n"},
                      "// v01: one thread per row\n")
            self.assertEqual(lessons.check_lessons(d), [])

    def test_lab_talk_in_the_results_index_is_rejected(self):
        with tempfile.TemporaryDirectory() as d:
            self.tree(d, {"reduce/README.md": self.CLEAN,
                          "results/README.md": "the raw JSON\nas run at 198269b\n"})
            found = lessons.check_lessons(d)
            self.assertEqual(len(found), 1, found)
            self.assertEqual(found[0][:3], ("results/README.md", 2, "commit hash"))

    def test_inserted_lab_talk_is_rejected_with_file_and_line(self):
        cases = {"commit hash": ("the per-GPU run at `198269b` shows", "198269b"),
                 "probe file": ("as sort/lab/probe_pairs_shape.cu found", "probe_pairs_shape.cu"),
                 "seed": ("as seed 002 §2 says", "seed 002"),
                 "session": ("the sixth session measured it", "session")}
        for what, (sentence, word) in cases.items():
            with self.subTest(what), tempfile.TemporaryDirectory() as d:
                self.tree(d, {"scan/README.md": self.CLEAN + sentence + "\n",
                              "sort/README.md": self.CLEAN})
                found = lessons.check_lessons(d)
                self.assertEqual(found, [("scan/README.md", 6, what, word)])
                self.assertEqual(lessons.format_findings(found),
                                 [f"scan/README.md:6: {what}: {word!r}"])

    def test_version_headers_in_sub_folders_first_4000_characters(self):
        with tempfile.TemporaryDirectory() as d:
            late = "// fine\n" + " " * 4000 + "\n// measured at 62be97c\n"
            self.tree(d, {"reduce/README.md": self.CLEAN}, "// v01\n// Seed 001 says so\n")
            self.assertEqual(lessons.check_lessons(d),
                             [(os.path.join("reduce", "rows", "v01_x.cuh"), 2, "seed", "Seed 001")])
            self.tree(d, {}, late)  # beyond the header: not checked
            self.assertEqual(lessons.check_lessons(d), [])

    def test_lines_with_a_figure_span_stay_short(self):
        span = "<!--fig v11_cub_2e10-->1.272×<!--/fig-->"
        long_text = "x" * (160 - len(span) - 1)
        texts = {"reduce/README.md": "\n".join([
            "# Reduce", long_text + " " + span,  # 160 characters: too long
            long_text[1:] + " " + span,  # 159: fine
            "y" * 200,  # long, but no figure span
            "<!-- BEGIN generated results: reduce -->", "| " + long_text + span + " |",
            "<!-- END generated results: reduce -->",
            "| table | " + long_text + " <!--fig:time reduce/cub/n:2^28-->1 µs<!--/fig--> |"]),
                 "reduce/lab/LAB_NOTES.md": "short " + span + "\n"}
        found = lessons.long_span_lines(texts)
        self.assertEqual([(p, line, what) for p, line, what, _ in found],
                         [("reduce/README.md", 2, "160 characters with a figure span"),
                          ("reduce/README.md", 8, "180 characters with a figure span")])

    def test_sub_folder_chapters_are_checked_and_the_switch(self):
        with tempfile.TemporaryDirectory() as d:
            self.tree(d, {"reduce/rows/README.md": "two sessions later\n"})
            self.assertEqual(lessons.check_lessons(d),
                             [(os.path.join("reduce", "rows", "README.md"), 1, "session",
                               "sessions")])
        old = os.environ.pop("LADDER_LESSONS", None)
        try:
            self.assertFalse(lessons.enforced(False))
            self.assertTrue(lessons.enforced(True))
            os.environ["LADDER_LESSONS"] = "1"
            self.assertTrue(lessons.enforced(False))
        finally:
            os.environ.pop("LADDER_LESSONS", None)
            if old is not None:
                os.environ["LADDER_LESSONS"] = old


class FigKeysTest(unittest.TestCase):
    """scripts/figkeys.py: long figure spans become named ones, defined in the folder's
    figures.txt, and render to the same values."""
    CHAPTER = (
        "# Sort\n\nAt 2^28 v06 takes <!--fig:ratio nvidia-h200@sort/v06_onesweep_ballot/n:2^28/"
        "dist:uniform nvidia-h200@sort/cub/n:2^28/dist:uniform-->0.5×<!--/fig--> CUB's time,\n"
        "pairs <!--fig:time sort_pairs/v12_large_tiles/n:268435456-->?<!--/fig--> and again "
        "<!--fig:ratio nvidia-h200@sort/v06_onesweep_ballot/n:268435456/dist:uniform\n"
        "nvidia-h200@sort/cub/n:2^28/dist:uniform-->0.5×<!--/fig-->;\n"
        "a kept file: <!--fig:time logs/nvidia-h100-closeup-sort-v11-0dc2c8f-2026-11-24.json.gz@"
        "sort/v11_merge_small/n:16385/dist:few-->?<!--/fig-->, named <!--fig mine-->1<!--/fig-->"
        "\n")

    def test_names_sidecar_and_reuse(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "sort"))
            path, sidecar = os.path.join(d, "sort", "README.md"), os.path.join(d, "sort",
                                                                               "figures.txt")
            with open(path, "w") as f:
                f.write(self.CHAPTER)
            with open(sidecar, "w") as f:  # an existing definition; its name is taken
                f.write("mine = time sort/cub/n:2^28/dist:uniform\n"
                        "pairs_v12_2e28_us = time sort_pairs/cub/n:2^28\n")
            with redirect_stdout(io.StringIO()) as out:
                self.assertEqual(figkeys.main([path]), 0)
            self.assertIn("4 long spans named, 3 new names", out.getvalue())
            with open(path) as f:
                text = f.read()
            with open(sidecar) as f:
                defs = f.read()
            # the same figure written two ways gets one name; a taken name gets _2
            self.assertEqual(text, (
                "# Sort\n\nAt 2^28 v06 takes <!--fig h200_v06_cub_2e28_uniform-->0.5×<!--/fig--> "
                "CUB's time,\npairs <!--fig pairs_v12_2e28_us_2-->?<!--/fig--> and again "
                "<!--fig h200_v06_cub_2e28_uniform-->0.5×<!--/fig-->;\n"
                "a kept file: <!--fig h100_closeup_v11_2e14+1_few_us-->?<!--/fig-->, named "
                "<!--fig mine-->1<!--/fig-->\n"))
            self.assertEqual(defs.splitlines()[2:], [
                "h200_v06_cub_2e28_uniform = ratio nvidia-h200@sort/v06_onesweep_ballot/n:2^28/"
                "dist:uniform nvidia-h200@sort/cub/n:2^28/dist:uniform",
                "pairs_v12_2e28_us_2 = time sort_pairs/v12_large_tiles/n:268435456",
                "h100_closeup_v11_2e14+1_few_us = time logs/nvidia-h100-closeup-sort-v11-0dc2c8f-"
                "2026-11-24.json.gz@sort/v11_merge_small/n:16385/dist:few"])
            # a second run changes nothing
            with redirect_stdout(io.StringIO()):
                figkeys.main([path])
            with open(path) as f:
                self.assertEqual(f.read(), text)
            with open(sidecar) as f:
                self.assertEqual(f.read(), defs)
            # the converted chapter renders to the long one's values
            lookup = report.figure_lookup(report.results_files())
            names, errors = report.read_sidecar(sidecar)
            long_text = self.CHAPTER.replace("<!--fig mine-->", "<!--fig:time sort/cub/n:2^28/"
                                             "dist:uniform-->")
            self.assertEqual(self.values(long_text, lookup, {}),
                             self.values(text, lookup, names))

    def test_name_words(self):
        self.assertEqual(figkeys.size_tag(1 << 28), "2e28")
        self.assertEqual(figkeys.size_tag((1 << 31) + 17), "2e31+17")
        self.assertEqual(figkeys.size_tag(25_600_000), "25.6M")
        self.assertEqual(figkeys.size_tag(1000), "1k")
        self.assertEqual(figkeys.size_tag(33), "33")
        self.assertEqual(figkeys.file_tag(
            "logs/nvidia-h100-80gb-hbm3-sweep-elementwise-sort-298d1b6-2026-11-23.json.gz"),
            "h100_sweep")
        self.assertEqual(figkeys.file_tag(
            "logs/nvidia-h100-sweep-sort-v12-without-dispatch-6bed7fe-2026-11-24.json.gz"),
            "h100_sweep_without_dispatch")
        self.assertEqual(figkeys.derive_name(
            "ratio", "row_sum/v05_row_tiles/n:2^28/dist:square row_sum/cub/n:2^28/dist:square",
            "reduce"), "rowsum_v05_cub_2e28_square")
        self.assertEqual(figkeys.derive_name(
            "ratio", "sort/v10_x/n:2^28/dist:few sort/v10_x/n:2^28/dist:uniform", "sort"),
            "v10_2e28_few_vs_uniform")
        self.assertEqual(figkeys.derive_name(
            "pct", "nvidia-h100-80gb-hbm3@histogram_u8/v05_x/n:2^28/dist:uniform", "histogram"),
            "h100_u8_v05_2e28_uniform_pct")

    def test_the_chapters_convert_to_the_same_values(self):
        # A copy of every chapter with its named spans written out long again (from the folder's
        # figures.txt), converted without that sidecar: each renders to the values it gave.
        lookup = report.figure_lookup(report.results_files())
        with tempfile.TemporaryDirectory() as d:
            copies = []
            for op in sorted(set(report.CHAPTER.values()) | set(report.OPERATORS)):
                src = os.path.join(ROOT, op, "README.md")
                if os.path.exists(src):
                    os.makedirs(os.path.join(d, op))
                    copies.append((src, os.path.join(d, op, "README.md")))
                    with open(src) as f, open(copies[-1][1], "w") as g:
                        g.write(self.long_spans(f.read(), os.path.dirname(src)))
            with redirect_stdout(io.StringIO()):
                self.assertEqual(figkeys.main([c for _, c in copies]), 0)
            for src, copy in copies:
                with open(src) as f:
                    original = self.long_spans(f.read(), os.path.dirname(src))
                self.assertTrue(any(m.group(1) for m in report.FIGURE.finditer(original)), src)
                with open(copy) as f:
                    converted = f.read()
                names, errors = report.read_sidecar(os.path.join(os.path.dirname(copy),
                                                                 "figures.txt"))
                self.assertEqual(errors, [])
                self.assertFalse(any(m.group(1) for m in report.FIGURE.finditer(converted)))
                used = set()
                self.assertEqual(self.values(original, lookup, {}),
                                 self.values(converted, lookup, names, used), src)
                self.assertEqual(used, set(names))

    def long_spans(self, text, folder):
        """The text with each named span written with its kind and keys, as before figkeys.py."""
        names, errors = report.read_sidecar(os.path.join(folder, "figures.txt"))
        self.assertEqual(errors, [])

        def one(m):
            if m.group(1):
                return m.group(0)
            kind, keys = names[m.group(3)]
            return f"<!--fig:{kind} {keys}-->{m.group(4)}<!--/fig-->"
        return report.FIGURE.sub(one, text)

    def values(self, text, lookup, names, used=None):
        errors = []
        out = report.render_figures(text, lookup, errors, names, used)
        self.assertEqual(errors, [])
        return [m.group(4) for m in report.FIGURE.finditer(out)]


try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False


@unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
class PlotsTest(unittest.TestCase):
    def test_ladder_picture_from_a_real_file(self):
        import plots
        with tempfile.TemporaryDirectory() as d:
            with redirect_stdout(io.StringIO()):
                self.assertEqual(plots.main([REAL, "--out", d]), 0)
            self.assertTrue(os.path.exists(os.path.join(d, "nvidia-h200-scan-ladder.png")))
            self.assertFalse(os.path.exists(os.path.join(d, "gpus-pct-copy.png")))  # one GPU

    def test_closeup_picture_from_one_kept_file(self):
        import plots
        kept = os.path.join(ROOT, "results", "logs",
                            "nvidia-h100-closeup-sort-v12-crossover-6bed7fe-2026-11-24.json.gz")
        ctx, runs = report.load(kept)
        with tempfile.TemporaryDirectory() as d:
            with redirect_stdout(io.StringIO()):
                self.assertEqual(plots.main(["--closeup", kept, "--name", "x", "--out", d]), 0)
            self.assertEqual(sorted(f for f in os.listdir(d) if f.endswith(".png")),
                             ["x-sort.png", "x-sort_pairs.png"])
            # a file without CUB beside the versions draws nothing and says so
            import matplotlib.pyplot as plt
            no_cub = {k: v for k, v in runs.items() if k[1] != "cub"}
            self.assertFalse(plots.closeup_figure(no_cub, "sort", "g", os.path.join(d, "y.png")))
            self.assertFalse(os.path.exists(os.path.join(d, "y.png")))
            plt.close("all")
            with redirect_stderr(io.StringIO()):
                self.assertEqual(plots.main(["--closeup", kept, "--out", d]), 1)  # no --name

    def test_across_gpu_picture_from_the_per_gpu_run(self):
        import plots
        with tempfile.TemporaryDirectory() as d:
            with redirect_stdout(io.StringIO()):
                self.assertEqual(plots.main(report.per_gpu_files() + ["--out", d]), 0)
            self.assertTrue(os.path.exists(os.path.join(d, "gpus-pct-copy.png")))


class NcuSummaryTest(unittest.TestCase):
    def test_units_are_scaled(self):
        header = ['"ID"', '"gpu__time_duration.sum"', '"lts__t_sectors_srcunit_tex_op_write.sum"']
        units = ['""', '"ns"', '"sector"']
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "reduce__v11_tiled_loads.csv")
            with open(path, "w") as f:
                for r in [header, units, ['"0"', '"8,260"', '"1,000,000"']]:
                    f.write(",".join(r) + "\n")
            values, kernels = ncu_summary.parse(path)
            self.assertEqual(kernels, 1)
            self.assertAlmostEqual(values["time (µs)"], 8.26)
            self.assertAlmostEqual(values["L2 write (MB)"], 32.0)


    def test_the_timed_launch_is_the_middle_third(self):
        header = ['"ID"', '"Kernel Name"', '"gpu__time_duration.sum"', '"dram__bytes_read.sum"',
                  '"smsp__inst_executed.sum"', '"sm__warps_active.avg.pct_of_peak_sustained_active"']
        units = ['""', '""', '"usecond"', '"Mbyte"', '"inst"', '"%"']
        rows = []
        for launch, scale in enumerate([1, 2, 3]):  # check, timed, check
            for k in range(2):  # two kernels per launch
                rows.append([f'"{2 * launch + k}"', '"k"', f'"{10 * scale}"', f'"{100 * scale}"',
                             f'"{1000000 * (k + 1)}"', f'"{50 + 10 * k}"'])
        # the harness's own kernels around them (the read ceiling at start-up, a digest after a
        # check) are not the version's and must not shift the thirds
        harness = [[f'"{90 + i}"', f'"void (anonymous namespace)::{k}(const float4 *)"', '"5"',
                    '"7"', '"1000"', '"10"']
                   for i, k in enumerate(["read_ceiling_kernel", "read_ceiling_kernel",
                                          "digest_kernel"])]
        rows = harness[:2] + rows[:2] + [harness[2]] + rows[2:]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "scan__v13_vectorized_lookback.csv")
            with open(path, "w") as f:
                f.write("==PROF== noise\n")
                for r in [header, units] + rows:
                    f.write(",".join(r) + "\n")
            values, kernels = ncu_summary.parse(path)
            self.assertEqual(kernels, 2)
            self.assertEqual(values["time (µs)"], 40)        # 2 x 20: the middle launch
            self.assertEqual(values["DRAM read (MB)"], 400)
            self.assertEqual(values["instructions (M)"], 3)
            self.assertAlmostEqual(values["occupancy %"], (50 * 1 + 60 * 2) / 3)
            out = os.path.join(d, "summary.md")
            with redirect_stdout(io.StringIO()):
                self.assertEqual(ncu_summary.main(["x", d, out]), 0)
            # report.py puts the same figures beside the chapter's tables
            old_root = results.ROOT
            try:
                os.makedirs(os.path.join(d, "results", "ncu-test-gpu"))
                os.rename(path, os.path.join(d, "results", "ncu-test-gpu",
                                             os.path.basename(path)))
                results.ROOT = d
                table = report.counters_table("scan", "test-gpu")
                # A chapter's counters block names its folder and is filled from it; a folder
                # without the operator's CSVs is an error, and the block is left as it was.
                errors = []
                block = ("<!-- BEGIN generated counters: scan ncu-test-gpu -->\nold\n"
                         "<!-- END generated counters -->")
                filled = report.render_counter_blocks("x\n" + block + "\ny", errors)
                missing = block.replace("ncu-test-gpu", "logs/none")
                kept = report.render_counter_blocks(missing, errors)
            finally:
                results.ROOT = old_root
            self.assertIn("| `v13_vectorized_lookback` | 2 |", table)
            self.assertIn("| `v13_vectorized_lookback` | 2 |", filled)
            self.assertNotIn("\nold\n", filled)
            self.assertTrue(filled.startswith("x\n<!-- BEGIN") and filled.endswith("-->\ny"))
            self.assertEqual(kept, missing)
            self.assertEqual(errors, ["no counters of scan in results/logs/none"])
            self.assertIsNone(report.counters_table("scan", "no-such-gpu"))
            with open(out) as f:
                self.assertIn("`scan/v13_vectorized_lookback` | 2 |", f.read())


    def test_the_kernels_table_splits_the_timed_launch(self):
        # Two versions, each launched three times (check, timed, check) with two kernels; the
        # table must show the middle launch's kernels, their bytes per element and bandwidth.
        header = ['"ID"', '"Kernel Name"', '"gpu__time_duration.sum"', '"dram__bytes_read.sum"',
                  '"dram__bytes_write.sum"', '"smsp__inst_executed.sum"',
                  '"sm__inst_issued.avg.pct_of_peak_sustained_active"',
                  '"smsp__warps_active.avg.per_cycle_active"']
        units = ['""', '""', '"usecond"', '"Mbyte"', '"Mbyte"', '"inst"', '"%"', '"warp"']
        n = 1000000
        with tempfile.TemporaryDirectory() as d:
            folder = os.path.join(d, "results", "logs", "ncu-test")
            os.makedirs(folder)
            for slug, names in [("v13_more_warps", ["v09::striped_histogram", "v08::onesweep_kernel"]),
                                ("cub", ["cub::DeviceRadixSortOnesweepKernel",
                                         "cub::DeviceRadixSortOnesweepKernel"])]:
                rows = []
                for launch, scale in enumerate([1, 2, 3]):
                    for k, name in enumerate(names):
                        rows.append([f'"{2 * launch + k}"',
                                     f'"void ladder::sort::{name}<256u, 32u>(const unsigned int *)"',
                                     f'"{100 * scale * (k + 1)}"', f'"{4 * scale}"',
                                     f'"{4 * scale * k}"', f'"{1000000 * scale * (k + 1)}"',
                                     f'"{40 + k}"', '"6.5"'])
                with open(os.path.join(folder, f"sort__{slug}.csv"), "w") as f:
                    for r in [header, units] + rows:
                        f.write(",".join(r) + "\n")
            got = ncu_summary.kernels(os.path.join(folder, "sort__v13_more_warps.csv"))
            self.assertEqual([k for k, _ in got], ["striped_histogram", "onesweep_kernel"])
            old_root = results.ROOT
            try:
                results.ROOT = d
                table = report.kernels_table("sort", "logs/ncu-test", n)
                errors = []
                block = ("<!-- BEGIN generated kernels: sort logs/ncu-test n=1000000 -->\nold\n"
                         "<!-- END generated kernels -->")
                filled = report.render_counter_blocks(block, errors)
                kept = report.render_counter_blocks(block.replace("ncu-test", "none"), errors)
            finally:
                results.ROOT = old_root
        lines = table.splitlines()
        # the timed launch (scale 2): the histogram 200 µs, 8 MB read, 0 written: 8 bytes an
        # element, 40 GB/s; the pass 400 µs, 8 MB read and 8 written: 16 bytes, 40 GB/s
        self.assertIn("| `v13_more_warps` | striped_histogram | 200.0 | 8.0 | 0.0 | 8.00 | 40 | "
                      "2.0 | 40.0 | 6.5 |", lines)
        self.assertIn("| `v13_more_warps` | onesweep_kernel | 400.0 | 8.0 | 8.0 | 16.00 | 40 | "
                      "4.0 | 41.0 | 6.5 |", lines)
        self.assertIn("| | all 2 | 600.0 | 16.0 | 8.0 | 24.00 | 40 | 6.0 | — | — |", lines)
        # rungs first in ladder order, then the baseline
        self.assertLess(lines.index(next(l for l in lines if "v13_more_warps" in l)),
                        lines.index(next(l for l in lines if "`cub`" in l)))
        # a kernel launched twice in the timed launch is numbered; one launched once is not
        self.assertIn("| `cub` | DeviceRadixSortOnesweepKernel #2 | 400.0 |", table)
        self.assertNotIn("onesweep_kernel #", table)
        self.assertEqual(filled, block.replace("\nold\n", "\n" + table + "\n"))
        self.assertEqual(errors, ["no counters of sort in results/logs/none"])
        self.assertIn("\nold\n", kept)


class NcuPhasesTest(unittest.TestCase):
    HEADER = ('"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed",'
              '"stall_barrier","stall_long_sb","stall_barrier (Not Issued)"')

    def write(self, d, rows):
        path = os.path.join(d, "k-sass.csv")
        with open(path, "w") as f:
            f.write('"Kernel Name","void k<256u>(int *)",\n' + self.HEADER + "\n")
            for r in rows:
                f.write(",".join(f'"{x}"' for x in r) + "\n")
        return path

    def test_cuts_after_each_barrier_and_shares_add_up(self):
        # address, source, samples, executed, barrier, long_sb, barrier (not issued)
        rows = [["0x0", "LDG.E R1, desc[UR4][R2.64]", 10, 100, 0, 0, 0],
                ["0x10", "PRMT R3, R1, 0x4440, RZ", 30, 100, 0, 30, 0],
                ["0x20", "BAR.SYNC.DEFER_BLOCKING 0x0", 20, 100, 20, 0, 9],
                ["0x30", "@P0 BRA 0x80", 0, 0, 0, 0, 0],
                ["0x40", "@!P1 STG.E desc[UR4][R4.64], R3", 40, 100, 0, 0, 0],
                ["0x50", "EXIT", 0, 300, 0, 0, 0]]
        with tempfile.TemporaryDirectory() as d:
            path = self.write(d, rows)
            out = ncu_phases.table(path)
            with open(path, "rb") as f, gzip.open(path + ".gz", "wb") as g:
                g.write(f.read())
            # the same file gzipped (as results/logs keeps them) gives the same rows
            self.assertEqual(ncu_phases.table(path + ".gz").splitlines()[1:],
                             out.splitlines()[1:])
        lines = out.splitlines()
        # 300 of the 700 instructions and 60 of the 100 samples up to and including the barrier
        self.assertIn("| 0-2 | LDG.E 1, PRMT 1, BAR.SYNC.DEFER_BLOCKING 1 | 42.9% | 60.0% | "
                      "long_sb 30.0%, barrier 20.0% |", lines)
        # the predicated store counts as STG.E; the never executed branch adds no opcode
        self.assertIn("| 3-5 | STG.E 1, EXIT 1 | 57.1% | 40.0% |  |", lines)
        self.assertIn("All samples by stall reason: long_sb 30.0%, barrier 20.0%.", lines)

    def test_chapter_block_fills_a_table_and_names_a_mismatch(self):
        rows = [["0x0", "LDG.E R1, desc[UR4][R2.64]", 10, 100, 0, 10, 0],
                ["0x10", "BAR.SYNC.DEFER_BLOCKING 0x0", 30, 100, 30, 0, 0],
                ["0x20", "STG.E desc[UR4][R4.64], R3", 60, 200, 0, 0, 0]]
        old_root = results.ROOT
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "results", "logs"))
            self.write(os.path.join(d, "results", "logs"), rows)
            block = ("<!-- BEGIN generated phases:\n  v01_a=logs/k-sass.csv v02_b=logs/k-sass.csv\n"
                     "  | load | store -->\nold\n<!-- END generated phases -->")
            errors = []
            try:
                results.ROOT = d
                filled = report.render_counter_blocks(block, errors)
                wrong = report.render_counter_blocks(block.replace("| store ", ""), errors)
            finally:
                results.ROOT = old_root
        lines = filled.splitlines()
        # 200 of the 400 instructions and 40 of the 100 samples up to the barrier; the load's 10
        # long-scoreboard samples are the longest wait on a load
        self.assertIn("| load | 50.0% / 40.0% | 50.0% / 40.0% |", lines)
        self.assertIn("| store | 50.0% / 60.0% | 50.0% / 60.0% |", lines)
        self.assertIn("| the one instruction that waited longest on a load (samples) | 10.0% | "
                      "10.0% |", lines)
        self.assertIn("| all steps: waiting at a barrier (samples) | 30.0% | 30.0% |", lines)
        self.assertNotIn("old", lines)
        self.assertIn("old", wrong.splitlines())  # a mismatch leaves the block as it was
        self.assertEqual(len(errors), 1)
        self.assertIn("2 segments that executed, 1 steps named", errors[0])

    def test_rejects_a_file_that_is_not_a_source_page(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.csv")
            with open(path, "w") as f:
                f.write('"ID","Kernel Name"\n"0","k"\n')
            err = io.StringIO()
            with redirect_stderr(err):
                self.assertEqual(ncu_phases.main(["x", path]), 1)
        self.assertIn("not an ncu --page source --csv file", err.getvalue())


class SanitizerSummaryTest(unittest.TestCase):
    def test_findings_are_charged_to_the_running_case(self):
        log = "\n".join([
            "[ RUN      ] Registry/VersionTest.MatchesReference/scan_v04_kogge_stone_n33_ones",
            "[       OK ] Registry/VersionTest.MatchesReference/scan_v04_kogge_stone_n33_ones (1 ms)",
            "[ RUN      ] Registry/VersionTest.MatchesReference/copy_if_v05_single_pass_n1000_keep50",
            "========= Invalid __global__ write of size 4 bytes",
            "========= ERROR SUMMARY: 1 error",
        ])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "memcheck.log")
            with open(path, "w") as f:
                f.write(log)
            versions, tail = sanitizer_summary.parse(path)
            self.assertEqual(versions["scan/v04_kogge_stone"][:2], [1, 0])
            self.assertEqual(versions["copy_if/v05_single_pass"][:2], [1, 1])
            out = os.path.join(d, "summary.md")
            with redirect_stdout(io.StringIO()):
                rc = sanitizer_summary.main(["x", out, f"memcheck={path}"])
            self.assertEqual(rc, 1)
            with open(out) as f:
                text = f.read()
            self.assertIn("clean (1)", text)
            self.assertIn("**1 reports**", text)

def mirror_root(d):
    """A temporary root in d that reads like ROOT: a copy of its files and folders (the chapters,
    the lab notes, the rung files; a snapshot, so that edits to ROOT while a test runs change
    nothing), but results/ a folder of symbolic links to ROOT's (so a test can add a file there
    without touching ROOT)."""
    import shutil
    for name in os.listdir(ROOT):
        if name.startswith(".") or name.startswith("build"):
            continue
        src, dst = os.path.join(ROOT, name), os.path.join(d, name)
        if name == "results":
            os.makedirs(dst)
            for entry in os.listdir(src):
                os.symlink(os.path.join(src, entry), os.path.join(dst, entry))
        elif os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "build*"))
        else:
            shutil.copy2(src, dst)


class at_root:
    """with at_root(d): ladder_report reads the tree at d."""
    def __init__(self, d):
        self.d = d

    def __enter__(self):
        self.old, results.ROOT = results.ROOT, self.d

    def __exit__(self, *exc):
        results.ROOT = self.old


class ReaderRunTest(unittest.TestCase):
    """A reader's own run (a results file results/MANIFEST.json does not name) goes to RESULTS.md's
    own section and rewrites no lesson, unless report.py is asked (--with-reader-runs)."""

    def reader_file(self, d):
        # README.md's first command on an H200 writes results/nvidia-h200.json; here the frozen
        # scan run with every rung 1.3 times slower than the frozen run, CUB as it was.
        with open(os.path.join(ROOT, "results", "nvidia-h200-scan.json")) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if "/cub/" not in b["name"]:
                b["real_time"] *= 1.3
        path = os.path.join(d, "results", "nvidia-h200.json")
        with open(path, "w") as f:
            json.dump(data, f)
        return path

    def test_the_committed_files_are_the_manifests(self):
        self.assertEqual(results.manifest_errors(), [])
        self.assertEqual(results.json_files(results.READER), [])
        named = results.frozen_paths()
        self.assertEqual(set(results.json_files(results.FROZEN)), named)
        for slug in ("nvidia-h200", "nvidia-h100-80gb-hbm3"):
            self.assertTrue(any(os.path.basename(p).startswith(slug + "-sort") for p in named))

    def test_a_readers_run_changes_no_lesson_and_has_its_own_section(self):
        with tempfile.TemporaryDirectory() as d:
            mirror_root(d)
            with at_root(d):
                frozen = lambda: report.results_files(results.FROZEN)  # noqa: E731
                errors = []
                before = report.render_all(frozen(), errors, results.FROZEN)
                mine = self.reader_file(d)
                self.assertEqual(results.json_files(results.READER), [mine])
                self.assertNotIn(mine, frozen())
                after = report.render_all(frozen(), errors, results.FROZEN)
                asked = report.render_all(report.results_files(results.ALL), errors, results.ALL)
            self.assertEqual(errors, [])
            results_md = os.path.join(d, "RESULTS.md")
            self.assertEqual(set(before), set(after))
            for path in before:
                if path != results_md:
                    self.assertEqual(before[path], after[path], os.path.relpath(path, d))
            # RESULTS.md: the frozen GPUs' sections as before, then the reader's own section
            self.assertNotIn("## Your runs", before[results_md])
            self.assertTrue(after[results_md].startswith(before[results_md].rstrip("\n")))
            yours = after[results_md][len(before[results_md].rstrip("\n")):]
            self.assertIn("## Your runs", yours)
            self.assertIn("Files: `results/nvidia-h200.json`", yours)
            self.assertIn("## Your run: NVIDIA H200", yours)
            row = next(line for line in yours.splitlines()
                       if line.startswith("| scan | `v18_epoch_statuses` |"))
            self.assertTrue(row.endswith("| 1.300× |"), row)  # yours ÷ the frozen H200
            # Asked for, the reader's run rewrites the scan chapter: its rungs are slower.
            chapter = os.path.join(d, "scan", "README.md")
            self.assertNotEqual(asked[chapter], before[chapter])
            self.assertEqual(asked[results_md], after[results_md])

    def test_a_manifest_naming_a_missing_or_foreign_file_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "results"))
            os.symlink(os.path.join(ROOT, "results", "nvidia-h200-scan.json"),
                       os.path.join(d, "results", "nvidia-h200-scan.json"))
            with open(os.path.join(d, "results", "MANIFEST.json"), "w") as f:
                json.dump({"gpus": {"nvidia-h200": {"scan": "nvidia-h200-scan.json",
                                                    "sort": "nvidia-h200-sort.json"},
                                    "nvidia-h100-80gb-hbm3": {
                                        "scan": "nvidia-h200-scan.json"}}}, f)
            with at_root(d):
                self.assertEqual(results.manifest_errors(), [
                    "results/MANIFEST.json: nvidia-h200 sort: no such file "
                    "results/nvidia-h200-sort.json",
                    "results/MANIFEST.json: nvidia-h100-80gb-hbm3 scan: "
                    "results/nvidia-h200-scan.json is a run of nvidia-h200"])
                os.unlink(os.path.join(d, "results", "MANIFEST.json"))  # none: every file frozen
                self.assertEqual(len(results.json_files(results.FROZEN)), 1)
                self.assertEqual(results.json_files(results.READER), [])


class LogsSpanTest(unittest.TestCase):
    """report.py --check --lessons: a chapter's figure span that reads results/logs/ is found
    (the lab notes may read logs); it fails the check once enforced."""

    def test_a_planted_span_is_rejected_and_the_lab_notes_may_read_logs(self):
        logs = "logs/nvidia-h200-sweep-62be97c-2026-11-23.json.gz"
        with tempfile.TemporaryDirectory() as d:
            for rel, text in {
                    "reduce/README.md": (
                        "# Reduce\n\nfrozen <!--fig:time reduce/cub/n:2^28-->1<!--/fig-->, by GPU "
                        "<!--fig:time nvidia-h100-80gb-hbm3@reduce/cub/n:2^28-->1<!--/fig-->,\n"
                        f"planted <!--fig:ratio {logs}@reduce/v11_x/n:2^10 reduce/cub/n:2^10-->"
                        "1×<!--/fig--> and named <!--fig old-->1<!--/fig--> "
                        "<!--fig fine-->1<!--/fig-->\n"),
                    "reduce/figures.txt": f"old = time {logs}@reduce/cub/n:2^10\n"
                                          "fine = time per-gpu/device0/x.json@reduce/cub/n:2^10\n",
                    "reduce/lab/LAB_NOTES.md": f"<!--fig:time {logs}@reduce/cub/n:2^10-->1<!--/fig-->\n",
                    "README.md": f"headline <!--fig:time {logs}@reduce/cub/n:2^10-->1<!--/fig-->\n"}.items():
                os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(d, rel), "w") as f:
                    f.write(text)
            found = lessons.logs_spans(d)
        self.assertEqual(found, [
            ("README.md", 1, "figure span reads results/logs/", logs),
            (os.path.join("reduce", "README.md"), 4, "figure span reads results/logs/", logs),
            (os.path.join("reduce", "README.md"), 4, "figure 'old' reads results/logs/", logs)])

    def test_the_switch(self):
        saved = {k: os.environ.pop(k, None) for k in ("LADDER_LESSONS", "LADDER_LOGS_SPANS")}
        old = lessons.ENFORCE_LOGS_SPANS
        try:
            lessons.ENFORCE_LOGS_SPANS = False
            self.assertFalse(lessons.logs_spans_enforced(True))  # counted, listed, not failed
            os.environ["LADDER_LOGS_SPANS"] = "1"
            self.assertTrue(lessons.logs_spans_enforced(True))
            self.assertFalse(lessons.logs_spans_enforced(False))  # only with --lessons
            os.environ.pop("LADDER_LOGS_SPANS")
            lessons.ENFORCE_LOGS_SPANS = True
            self.assertTrue(lessons.logs_spans_enforced(True))
        finally:
            lessons.ENFORCE_LOGS_SPANS = old
            for k, v in saved.items():
                os.environ.pop(k, None)
                if v is not None:
                    os.environ[k] = v

    def test_the_chapters_are_counted(self):
        # Every finding names a chapter (never a lab notes page) and a file under results/logs/.
        for path, _, what, word in lessons.logs_spans(ROOT):
            self.assertNotIn(os.sep + "lab" + os.sep, os.sep + path)
            self.assertTrue(word.startswith("logs/") and "reads results/logs/" in what)


class ChapterTableTest(unittest.TestCase):
    """README.md's chapter table: generated from the rung files, the frozen results and each
    chapter's chapter_row.txt; report.py --check catches a stale row."""

    def test_rows_come_from_the_rung_files_and_the_results(self):
        table = report.chapter_table(report.results_files(results.FROZEN), results.FROZEN)
        rows = {line.split(" | ")[1].split("]")[0][1:]: line.split(" | ")
                for line in table.splitlines()[2:]}
        self.assertEqual(list(rows), ["reduce", "elementwise", "scan", "copy_if", "histogram",
                                      "sort"])
        for chapter, cells in rows.items():
            rungs = report.rung_files(os.path.join(ROOT, chapter))
            self.assertTrue(cells[2].startswith(f"{rungs[0][:3]}–{rungs[-1][:3]} + CUB"), cells)
            fields = report.read_chapter_row(os.path.join(ROOT, chapter, "chapter_row.txt"))
            self.assertEqual(cells[3], f"`{fields.get('top', rungs[-1])}`")
            status = cells[5].rstrip().removesuffix("|")  # the row's closing pipe is no word
            self.assertLessEqual(len(report.FIGURE.sub("x", status).split()), report.STATUS_WORDS)
        self.assertIn("rows v00–v05 + CUB; columns v00–v04 + cuBLAS", rows["reduce"][2])
        # sort_pairs stops a rung below the top (v17 is registered for keys only), and says so
        self.assertIn("v00–v17 + CUB (pairs to v16)", rows["sort"][2])
        # the top rung over CUB at 2^28, from the same figures as the sort table
        h200 = report.op_table(report.merged_runs(report.gpu_groups(
            report.results_files(results.FROZEN))["nvidia-h200"]), "sort", 1 << 28, "uniform")[1]
        want = h200["v17_constant_buckets"]["time_us"] / h200["cub"]["time_us"]
        # the cell names the operator it measures (sort's chapter holds sort_pairs too)
        self.assertTrue(rows["sort"][4].startswith(f"`sort`: H200 {want:.3f}×"), rows["sort"][4])

    def test_a_stale_row_is_caught(self):
        begin, end = "<!-- BEGIN generated chapters -->", "<!-- END generated chapters -->"
        with tempfile.TemporaryDirectory() as d:
            mirror_root(d)
            with at_root(d):
                files = report.results_files(results.FROZEN)
                fresh = report.chapter_table(files, results.FROZEN)
                # a row typed by hand, as sort's was: the rung range and the top rung one behind
                stale = fresh.replace("v00–v17 + CUB (pairs to v16) | `v17_constant_buckets`",
                                      "v00–v16 + CUB | `v16_top_digits_first`")
                self.assertNotEqual(stale, fresh)
                text = f"# x\n{begin}\n{stale}\n{end}\nafter\n"
                self.assertEqual(report.render_readme(None, files, text, results.FROZEN),
                                 f"# x\n{begin}\n{fresh}\n{end}\nafter\n")
                # a new rung file moves the range and the top rung; not yet measured, it says so
                with open(os.path.join(d, "sort", "v18_next.cuh"), "w") as f:
                    f.write("// sort v18\n")
                grown = report.chapter_table(files, results.FROZEN)
                self.assertIn("v00–v18 + CUB (pairs to v16; sort to v17) | `v18_next` | `sort`: H200: "
                              "`v18` not measured at 2^28", grown)
                # a reader's own rung (scripts/new_rung.py: registered in <op>/mine.inc) is not
                # the ladder's: the row stays as it was
                with open(os.path.join(d, "sort", "v19_mine.cuh"), "w") as f:
                    f.write("// sort v19, yours\n")
                with open(os.path.join(d, "sort", "mine.inc"), "a") as f:
                    f.write('\n#include "sort/v19_mine.cuh"\n')
                self.assertEqual(report.chapter_table(files, results.FROZEN), grown)
                # a status over 40 words, or with a number typed by hand, is an error
                row = os.path.join(d, "scan", "chapter_row.txt")
                os.unlink(row)
                with open(row, "w") as f:
                    f.write("chapter: 3\noperator: prefix sum\nstatus: "
                            + "word " * 41 + "\n  at 0.78× of CUB's time, as of 62be97c\n")
                errors = []
                report.chapter_table(files, results.FROZEN, errors)
                # a `top:` that names no rung file of the folder is an error too (elementwise's
                # names v07, the fused headline's top rung, below v08 and v09, which serve add only)
                erow = os.path.join(d, "elementwise", "chapter_row.txt")
                etext = open(erow).read()
                self.assertIn("top: v07_fastdivmod_broadcast", etext)
                os.unlink(erow)
                with open(erow, "w") as f:
                    f.write(etext.replace("top: v07_fastdivmod_broadcast", "top: v07_no_such_rung"))
                top_errors = []
                report.chapter_table(files, results.FROZEN, top_errors)
                self.assertIn("elementwise/chapter_row.txt: top v07_no_such_rung is not a rung "
                              "file of elementwise/", top_errors)
        self.assertEqual(errors, [
            "scan/chapter_row.txt: the status has 49 words (at most 40)",
            "scan/chapter_row.txt: lab talk in the status: commit hash '62be97c'",
            "scan/chapter_row.txt: the status types a measured number by hand ('0.78×'): write "
            "it as a figure span"])


if __name__ == "__main__":
    unittest.main()
