#!/usr/bin/env python3
"""vqx against libvmaf's CLI, side by side (docs/PERF.md, "vqx against libvmaf").

Both CLIs take the same flags, so each case runs one argument list through
both: `vmaf` (libvmaf, built by hand outside this repository: with nasm, for
its AVX2/AVX-512 kernels) and `vqx`, on the same y4m pair in the page cache,
on the same cores, alternating, best of --runs, whole-process wall clock. A
third column runs vqx with `--cpumask 63` (its scalar C, which equals
libvmaf's scalar C bit for bit) for the speed-up of vqx's own SIMD. Each tool's
`--feature null -n` run (reading, the framework and start-up, no metric) is
timed the same way, and the "net" columns subtract it: milliseconds per frame
of the metric itself, the measure for features cheap enough that the input
path would otherwise decide.

The pair is made with `vqx_bench --synthetic WxH:BPC --dump` under --dir and
kept for later runs. Cases: `model=NAME` (a model of models/, given to both as
`-m path=models/NAME.json`) or `feature=NAME` (`--feature NAME -n`). Every run
must exit 0 and write every frame; per-frame values are not compared here
(the golden tests do that).

usage: bench/versus_libvmaf.py BUILD_DIR LIBVMAF_CLI [--size 1920x1080]
       [--bpc 8] [--frames 24] [--runs 3] [--threads 0,N]
       [--cases model=vmaf_v0.6.1,feature=vif,...]
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CASES = ("model=vmaf_v0.6.1,model=vmaf_v1.0.16_3d0h,feature=vif,feature=adm,"
                 "feature=motion,feature=psnr,feature=float_vif,feature=float_adm,"
                 "feature=float_motion,feature=float_ssim,feature=float_ms_ssim,feature=ciede,"
                 "feature=psnr_hvs,feature=cambi,feature=speed_chroma,feature=speed_temporal,"
                 "feature=float_psnr,feature=float_ansnr,feature=float_moment")


def case_args(case):
    kind, _, name = case.partition("=")
    if kind == "model":
        return ["-m", f"path={os.path.join(ROOT, 'models', name + '.json')}"]
    if kind == "feature":
        return ["--feature", name, "-n"]
    sys.exit(f"case {case!r}: model=NAME or feature=NAME")


def best_walls(tools, runs, frames, out):
    """Best whole-process wall time of each tool, runs alternating; `frames`
    None: the output lists none (null computes nothing)."""
    best = {name: None for name in tools}
    for _ in range(runs):
        for name, cmd in tools.items():
            wall, n = timed(cmd, out)
            if frames is not None and n != frames:
                sys.exit(f"{' '.join(cmd)}: {n} frames written, not {frames}")
            best[name] = wall if best[name] is None else min(best[name], wall)
    return best


def timed(cmd, out):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t0
    if p.returncode:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode(errors='replace')[-400:]}")
    return wall, len(json.load(open(out))["frames"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("libvmaf")
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--bpc", type=int, default=8)
    ap.add_argument("--frames", type=int, default=24)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", default=f"0,{os.cpu_count()}")
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--dir", default="/tmp/vqx-versus")
    args = ap.parse_args()

    vqx = os.path.join(args.build, "tools", "vqx")
    os.makedirs(args.dir, exist_ok=True)
    stem = os.path.join(args.dir, f"{args.size}_{args.bpc}_{args.frames}")
    ref, dis, out = stem + "_ref.y4m", stem + "_dis.y4m", os.path.join(args.dir, "out.json")
    if not (os.path.exists(ref) and os.path.exists(dis)):
        subprocess.run([os.path.join(args.build, "bench", "vqx_bench"), "--synthetic",
                        f"{args.size}:{args.bpc}", "--frames", str(args.frames), "--dump",
                        f"{ref},{dis}"], check=True, stdout=subprocess.DEVNULL)
    for path in (ref, dis):  # into the page cache
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    print(f"# {args.size} {args.bpc}-bit 4:2:0, {args.frames} frames; best of {args.runs}; "
          f"nproc {os.cpu_count()}; whole-process fps")
    print("| case | threads | libvmaf fps | vqx fps | vqx scalar fps | vqx / libvmaf | "
          "vqx / vqx scalar | libvmaf net ms | vqx net ms | net: libvmaf / vqx |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def tools_for(threads, args_):
        common = ["-r", ref, "-d", dis, "--threads", threads, *args_, "--json", "-o", out,
                  "--quiet"]
        return {"libvmaf": [args.libvmaf, *common], "vqx": [vqx, *common],
                "scalar": [vqx, *common, "--cpumask", "63"]}

    for threads in args.threads.split(","):
        base = best_walls(tools_for(threads, case_args("feature=null")), args.runs, None, out)
        for case in args.cases.split(","):
            best = best_walls(tools_for(threads, case_args(case)), args.runs, args.frames, out)
            fps = {name: args.frames / wall for name, wall in best.items()}
            net = {name: max(best[name] - base[name], 0.0) * 1e3 / args.frames for name in best}
            ratio = net["libvmaf"] / net["vqx"] if net["vqx"] > 0 else float("inf")
            print(f"| {case.partition('=')[2]} | {threads} | {fps['libvmaf']:.2f} | "
                  f"{fps['vqx']:.2f} | {fps['scalar']:.2f} | {fps['vqx'] / fps['libvmaf']:.2f} | "
                  f"{fps['vqx'] / fps['scalar']:.2f} | {net['libvmaf']:.2f} | {net['vqx']:.2f} | "
                  f"{ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
