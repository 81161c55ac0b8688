#!/usr/bin/env python3
"""The CLI's input path against the API and against cat (docs/PERF.md, "Input
path of the CLI").

Makes a y4m pair of synthetic content with vqx_bench --dump (under /tmp, kept
for later runs), reads it once to warm the page cache, then times, best of
--runs:

  cat REF DIS > /dev/null                       reading the bytes once
  vqx -r REF -d DIS --feature F -n --threads T  whole process, and the fps it writes
  vqx_bench REF DIS --feature F --threads T     the API on frames held in memory
                                                (--pool: as many as the CLI reads),
                                                as cold as the CLI (--warmup 0
                                                --repeat 1), alternating with it

for each feature F and thread count T (0: the calling thread only; the
default list adds every processor); F "vmaf" is the default model
(vmaf_v0.6.1) instead of a feature with -n. The goals: the CLI's fps within 5% of the
API's, and the whole psnr run within 2 x cat + 0.06 s.

usage: bench/input_bench.py BUILD_DIR [--size 1920x1080] [--frames 60]
       [--runs 5] [--pool N] [--features null,psnr,vmaf] [--threads 0,N]
       [--env VQX_READER_THREADS=2]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def best_wall(cmd, runs, env=None, stdout=subprocess.DEVNULL):
    """Shortest wall-clock time of `runs` runs, and the output of that run."""
    best, out = None, None
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, env=env, check=False)
        dt = time.perf_counter() - t0
        if p.returncode:
            sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
        if best is None or dt < best:
            best, out = dt, p.stdout
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--bpc", type=int, default=8)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pool", type=int, help="frame pairs the API holds (default --frames)")
    ap.add_argument("--features", default="null,psnr")
    ap.add_argument("--threads", default=f"0,{os.cpu_count()}")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the vqx runs")
    ap.add_argument("--dir", default="/tmp/vqx-input-bench")
    args = ap.parse_args()

    vqx = os.path.join(args.build, "tools", "vqx")
    bench = os.path.join(args.build, "bench", "vqx_bench")
    os.makedirs(args.dir, exist_ok=True)
    stem = os.path.join(args.dir, f"{args.size}_{args.bpc}_{args.frames}")
    ref, dis = stem + "_ref.y4m", stem + "_dis.y4m"
    if not (os.path.exists(ref) and os.path.exists(dis)):
        subprocess.run([bench, "--synthetic", f"{args.size}:{args.bpc}", "--frames", str(args.frames),
                        "--dump", f"{ref},{dis}"], check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ)
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value

    with open(ref, "rb") as f1, open(dis, "rb") as f2:  # warm the page cache
        while f1.read(1 << 24) or f2.read(1 << 24):
            pass
    size_mb = (os.path.getsize(ref) + os.path.getsize(dis)) / 1e6
    cat_s, _ = best_wall(["cat", ref, dis], args.runs, stdout=subprocess.DEVNULL)
    print(f"# {args.size} {args.bpc}-bit 4:2:0, {args.frames} frames, {size_mb:.0f} MB in all; "
          f"best of {args.runs}; nproc {os.cpu_count()}")
    print(f"# cat: {cat_s:.3f} s ({size_mb / 1e3 / cat_s:.2f} GB/s)")
    print(f"# {'feature':8} {'threads':>7} {'vqx s':>7} {'vqx fps':>9} {'CLI fps':>9} {'API fps':>9} "
          f"{'CLI/API':>7} {'vqx <= 2 cat + 0.06':>20}")
    for feature in args.features.split(","):
        for threads in args.threads.split(","):
            what = [] if feature == "vmaf" else ["--feature", feature]
            cli = [vqx, "-r", ref, "-d", dis, *what, *(["-n"] if what else []),
                   "--threads", threads, "--json", "-o", "-", "-q"]
            # the API as cold as the CLI: a fresh process, one timed pass over
            # the same frames and nothing before it; the two alternate
            api = [bench, ref, dis, "--pool", str(args.pool or args.frames), "--frames",
                   str(args.frames), "--warmup", "0", "--repeat", "1", *what, "--threads", threads]
            wall, cli_fps, api_fps = None, 0.0, 0.0
            for _ in range(args.runs):
                dt, out = best_wall(cli, 1, env=env, stdout=subprocess.PIPE)
                wall = dt if wall is None else min(wall, dt)
                cli_fps = max(cli_fps, json.loads(out)["fps"])
                out = best_wall(api, 1, stdout=subprocess.PIPE)[1]
                api_fps = max(api_fps, float(re.search(rb"fps_median=([\d.]+)", out).group(1)))
            goal = "-" if feature == "vmaf" else "yes" if wall <= 2 * cat_s + 0.06 else "no"
            print(f"  {feature:8} {threads:>7} {wall:7.3f} {args.frames / wall:9.1f} {cli_fps:9.1f} "
                  f"{api_fps:9.1f} {cli_fps / api_fps:7.3f} {goal:>20}")


if __name__ == "__main__":
    main()
