#!/usr/bin/env python3
"""Runs libvmaf_api_test (the libvmaf API in FFmpeg 5.1's and FFmpeg 8's call orders) on
clip pairs of ../shared and compares what it prints with the golden values, exactly.

  libvmaf_api_test.py --test BIN --shared DIR --cache DIR --model-dir DIR [--pairs a,b]

BIN's "frame I NAME VALUE" lines (%.17g) must equal the golden doubles; its "pooled NAME
METHOD VALUE" lines must equal the golden values pooled as libvmaf pools them; the JSON log
it writes (vmaf_write_output) must hold, for every key the golden has, the golden value as
libvmaf prints it.  BIN's own checks of the error paths ("BIN errors") must pass.
With --vqx CLI, odd sizes too: a pair cropped by one column and one row is read through
the API (libvmaf's floor-sized chroma, whose missing column and row vqx repeats from their
neighbours, docs/libvmaf.md), and must equal the CLI on the same crop with that column and
row repeated in the file.
Exit 0 all equal, 1 otherwise, 77 when ../shared is absent.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import unpack  # noqa: E402
from pyav_libvmaf import c_print, parse_json, pool  # noqa: E402  (standard library only)

PAIRS = ["nf_src01_576x324_3f_420p8", "nf_src01_576x324_3f_420p10le",
         "nf_src01_576x324_3f_420p12le", "deb_cockatoo_x264_150k_1280x720_8f_444p8"]
# (mode, extra arguments)
RUNS = [("ffmpeg8", ["--threads", "0"]), ("ffmpeg8", ["--threads", "2", "--subsample", "2"]),
        ("ffmpeg51", ["--threads", "0"]), ("ffmpeg51", ["--threads", "2", "--subsample", "3"])]
GOLDEN_RUNS = ["v061_all", "models", "options"]
# names the test prints -> golden keys; vmaf_noclip equals vmaf wherever vmaf is not clipped;
# vmaf_egl (vmaf_v0.6.1 with vif and adm enhn_gain_limit 1.0) is vmaf_v0.6.1neg
MODEL_GOLDEN = {"vmaf": "vmaf", "vmaf_path": "vmaf", "vmaf_noclip": "vmaf",
                "vmaf_egl": "vmaf_v0.6.1neg", "vmaf_v0.6.1neg": "vmaf_v0.6.1neg"}


ODD_PAIRS = ["nf_src01_576x324_3f_420p8", "nf_src01_576x324_3f_420p10le"]


def crop_frames(src, dst, w, h, bytes_per_sample, frames, repeat_edges):
    """The raw 4:2:0 clip cropped to (w - 1) x (h - 1): luma cropped; chroma keeps its
    ceil((w - 1) / 2) x ceil((h - 1) / 2) = w / 2 x h / 2 planes, with (repeat_edges) the
    last column and row replaced by their neighbours, as vqx fills libvmaf's pictures."""
    cw, ch = w // 2, h // 2
    b = bytes_per_sample
    with open(src, "rb") as f, open(dst, "wb") as out:
        for _ in range(frames):
            y = f.read(w * h * b)
            for row in range(h - 1):
                out.write(y[row * w * b:(row * w + w - 1) * b])
            for _plane in range(2):
                c = bytearray(f.read(cw * ch * b))
                if repeat_edges:
                    for row in range(ch):
                        at = (row * cw + cw - 1) * b
                        c[at:at + b] = c[at - b:at]
                    c[(ch - 1) * cw * b:ch * cw * b] = c[(ch - 2) * cw * b:(ch - 1) * cw * b]
                out.write(c)


def check_odd_size(args, pair):
    w, h, bits = pair["width"], pair["height"], pair["bitdepth"]
    b = 2 if bits > 8 else 1
    ref = unpack(args.shared, args.cache, pair["ref"], pair["sha256"][pair["ref"]])
    dis = unpack(args.shared, args.cache, pair["dis"], pair["sha256"][pair["dis"]])
    bad, n = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, path in (("ref", ref), ("dis", dis)):
            for edges in (False, True):
                files[name, edges] = os.path.join(tmp, f"{name}_{edges}.yuv")
                crop_frames(path, files[name, edges], w, h, b, pair["frames"], edges)
        geometry = [str(w - 1), str(h - 1), "420", str(bits)]
        p = subprocess.run([args.test, "ffmpeg8", files["ref", False], files["dis", False],
                            *geometry, args.model_dir, "--threads", "0"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return 0, [f"exit {p.returncode}: {p.stdout[-2000:]}{p.stderr[-2000:]}"]
        api = {}
        for line in p.stdout.splitlines():
            f = line.split()
            if f[0] == "frame":
                api[int(f[1]), golden_key(f[2]) if f[2] != "vmaf" else "vmaf"] = float(f[3])
        cli = subprocess.run([args.vqx, "-r", files["ref", True], "-d", files["dis", True],
                              "-w", geometry[0], "-h", geometry[1], "-p", "420", "-b", geometry[3],
                              "--feature", "psnr", "--feature", "float_ssim=enable_lcs=true",
                              "--json", "--precision", "max", "-o", "-", "-q"],
                             capture_output=True, text=True)
        if cli.returncode != 0:
            return 0, [f"vqx exit {cli.returncode}: {cli.stderr[-2000:]}"]
        for fr in json.loads(cli.stdout)["frames"]:
            for key, v in fr["metrics"].items():
                if (fr["frameNum"], key) in api:
                    n += 1
                    if not same(api[fr["frameNum"], key], to_float(v)):
                        bad.append(f"frame {fr['frameNum']} {key}: API {api[fr['frameNum'], key]!r}, "
                                   f"CLI {v!r}")
        if not any(k == "psnr_cb" for _, k in api):
            bad.append("no chroma value compared")
    return n, bad


def golden_key(name):
    if name in MODEL_GOLDEN:
        return MODEL_GOLDEN[name]
    if name.startswith("VMAF_integer_feature_") and name.endswith("_score"):
        return "integer_" + name[len("VMAF_integer_feature_"):-len("_score")]
    return name


def to_float(v):
    return float(v) if isinstance(v, str) else v


def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--test", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--model-dir", required=True)
    ap.add_argument("--pairs", default="")
    ap.add_argument("--vqx", help="the CLI, for the odd-size check")
    args = ap.parse_args()
    manifest_path = os.path.join(args.shared, "golden", "MANIFEST.json")
    failed = compared = 0
    t0 = time.time()

    p = subprocess.run([args.test, "errors", args.model_dir], capture_output=True, text=True)
    n_ok = p.stdout.count("\nok ") + p.stdout.startswith("ok ")
    print(f"{'ok  ' if p.returncode == 0 else 'FAIL'} error paths: {n_ok} checks, exit {p.returncode}")
    if p.returncode != 0:
        failed += 1
        print(p.stdout + p.stderr)
    if not os.path.exists(manifest_path):
        print(f"SKIP: {manifest_path} not found: golden comparison not run")
        return 1 if failed else 77
    manifest = json.load(open(manifest_path))
    wanted = [x for x in args.pairs.split(",") if x] or PAIRS

    for pair in manifest["pairs"]:
        if pair["id"] not in wanted:
            continue
        golden = json.load(open(os.path.join(args.shared, "golden", pair["golden"])))
        runs = {r["name"]: r for r in golden["runs"]}

        def lookup(key):
            for rn in GOLDEN_RUNS:
                if rn in runs and key in runs[rn]["per_frame"]:
                    return [to_float(v) for v in runs[rn]["per_frame"][key]]
            return None
        ref = unpack(args.shared, args.cache, pair["ref"], pair["sha256"][pair["ref"]])
        dis = unpack(args.shared, args.cache, pair["dis"], pair["sha256"][pair["dis"]])
        for mode, extra in RUNS:
            label = f"{pair['id']} {mode} {' '.join(extra)}"
            subsample = int(extra[extra.index("--subsample") + 1]) if "--subsample" in extra else 1
            scored = [i for i in range(pair["frames"]) if subsample <= 1 or i % subsample == 0]
            bad = []
            n = 0
            with tempfile.TemporaryDirectory() as tmp:
                log = os.path.join(tmp, "log.json")
                cmd = [args.test, mode, ref, dis, str(pair["width"]), str(pair["height"]),
                       pair["pixfmt"], str(pair["bitdepth"]), args.model_dir] + extra + ["--log", log]
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"FAIL {label}: exit {p.returncode}\n  {' '.join(cmd)}\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
                    failed += 1
                    continue
                frames_seen = {}
                for line in p.stdout.splitlines():
                    f = line.split()
                    if f[0] == "frame":
                        i, name, v = int(f[1]), f[2], float(f[3])
                        frames_seen.setdefault(name, set()).add(i)
                        g = lookup(golden_key(name))
                        if g is None:
                            bad.append(f"{name}: no golden key {golden_key(name)}")
                            continue
                        if name == "vmaf_noclip" and not 0 < g[i] < 100:
                            continue
                        n += 1
                        if not same(v, g[i]):
                            bad.append(f"frame {i} {name}: got {v!r}, golden {g[i]!r}")
                    elif f[0] == "pooled":
                        name, method, v = f[1], f[2], float(f[3])
                        g = lookup(golden_key(name))
                        if g is None or name == "vmaf_noclip":
                            continue
                        n += 1
                        want = pool([g[i] for i in scored], method)
                        if not same(v, want):
                            bad.append(f"pooled {method} {name}: got {v!r}, want {want!r}")
                for name, seen in frames_seen.items():
                    if sorted(seen) != scored:
                        bad.append(f"{name}: frames {sorted(seen)}, want {scored}")
                if not frames_seen:
                    bad.append("no frame line")
                # the JSON log, at libvmaf's printed precision
                if os.path.exists(log):
                    lframes, lpooled = parse_json(log)
                    if sorted(lframes) != scored:
                        bad.append(f"log frames {sorted(lframes)}, want {scored}")
                    for i, metrics in lframes.items():
                        for k, text in metrics.items():
                            g = lookup(golden_key(k))
                            if g is None or k == "vmaf_noclip" or i >= len(g):
                                continue
                            n += 1
                            if text != c_print(g[i]):
                                bad.append(f"log frame {i} {k}: {text}, golden {c_print(g[i])}")
                    for k, methods in lpooled.items():
                        g = lookup(golden_key(k))
                        if g is None or k == "vmaf_noclip":
                            continue
                        for method, text in methods.items():
                            n += 1
                            want = c_print(pool([g[i] for i in scored], method))
                            if text != want:
                                bad.append(f"log pooled {method} {k}: {text}, want {want}")
                else:
                    bad.append("no log written")
            compared += n
            failed += bool(bad)
            print(f"{'FAIL' if bad else 'ok  '} {label}: {n} values compared")
            for b in bad[:30]:
                print("  " + b)
    if args.vqx:
        for pair in manifest["pairs"]:
            if pair["id"] in ODD_PAIRS:
                n, bad = check_odd_size(args, pair)
                compared += n
                failed += bool(bad)
                print(f"{'FAIL' if bad else 'ok  '} {pair['id']} cropped to "
                      f"{pair['width'] - 1}x{pair['height'] - 1}: {n} values against the CLI")
                for b in bad[:30]:
                    print("  " + b)
    print(f"{compared} values compared, {failed} runs failed, {time.time() - t0:.1f} s")
    if compared == 0:
        print("FAIL: nothing compared")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
