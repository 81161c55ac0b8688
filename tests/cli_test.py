#!/usr/bin/env python3
"""CLI tests: every output format, the flags, every class of bad input.

Needs nothing outside the repository: inputs are the bundled sample pair and
small files written here. PSNR values are checked against an independent
computation in Python (same double arithmetic, same libm log10).
"""
import csv
import io
import json
import math
import os
import re
import resource
import pty
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import DIS, REF, VQX, check, finish, run  # noqa: E402

TMP = tempfile.mkdtemp(prefix="vqx-cli-")


def tmp(name):
    return os.path.join(TMP, name)


# ---- y4m helpers: read and write in pure Python ----

def read_y4m(path):
    data = open(path, "rb").read()
    header, rest = data.split(b"\n", 1)
    tags = dict((t[:1].decode(), t[1:].decode()) for t in header.split()[1:])
    w, h = int(tags["W"]), int(tags["H"])
    frames = []
    cw, ch = (w + 1) // 2, (h + 1) // 2
    size = w * h + 2 * cw * ch
    while rest:
        line, rest = rest.split(b"\n", 1)
        assert line.startswith(b"FRAME")
        frames.append(rest[:size])
        rest = rest[size:]
    return w, h, frames


def write_y4m(path, w, h, frames, colour="420jpeg", extra=b""):
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s\n" % (w, h, colour.encode()))
        for fr in frames:
            f.write(b"FRAME\n" + fr)
        f.write(extra)


def plane_psnr(a, b, peak=255, cap=60.0):
    sse = sum((x - y) * (x - y) for x, y in zip(a, b))
    mse = sse / len(a)
    return min(10.0 * math.log10(peak * peak / max(mse, 1e-16)), cap)


W, H, REF_FRAMES = read_y4m(REF)
_, _, DIS_FRAMES = read_y4m(DIS)
LUMA = W * H
CW, CH = (W + 1) // 2, (H + 1) // 2


def expected_psnr(frame):
    r, d = REF_FRAMES[frame], DIS_FRAMES[frame]
    y = plane_psnr(r[:LUMA], d[:LUMA])
    cb = plane_psnr(r[LUMA:LUMA + CW * CH], d[LUMA:LUMA + CW * CH])
    cr = plane_psnr(r[LUMA + CW * CH:], d[LUMA + CW * CH:])
    return y, cb, cr


def json_run(*args):
    out = tmp("out.json")
    if os.path.exists(out):
        os.unlink(out)
    p = run("-r", REF, "-d", DIS, "--json", "--precision", "max", "-o", out, "-q", *args)
    result = json.load(open(out)) if os.path.exists(out) else None
    return p, result


# ---- scores and flags ----

p, res = json_run("--feature", "psnr", "-n")
check(p.returncode == 0 and p.stderr == "", f"psnr run ok and quiet: {p.returncode} {p.stderr!r}")
check(res and len(res["frames"]) == len(REF_FRAMES), "one frame entry per input frame")
for i, fr in enumerate(res["frames"] if res else []):
    y, cb, cr = expected_psnr(i)
    m = fr["metrics"]
    check(m["psnr_y"] == y and m["psnr_cb"] == cb and m["psnr_cr"] == cr,
          f"frame {i} psnr equals the independent computation: {m} vs {(y, cb, cr)}")
if res:
    ys = [f["metrics"]["psnr_y"] for f in res["frames"]]
    pooled = res["pooled_metrics"]["psnr_y"]
    check(pooled["min"] == min(ys) and pooled["max"] == max(ys), "pooled min/max")
    check(pooled["mean"] == sum(ys) / len(ys), "pooled mean")
    check(pooled["harmonic_mean"] == len(ys) / sum(1 / (v + 1) for v in ys) - 1, "harmonic mean")
    check(isinstance(res["fps"], float) and res["fps"] > 0, "fps is written")

_, res2 = json_run("--feature", "psnr", "-n", "--threads", "2")
check(res2 and res and res2["frames"] == res["frames"], "--threads 2 equals --threads 0")

# keys in libvmaf's order: the model's features (requested first, as libvmaf's CLI
# does), then --feature's, then the model's score
_, res = json_run("--feature", "psnr", "--threads", "2")
keys = list(res["frames"][0]["metrics"]) if res else []
check(keys[:1] == ["integer_adm2"] and keys[-1:] == ["vmaf"]
      and keys.index("psnr_y") > keys.index("integer_vif_scale3")
      and list(res["pooled_metrics"]) == keys, f"key order of model and feature: {keys}")

# libvmaf's CUDA extractor names are aliases of the same extractors: same keys,
# values and options, on the backend the settings choose
for spec in ("vif", "adm=adm_enhn_gain_limit=1.0", "motion=motion_force_zero=true"):
    name, _, options = spec.partition("=")
    alias = f"{name}_cuda" + (f"={options}" if options else "")
    _, plain = json_run("--feature", spec, "-n")
    _, cuda_named = json_run("--feature", alias, "-n")
    check(plain and cuda_named and all(plain[k] == cuda_named[k] for k in
                                       ("frames", "pooled_metrics", "aggregate_metrics", "backends")),
          f"--feature {alias} gives the output of --feature {spec}")

_, res = json_run("--feature", "psnr=enable_mse=true:enable_apsnr=true", "-n")
m0 = res["frames"][0]["metrics"] if res else {}
check("mse_y" in m0 and "mse_cr" in m0, "enable_mse writes mse keys")
check(res and set(res["aggregate_metrics"]) == {"apsnr_y", "apsnr_cb", "apsnr_cr"}, "enable_apsnr")

_, res = json_run("--feature", "psnr=enable_chroma=false", "-n")
check(res and set(res["frames"][0]["metrics"]) == {"psnr_y"}, "enable_chroma=false")

_, res = json_run("--feature", "psnr", "-n", "--frame_cnt", "2")
check(res and len(res["frames"]) == 2, "--frame_cnt 2")

_, res = json_run("--feature", "psnr", "-n", "--subsample", "2")
check(res and [f["frameNum"] for f in res["frames"]] == [0, 2, 4], "--subsample 2 lists frames 0, 2, 4")

_, res = json_run("--feature", "psnr", "-n", "--frame_skip_ref", "1", "--frame_skip_dist", "1")
if res:
    y, _, _ = expected_psnr(1)
    check(res["frames"][0]["metrics"]["psnr_y"] == y and len(res["frames"]) == 4,
          "--frame_skip_ref/--frame_skip_dist skip the first frames")

p = run("-r", REF, "-d", DIS, "--feature", "psnr", "-n", "--precision", "3", "--csv", "-o", "-")
lines = p.stdout.splitlines()
check(p.returncode == 0 and lines[0] == "Frame,psnr_y,psnr_cb,psnr_cr,", f"csv header: {lines[:1]}")
check(len(lines) == 6 and lines[1].startswith("0,") and len(lines[1].split(",")[1].split(".")[1]) == 3,
      f"csv rows with 3 decimals: {lines[1:2]}")

p = run("-r", REF, "-d", DIS, "--feature", "psnr", "-n", "-o", "-", "-q")
check(p.stdout.startswith('<VMAF version="') and '<frame frameNum="4" psnr_y="' in p.stdout
      and '<metric name="psnr_y" min="' in p.stdout and "<aggregate_metrics" in p.stdout,
      "xml is the default format")

p = run("-r", REF, "-d", DIS, "--feature", "psnr", "-n", "--sub", "-o", "-", "-q")
check(p.stdout.startswith("{0}{1}frame: 0|psnr_y: "), f"sub format: {p.stdout[:40]!r}")

p = run("--help")
check(p.returncode == 0 and "--reference" in p.stdout and "psnr" in p.stdout, "--help exits 0")
p = run("-v")
check(p.returncode == 0 and p.stdout.startswith("vqx "), "-v prints the version")

# ---- models and presets ----

p, res = json_run()
check(p.returncode == 0 and res and all("vmaf" in f["metrics"] for f in res["frames"]),
      f"default model vmaf_v0.6.1 named vmaf: {p.stderr}")
p, res = json_run("-m", "version=vmaf_v0.6.1:name=first", "-m", "version=vmaf_v0.6.1neg:name=second")
check(res and {"first", "second"} <= set(res["frames"][0]["metrics"]), "two models, named")
p, res = json_run("--aom_ctc", "v7.0")
keys = set(res["frames"][0]["metrics"]) if res else set()
check(p.returncode == 0 and {"vmaf", "vmaf_neg", "ciede2000", "float_ssim", "float_ms_ssim",
                             "psnr_hvs", "cambi", "psnr_y"} <= keys and res["aggregate_metrics"],
      f"--aom_ctc v7.0 runs its models and features: {p.stderr} {sorted(keys)}")
p, res = json_run("--nflx_ctc", "v1.0")
keys = set(res["frames"][0]["metrics"]) if res else set()
check(p.returncode == 0 and {"vmaf", "vmaf_neg", "float_ssim", "cambi", "psnr_y"} <= keys,
      f"--nflx_ctc v1.0: {p.stderr} {sorted(keys)}")

# --aom_ctc v6.0 and later score inputs of different bit depths at the larger:
# 8-bit samples are shifted up, so PSNR with the reduced peak is unchanged
dis10 = tmp("dis10.y4m")
write_y4m(dis10, W, H, [b"".join((v << 2).to_bytes(2, "little") for v in fr) for fr in DIS_FRAMES],
          "420p10")
p8, res8 = json_run("--aom_ctc", "v6.0", "--frame_cnt", "2")
out10 = tmp("mixed.json")
p10 = run("-r", REF, "-d", dis10, "--aom_ctc", "v6.0", "--frame_cnt", "2", "--json",
          "--precision", "max", "-o", out10, "-q")
res10 = json.load(open(out10)) if p10.returncode == 0 else None
check(res8 and res10 and [f["metrics"]["psnr_y"] for f in res8["frames"]] ==
      [f["metrics"]["psnr_y"] for f in res10["frames"]],
      f"--aom_ctc v6.0 with 8-bit reference and 10-bit distorted: {p10.stderr}")
p = run("-r", REF, "-d", dis10, "--aom_ctc", "v5.0")
check(p.returncode == 3 and "differ" in p.stderr, f"v5.0 needs one bit depth: {p.stderr}")

# ---- inputs in every layout ----

def layout_frames(w, h, planes_per_frame, n=2):
    size = sum(pw * ph for pw, ph in planes_per_frame)
    return [bytes((i * 7 + k * 3) & 255 for k in range(size)) for i in range(n)]


for colour, planes in (
        ("422", [(5, 3), (3, 3), (3, 3)]),
        ("444", [(5, 3), (5, 3), (5, 3)]),
        ("mono", [(5, 3)]),
        ("420mpeg2", [(5, 3), (3, 2), (3, 2)]),
        ("444alpha", [(5, 3), (5, 3), (5, 3), (5, 3)])):
    frames = layout_frames(5, 3, planes)
    path = tmp(f"odd_{colour}.y4m")
    write_y4m(path, 5, 3, frames, colour)
    p = run("-r", path, "-d", path, "--feature", "psnr", "-n", "--json", "-o", tmp("o.json"), "-q")
    res = json.load(open(tmp("o.json"))) if p.returncode == 0 else None
    keys = {"psnr_y"} if colour == "mono" else {"psnr_y", "psnr_cb", "psnr_cr"}
    check(p.returncode == 0 and res and set(res["frames"][0]["metrics"]) == keys
          and res["frames"][0]["metrics"]["psnr_y"] == 60.0,
          f"y4m C{colour} 5x3 identical frames score the cap: {p.returncode} {p.stderr}")

# raw yuv: the same sample frames written without headers
raw_ref, raw_dis = tmp("ref.yuv"), tmp("dis.yuv")
open(raw_ref, "wb").write(b"".join(REF_FRAMES))
open(raw_dis, "wb").write(b"".join(DIS_FRAMES))
p = run("-r", raw_ref, "-d", raw_dis, "-w", str(W), "-h", str(H), "-p", "420", "-b", "8",
        "--feature", "psnr", "-n", "--json", "--precision", "max", "-o", tmp("raw.json"), "-q")
res = json.load(open(tmp("raw.json"))) if p.returncode == 0 else None
check(res and res["frames"][3]["metrics"]["psnr_y"] == expected_psnr(3)[0], f"raw yuv input: {p.stderr}")

# ---- bad input: each exits non-zero with a clear message, never a crash ----

def bad(args, code, needle, what):
    p = run(*args)
    check(p.returncode == code and needle in p.stderr,
          f"{what}: exit {p.returncode} (want {code}), stderr {p.stderr.strip()!r} (want {needle!r})")
    return p


bad(["-r", tmp("missing.y4m"), "-d", DIS], 3, "missing.y4m", "missing file")
open(tmp("bad_header.y4m"), "wb").write(b"YUV4MPEG2 W320 Hx C420\nFRAME\n")
bad(["-r", tmp("bad_header.y4m"), "-d", DIS], 3, "bad_header.y4m", "malformed y4m header")
write_y4m(tmp("small.y4m"), 16, 16, [bytes(16 * 16 * 3 // 2)])
bad(["-r", REF, "-d", tmp("small.y4m")], 3, "differ", "different geometry")
write_y4m(tmp("444.y4m"), W, H, [bytes(W * H * 3)], "444")
bad(["-r", REF, "-d", tmp("444.y4m")], 3, "differ", "different chroma format")
write_y4m(tmp("p10.y4m"), W, H, [bytes(W * H * 3)], "420p10")
bad(["-r", REF, "-d", tmp("p10.y4m")], 3, "differ", "different bit depth")
# raw input ending inside a frame: as a truncated y4m, the complete frames are scored and written
open(tmp("short.yuv"), "wb").write(b"".join(REF_FRAMES) + b"\0" * 100)
out = tmp("short.json")
bad(["-r", tmp("short.yuv"), "-d", raw_dis, "-w", str(W), "-h", str(H), "-p", "420", "-b", "8",
     "--feature", "psnr", "-n", "--json", "-o", out],
    4, f"short.yuv: frame 5 is truncated (got 100 of {LUMA + 2 * CW * CH} bytes)",
    "raw size not a whole number of frames")
res = json.load(open(out)) if os.path.exists(out) else None
check(res and len(res["frames"]) == 5, "raw input ending inside a frame: the five complete frames are written")
bad(["-r", raw_ref, "-d", raw_dis], 3, "-w", "raw input without geometry")

# truncated last frame: the complete frames are scored and written
write_y4m(tmp("trunc.y4m"), W, H, DIS_FRAMES[:4], extra=b"FRAME\n" + DIS_FRAMES[4][:1000])
out = tmp("trunc.json")
p = bad(["-r", REF, "-d", tmp("trunc.y4m"), "--feature", "psnr", "-n", "--json", "-o", out],
        4, "frame 4", "truncated last frame")
res = json.load(open(out)) if os.path.exists(out) else None
check(res and len(res["frames"]) == 4, "truncated input: the four complete frames are written")

bad(["-r", REF, "-d", DIS, "--feature", "nosuch"], 2, "psnr", "unknown feature lists the features")
bad(["-r", REF, "-d", DIS, "--feature", "psnr=nosuch=1"], 2, "enable_mse", "unknown option lists the options")
bad(["-r", REF, "-d", DIS, "--feature", "psnr=min_sse=-1"], 2, "min_sse", "option value out of range")
bad(["-r", REF, "-d", DIS, "--feature", "psnr=enable_mse=maybe"], 2, "true or false", "bad boolean")
bad(["-r", REF, "-d", DIS, "-m", "version=vmaf_v9"], 2, "vmaf_v0.6.1", "unknown model lists the models")
bad(["-r", REF, "-d", DIS, "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"], 2,
    "a model named 'vmaf' already writes the key 'vmaf'", "two models of one name (one score key)")
bad(["-r", REF, "-d", DIS, "-n", "--feature", "cambi=full_ref=true", "--feature",
     "cambi=full_ref=true:topk=0.2"], 1, "its key 'cambi_source' is already written, with another value",
    "two features writing one key with other values")
bad(["-r", REF, "-d", DIS, "-m", "path=" + tmp("none.json")], 2, "none.json", "missing model file")
bad(["-r", REF, "-d", DIS, "--aom_ctc", "v9.0"], 2, "v7.0", "unknown preset version")
bad(["-r", REF, "-d", DIS, "--backend", "opencl"], 2, "cpu", "unknown backend")
# cuda: scores where a device is, else a clear error (not built in, or no device)
p = run("-r", REF, "-d", DIS, "--backend", "cuda", "--feature", "psnr", "-n")
check(p.returncode == 0 or (p.returncode == 2 and "backend cuda: " in p.stderr),
      f"backend cuda: exit {p.returncode}, stderr {p.stderr.strip()!r}")
# vulkan: a GPU that is not there is an error naming how many there are; without a
# Vulkan build or device, one clear error
p = run("-r", REF, "-d", DIS, "--backend", "vulkan", "--gpu", "99", "--feature", "psnr", "-n")
check(p.returncode == 2 and ("no device 99" in p.stderr or "backend vulkan: " in p.stderr or
                             "no Vulkan loader" in p.stderr),
      f"backend vulkan --gpu 99: exit {p.returncode}, stderr {p.stderr.strip()!r}")
bad(["-r", REF, "-d", DIS, "--threads", "-1"], 2, "thread", "bad thread count")
bad(["-r", REF, "-d", DIS, "--precision", "40"], 2, "precision", "bad precision")
bad(["-r", REF, "-d", DIS, "--nosuchflag"], 2, "nosuchflag", "unknown flag")
bad(["-r", REF], 2, "distorted", "missing -d")
bad(["-r", REF, "-d", DIS, "--feature", "psnr", "-n", "-o", tmp("no/such/dir/out.xml")], 5,
    "out.xml", "unwritable output")

# ---- usage errors: each exits 2 and frees what was parsed (the ASan build's
# leak check changes the exit code of a run that leaks) ----

FEAT = ["--feature", "psnr", "--feature", "float_ssim=enable_lcs=true", "-m", "version=vmaf_v0.6.1"]
for args, needle, what in (
        (["--threads", "abc"], "thread", "non-numeric thread count"),
        (["-w", "abc"], "width", "bad width"),
        (["-h", "0"], "height", "zero height"),
        (["-w", "4294967296"], "width", "width past UINT_MAX"),
        (["-p", "411"], "pixel format", "bad pixel format"),
        (["-b", "7"], "bit depth", "bad bit depth"),
        (["--subsample", "x"], "subsample", "bad subsample"),
        (["--cpumask", "x"], "cpumask", "bad cpumask"),
        (["--frame_cnt", "-2"], "frame count", "bad frame count"),
        (["--frame_skip_ref", "x"], "frame skip", "bad frame skip (reference)"),
        (["--frame_skip_dist", "x"], "frame skip", "bad frame skip (distorted)"),
        (["--precision", "x"], "precision", "bad precision word"),
        (["--backend", "x"], "backend", "bad backend"),
        (["--backend", "cuda", "--gpu", "x"], "GPU", "bad GPU index"),
        (["--gpu", "0"], "--backend cuda", "--gpu without --backend cuda"),
        (["--aom_ctc", "v0.1"], "aom_ctc", "bad aom_ctc version"),
        (["--nflx_ctc", "v2.0"], "nflx_ctc", "bad nflx_ctc version"),
        (["extra"], "unexpected argument", "a stray argument"),
        (["-w", "16"], "all of -w", "partial raw geometry"),
        (["--nosuch"], "nosuch", "unknown long flag"),
        (sum((["--feature", "psnr"] for _ in range(65)), []), "too many features", "too many features"),
        (sum((["-m", "version=vmaf_v0.6.1"] for _ in range(65)), []), "too many models", "too many models"),
        (["--output"], "needs a value", "flag without its value")):
    bad(["-r", REF, "-d", DIS, *FEAT, *args], 2, needle, f"usage: {what}")
bad([*FEAT, "-d", DIS], 2, "reference", "usage: no -r after features")
bad([*FEAT, "--feature", "nosuch", "-r", REF, "-d", DIS], 2, "psnr", "usage: unknown feature after others")
bad([*FEAT, "-r", REF, "-d", DIS, "-m", "version=nosuch"], 2, "vmaf_v0.6.1", "usage: bad model after others")
bad([*FEAT, "-r", REF, "-d", DIS, "--feature", "psnr=enable_mse=2"], 2, "true or false",
    "usage: bad option after others")
bad([*FEAT, "-r", tmp("missing.y4m"), "-d", DIS], 3, "missing.y4m", "missing input after features")
for flag, needle in (("--help", "--reference"), ("-v", "vqx ")):
    p = run(*FEAT, "--aom_ctc", "v7.0", flag)
    check(p.returncode == 0 and needle in p.stdout and p.stderr == "",
          f"{flag} after features and a preset exits 0: {p.returncode} {p.stderr!r}")

# ---- frame geometry too large ----

open(tmp("tiny.yuv"), "wb").write(bytes(1000))
BIG = ["-w", "65536", "-h", "65536", "-p", "444", "-b", "16"]
bad(["-r", tmp("tiny.yuv"), "-d", tmp("tiny.yuv"), *BIG], 3,
    "tiny.yuv: a 65536x65536 4:4:4 16-bit frame needs 24 GiB", "a frame too large is refused at open")
bad(["-r", tmp("nothere.yuv"), "-d", tmp("tiny.yuv"), *BIG], 3, "nothere.yuv: No such file",
    "a missing input is reported before its geometry")
open(tmp("huge.y4m"), "wb").write(b"YUV4MPEG2 W65536 H32768 C420\nFRAME\n" + bytes(100))
bad(["-r", tmp("huge.y4m"), "-d", tmp("huge.y4m")], 3, "65536x32768 4:2:0 8-bit frame needs 3 GiB",
    "a y4m frame too large is refused at open")
bad(["-r", tmp("tiny.yuv"), "-d", tmp("tiny.yuv"), "-w", "4294967295", "-h", "4294967295",
     "-p", "444", "-b", "16"], 3, "out of range", "a size past 65536 does not wrap")

# ---- output files: well formed whatever the strings in them ----

KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
# a string option holds anything but ':' (the option separator) and NUL
WEIRD = "h\"<>&'\n\t\r x=y é"
heat = os.path.join(TMP, WEIRD)
ALL = ["-r", REF, "-d", DIS, "--frame_cnt", "2", "-q", "-m", "version=vmaf_v0.6.1:name=vmaf_x.1-b",
       "--feature", "psnr=enable_apsnr=true", "--feature", "float_vif=vif_sigma_nsq=0.5",
       "--feature", "cambi=heatmaps_path=" + heat]


def parsed(args, fmt, parse):
    """The output of a run in `fmt`, parsed; None (a failure) when it does not parse."""
    out = tmp("all." + fmt)
    p = run(*args, "--" + fmt, "-o", out)
    check(p.returncode == 0, f"{fmt} run with odd strings: {p.returncode} {p.stderr}")
    try:
        return parse(open(out, "rb").read().decode("utf-8"))
    except (OSError, ValueError, ET.ParseError, csv.Error) as e:
        check(False, f"{fmt} output is well formed: {e}")
        return None


doc = parsed(ALL, "json", json.loads) or {"backends": {}, "frames": [], "aggregate_metrics": {}}
check(doc["backends"].get("cambi:heatmaps_path=" + heat) == "cpu",
      f"json: an option value with quotes, <>&, controls round-trips: {list(doc['backends'])}")
check("float_vif:vif_sigma_nsq=0.5" in doc["backends"], "json: float_vif's identity")
check(len(doc["frames"]) == 2 and {"vmaf_x.1-b", "psnr_y", "cambi"} <= set(doc["frames"][0]["metrics"])
      and "apsnr_y" in doc["aggregate_metrics"], "json: frames, model and aggregates")

root = parsed(ALL, "xml", ET.fromstring)
if root is None:
    root = ET.fromstring("<VMAF><frames/><aggregate_metrics/></VMAF>")
feats = [b.get("feature") for b in root.iter("backend")]
check("cambi:heatmaps_path=" + heat in feats and "float_vif:vif_sigma_nsq=0.5" in feats,
      f"xml: an option value with quotes, <>&, controls round-trips: {feats}")
frames = root.find("frames").findall("frame")
check(len(frames) == 2 and frames[0].get("vmaf_x.1-b") and frames[1].get("frameNum") == "1"
      and root.find("aggregate_metrics").get("apsnr_y"), "xml: frames, model and aggregates")
check({m.get("name") for m in root.iter("metric")} >= {"vmaf_x.1-b", "psnr_y", "cambi"}, "xml: pooled")

rows = parsed(ALL, "csv", lambda text: list(csv.reader(io.StringIO(text)))) or [[]]
check(len(rows) == 3 and len({len(r) for r in rows}) == 1 and "vmaf_x.1-b" in rows[0]
      and all(KEY.match(k) for k in rows[0][1:-1]), f"csv: 2 rows as wide as the header: {rows[:1]}")
sub = parsed(ALL, "sub", str.splitlines) or []
check(len(sub) == 2 and all(re.fullmatch(r"\{(\d+)\}\{\d+\}frame: \1\|([A-Za-z_][\w.-]*: [-\d.e+]+\|)+", l)
                            for l in sub), f"sub: every line is frame|name: value|...: {sub[:1]}")

# bytes XML cannot carry, and bytes that are not UTF-8, still give files that parse
raw_heat = os.fsencode(TMP) + b"/c\x01\x1f\x7f\xff\xc3"
RAW = [*ALL[:-1], b"cambi=heatmaps_path=" + raw_heat]
doc = parsed(RAW, "json", json.loads) or {}
want = raw_heat.decode("utf-8", "replace")
check("cambi:heatmaps_path=" + want in doc.get("backends", {}),
      f"json: controls escaped, non-UTF-8 bytes become U+FFFD: {list(doc.get('backends', {}))}")
root = parsed(RAW, "xml", ET.fromstring)
feats = [b.get("feature") for b in root.iter("backend")] if root is not None else []
check("cambi:heatmaps_path=" + TMP + "/c\ufffd\ufffd\x7f\ufffd\ufffd" in feats,
      f"xml: controls and non-UTF-8 bytes become U+FFFD: {feats}")

# ---- output files: replaced only by a complete one ----

OUTDIR = tmp("outdir")
os.mkdir(OUTDIR)
target = os.path.join(OUTDIR, "scores.xml")
KEPT = b"earlier results\n"
open(target, "wb").write(KEPT)
os.chmod(target, 0o640)
PSNR = ["-r", REF, "-d", DIS, "--feature", "psnr", "-n"]


def kept(p, code, needle, what):
    check(p.returncode == code and needle in p.stderr and open(target, "rb").read() == KEPT
          and os.listdir(OUTDIR) == ["scores.xml"],
          f"{what}: exit {p.returncode} (want {code}), {p.stderr.strip()!r}, the file unchanged, "
          f"no temporary file: {os.listdir(OUTDIR)}")


kept(run(*PSNR, "-o", target, "--frame_skip_ref", "5", "--frame_skip_dist", "5"), 3,
     "no frame to score", "all frames skipped")
kept(run(*PSNR, "-o", target, "--frame_skip_ref", "9"), 3, "fewer than 9 frames", "a skip past the end")
write_y4m(tmp("noframes.y4m"), W, H, [])
kept(run(*PSNR, "-o", target, "-r", tmp("noframes.y4m"), "-d", tmp("noframes.y4m")), 3,
     "no frame to score", "inputs without frames")


def small_file_limit():
    # writes past 200 bytes fail with EFBIG instead of raising SIGXFSZ
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))


kept(run(*PSNR, "-o", target, preexec_fn=small_file_limit), 5, "File too large",
     "an output that fails midway")
# names that cannot be written: the core refuses them (2), or else the writer (5);
# frameNum would repeat that attribute of XML's <frame>
for name in ('a"b', "frameNum"):
    p = run("-r", REF, "-d", DIS, "--frame_cnt", "1", "-m", "version=vmaf_v0.6.1:name=" + name, "-o", target)
    check(p.returncode in (2, 5) and open(target, "rb").read() == KEPT and os.listdir(OUTDIR) == ["scores.xml"],
          f"a name that cannot be written ({name}): exit {p.returncode}, {p.stderr.strip()!r}, the file unchanged")

p = run(*PSNR, "-o", target, "-q")
check(p.returncode == 0 and ET.parse(target).getroot().tag == "VMAF"
      and stat.S_IMODE(os.stat(target).st_mode) == 0o640 and os.listdir(OUTDIR) == ["scores.xml"],
      f"a replaced file is complete and keeps its mode: {oct(os.stat(target).st_mode)}")
os.symlink("scores.xml", os.path.join(OUTDIR, "latest"))
p = run(*PSNR, "-o", os.path.join(OUTDIR, "latest"), "--json", "-q")
check(p.returncode == 0 and os.path.islink(os.path.join(OUTDIR, "latest")) and json.load(open(target))
      and sorted(os.listdir(OUTDIR)) == ["latest", "scores.xml"], "writing through a link keeps the link")
for mask, mode in ((0o022, 0o644), (0o077, 0o600)):
    fresh = os.path.join(OUTDIR, f"new{mask:o}.csv")
    p = run(*PSNR, "-o", fresh, "--csv", "-q", preexec_fn=lambda: os.umask(mask))
    check(p.returncode == 0 and stat.S_IMODE(os.stat(fresh).st_mode) == mode,
          f"a new file under umask {mask:03o} is {mode:o}: {oct(os.stat(fresh).st_mode)}")
p = run(*PSNR, "-o", "/dev/null", "-q")
check(p.returncode == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode), "writing to /dev/null")
p = run(*PSNR, "-o", "/dev/stdout", "--csv", "-q")
check(p.returncode == 0 and p.stdout.startswith("Frame,psnr_y,"), f"/dev/stdout on a pipe: {p.stderr}")
log = tmp("log.txt")
open(log, "w").write("first\n")
with open(log, "a") as f:  # >> in a shell: /dev/stdout is appended to, not replaced
    p = subprocess.run([VQX, *PSNR, "-o", "/dev/stdout", "--csv", "-q"], stdout=f)
check(p.returncode == 0 and open(log).read().startswith("first\nFrame,psnr_y,"),
      f"/dev/stdout on a file opened to append: {open(log).read()[:40]!r}")
bad([*PSNR, "-o", "/dev/full"], 5, "No space left on device", "a device that fails")
bad([*PSNR, "-o", OUTDIR], 5, "outdir", "a folder as output")

# ---- a model's score never shares a key with anything else ----
ONE = ["-r", REF, "-d", DIS, "--frame_cnt", "1"]
for args, needle, what in (
        (["-m", "version=vmaf_v0.6.1:name=psnr_y", "--feature", "psnr"],
         # the CLI requests models first, as libvmaf's does: the feature is refused
         "feature psnr writes the key 'psnr_y', which model 'psnr_y' also writes",
         "a model named like a feature's key"),
        (["-m", "version=vmaf_v0.6.1:name=integer_adm2"],
         "its output 'integer_adm2' is also a key of feature adm", "a model named like its own input"),
        (["-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg:name=integer_vif_scale0"],
         "its output 'integer_vif_scale0' is also a key of feature vif", "a second model named like a key"),
        (["-m", "version=vmaf_v0.6.1:name=integer_adm2", "-m", "version=vmaf_v0.6.1neg:name=neg"],
         "its output 'integer_adm2' is also a key of feature adm", "a model named like a later model's input"),
        (["-m", "version=vmaf_b_v0.6.3:name=b", "-m", "version=vmaf_v0.6.1:name=b_bagging"],
         "a model named 'b' already writes the key 'b_bagging'", "a model named like a bootstrap output"),
        (["-m", "version=vmaf_v0.6.1:name=x y"], "character 2 is ' '", "a name with a space"),
        (["-m", "version=vmaf_v0.6.1:name=x\ny"], "character 2 is 0x0a", "a name with a newline"),
        (["-m", "version=vmaf_v0.6.1:name=a\"b"], "character 2 is '\"'", "a name with a quote"),
        (["-m", "version=vmaf_v0.6.1:name=a,b"], "character 2 is ','", "a name with a comma"),
        (["-m", "version=vmaf_v0.6.1:name=a<b>&c"], "character 2 is '<'", "a name with markup"),
        (["-m", "version=vmaf_v0.6.1:name=Frame"], "names the frame number", "CSV's frame column")):
    p = bad([*ONE, *args, "-o", tmp("collide.json"), "--json"], 2, needle, what)
    check(not os.path.exists(tmp("collide.json")), f"{what}: no output written")
p = run(*ONE, "-m", "version=vmaf_v0.6.1:name=x\ny", "-o", "-")
check(len(p.stderr.strip().splitlines()) == 1, f"the refusal of a name with a newline is one line: {p.stderr!r}")

# ---- a model whose feature refuses the input: each reason once, then the model ----
p = run("-r", REF, "-d", DIS, "--frame_cnt", "1", "-m", "version=vmaf_v1.0.16_3d0h_2160", "-o", tmp("v1.json"),
        "--json")
lines = [l for l in p.stderr.splitlines() if l.startswith("vqx:")]
reason = [l for l in lines if "below SpEED's minimum" in l]
check(p.returncode == 1 and len(reason) == 1
      and "vqx: model 'vmaf' is not computed: its feature speed_chroma refused the input" in lines,
      f"a model not computed: exit {p.returncode}, {lines}")
res = json.load(open(tmp("v1.json")))
check("vmaf" not in res["frames"][0]["metrics"] and "cambi_hrs_1080_cmxv_17_vlt_0.06" in res["frames"][0]["metrics"],
      "a model not computed writes no score; its other features are written")

# ---- non-finite values: one notice naming the feature and the first frame ----
p = run("-r", REF, "-d", DIS, "--frame_cnt", "3", "-n", "--feature", "adm=adm_csf_mode=1", "-o", tmp("nan.json"),
        "--json")
notes = [l for l in p.stderr.splitlines() if "not finite" in l]
check(p.returncode == 0 and len(notes) == 1
      and notes[0].startswith("vqx: adm: integer_adm2_csf_1 is not finite on 3 frames, the first frame 0"),
      f"a non-finite value gets one notice: {p.returncode} {notes}")
check(json.load(open(tmp("nan.json")))["frames"][0]["metrics"]["integer_adm2_csf_1"] is None,
      "a non-finite value is null in JSON")

# ---- input through pipes, FIFOs and the standard input; reader threads ----

def frames_of(p, out):
    """The per-frame metrics a run wrote to `out`, None when it failed."""
    if p.returncode != 0 or not os.path.exists(out):
        print(p.stderr)
        return None
    return json.load(open(out))["frames"]


def scored(ref, dis, *extra, stdin=None, input=None, env=None, name="io.json"):
    out = tmp(name)
    if os.path.exists(out):
        os.unlink(out)
    p = run("-r", ref, "-d", dis, "--precision", "max", "--json", "-o", out, "-q", *extra,
            stdin=stdin, input=input, env=env)
    return frames_of(p, out)


RAW8 = ["-w", str(W), "-h", str(H), "-p", "420", "-b", "8"]
PSNR_SSIM = ["--feature", "psnr", "--feature", "float_ssim", "-n"]
want = scored(REF, DIS, *PSNR_SSIM)
check(want and len(want) == 5, "the file run scores five frames")
ref_bytes, dis_bytes = open(REF, "rb").read(), open(DIS, "rb").read()
check(scored(REF, "-", *PSNR_SSIM, input=dis_bytes) == want, "y4m through the standard input (a pipe)")
check(scored("-", DIS, *PSNR_SSIM, input=ref_bytes) == want, "y4m reference through the standard input")
check(scored(raw_ref, "-", *PSNR_SSIM, *RAW8, input=open(raw_dis, "rb").read()) == want,
      "raw through the standard input (a pipe)")
with open(DIS, "rb") as f:
    check(scored(REF, "-", *PSNR_SSIM, stdin=f) == want, "y4m on the standard input from a file (< file)")
with open(raw_dis, "rb") as f:
    f.seek(LUMA + 2 * CW * CH)  # the shell's descriptor after something read frame 0: read from there
    got = scored(raw_ref, "-", "--frame_skip_ref", "1", *PSNR_SSIM, *RAW8, stdin=f)
    check(got and got[0]["metrics"] == want[1]["metrics"] and len(got) == 4,
          "the standard input is read from its offset")
skipped = scored(REF, DIS, *PSNR_SSIM, "--frame_skip_ref", "1", "--frame_skip_dist", "2")
check(skipped and len(skipped) == 3, "skips on files")
check(scored(REF, "-", *PSNR_SSIM, "--frame_skip_ref", "1", "--frame_skip_dist", "2", input=dis_bytes)
      == skipped, "--frame_skip_dist on a pipe reads and drops the frames")
check(scored("-", DIS, *PSNR_SSIM, "--frame_skip_ref", "1", "--frame_skip_dist", "2", input=ref_bytes)
      == skipped, "--frame_skip_ref on a pipe reads and drops the frames")
bad(["-r", "-", "-d", "-"], 2, "only one input can be the standard input", "both inputs on the standard input")


def feed_fifo(path, data):
    with open(path, "wb") as f:  # blocks until vqx opens it
        try:
            f.write(data)
        except BrokenPipeError:
            pass


for name, data in (("ref.fifo", ref_bytes), ("dis.fifo", dis_bytes)):
    os.mkfifo(tmp(name))
    threading.Thread(target=feed_fifo, args=(tmp(name), data), daemon=True).start()
check(scored(tmp("ref.fifo"), tmp("dis.fifo"), *PSNR_SSIM) == want, "both inputs through FIFOs")

# a pipe's writer that outlives the run (a longer stream) does not hold it up
p = subprocess.run(f"yes '' | head -c 100000000 | cat {DIS} - | {VQX} -r {REF} -d - --feature psnr -n "
                   f"--frame_cnt 3 -q -o /dev/null", shell=True, capture_output=True, text=True, timeout=60)
check(p.returncode in (0, 4), f"a run stops reading a pipe that goes on: {p.returncode} {p.stderr}")

# several reader threads per input: frames read at computed offsets, in order; a y4m
# whose frame headers get parameters from frame 2 on falls back to reading in order
def write_y4m_params(path, frames, from_frame):
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (W, H))
        for i, fr in enumerate(frames):
            f.write((b"FRAME Ip XVQX=%d\n" % i if i >= from_frame else b"FRAME\n") + fr)


write_y4m_params(tmp("params.y4m"), DIS_FRAMES, 2)
for threads in ("2", "3", "8"):
    env = {"VQX_READER_THREADS": threads}
    check(scored(REF, DIS, *PSNR_SSIM, env=env) == want, f"{threads} reader threads, y4m")
    check(scored(raw_ref, raw_dis, *PSNR_SSIM, *RAW8, env=env) == want, f"{threads} reader threads, raw")
    check(scored(REF, tmp("params.y4m"), *PSNR_SSIM, env=env) == want,
          f"{threads} reader threads, y4m frame headers with parameters from frame 2")
    check(scored(REF, DIS, *PSNR_SSIM, "--frame_skip_ref", "1", "--frame_skip_dist", "2", env=env) == skipped,
          f"{threads} reader threads after skips")
check(scored(REF, tmp("params.y4m"), *PSNR_SSIM) == want, "y4m frame headers with parameters")
p = run("-r", REF, "-d", DIS, "--feature", "psnr", "-n", env={"VQX_READER_THREADS": "0"})
check(p.returncode == 2 and "VQX_READER_THREADS" in p.stderr, f"VQX_READER_THREADS=0 is refused: {p.stderr}")

# planes no feature reads are not read: chroma above the 10-bit peak (0xffff) is no
# error for luma-only features; with psnr the frame is refused naming the plane, after
# the frames before it are scored and written
QW, QH, QC = 64, 36, 32 * 18


def ten_bit(values):
    return b"".join(v.to_bytes(2, "little") for v in values)


def frame10(i, k, bad_chroma):
    luma = [(x * 7 + i * 13 + k * 3) % 1024 for x in range(QW * QH)]
    chroma = b"\xff" * (4 * QC) if bad_chroma else ten_bit([512] * (2 * QC))
    return ten_bit(luma) + chroma


RAW10 = ["-w", str(QW), "-h", str(QH), "-p", "420", "-b", "10"]
for name, k in (("ref10.yuv", 0), ("dis10.yuv", 1)):
    open(tmp(name), "wb").write(b"".join(frame10(i, k, i >= 2) for i in range(4)))
dis10_bytes = open(tmp("dis10.yuv"), "rb").read()
for feature in ("float_ssim", "vif"):
    got = scored(tmp("ref10.yuv"), tmp("dis10.yuv"), "--feature", feature, "-n", *RAW10)
    check(got and len(got) == 4, f"{feature} scores frames whose chroma is above the peak (file)")
    check(scored(tmp("ref10.yuv"), "-", "--feature", feature, "-n", *RAW10, input=dis10_bytes) == got,
          f"{feature} scores frames whose chroma is above the peak (pipe)")
for how, dis, data in (("file", tmp("dis10.yuv"), None), ("pipe", "-", dis10_bytes)):
    out = tmp("peak.json")
    if os.path.exists(out):
        os.unlink(out)
    p = run("-r", tmp("ref10.yuv"), "-d", dis, "--feature", "psnr", "-n", *RAW10, "--json", "-o", out,
            input=data)
    err = p.stderr
    check(p.returncode == 4 and "frame 2: reference picture, plane U, sample (x 0, y 0) is 65535, "
          "above the 10-bit peak 1023" in err,
          f"psnr refuses chroma above the peak ({how}): {p.returncode} {err!r}")
    res = json.load(open(out)) if os.path.exists(out) else None
    check(res and len(res["frames"]) == 2, f"the two frames before it are written ({how})")

# an option that makes a luma feature read chroma reads it: float_motion's motion_add_uv
# alone equals its run beside psnr (which reads every plane), and above-peak chroma is refused
alone = scored(REF, DIS, "--feature", "float_motion=motion_add_uv=true", "-n")
beside = scored(REF, DIS, "--feature", "float_motion=motion_add_uv=true", "--feature", "psnr", "-n")
check(alone and beside and len(alone) == 5 and all(
    a["metrics"]["motion2_mau"] == b["metrics"]["motion2_mau"] for a, b in zip(alone, beside)),
    "float_motion with motion_add_uv reads the chroma planes")
p = run("-r", tmp("ref10.yuv"), "-d", tmp("dis10.yuv"), "--feature", "float_motion=motion_add_uv=true",
        "-n", *RAW10, "-q")
check(p.returncode == 4 and "plane U" in p.stderr, f"motion_add_uv reads chroma above the peak: {p.stderr!r}")

# raw distorted input ending inside a frame, through a pipe
p = run("-r", raw_ref, "-d", "-", *RAW8, "--feature", "psnr", "-n", "--json", "-o", tmp("cut.json"),
        input=open(raw_dis, "rb").read()[:-1000])
err = p.stderr
check(p.returncode == 4 and f"standard input: frame 4 is truncated (got {LUMA + 2 * CW * CH - 1000} of "
      f"{LUMA + 2 * CW * CH} bytes)" in err and len(json.load(open(tmp("cut.json")))["frames"]) == 4,
      f"raw through a pipe ending inside a frame: {p.returncode} {err!r}")

# ---- progress on a terminal ----

def on_terminal(args, input=None):
    """stderr of a run whose stderr is a terminal (a pseudo-terminal)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([VQX, *args], stdin=subprocess.PIPE if input is not None else None,
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    if input is not None:
        threading.Thread(target=lambda: (proc.stdin.write(input), proc.stdin.close()), daemon=True).start()
    text = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer of the terminal has gone
            break
        if not chunk:
            break
        text += chunk
    os.close(master)
    return proc.wait(), text.decode(errors="replace")


code, text = on_terminal(["-r", REF, "-d", DIS, "--feature", "psnr", "-n", "-o", "/dev/null"])
check(code == 0 and "\r5/5 frames (100%), " in text and " fps" in text and " left" in text
      and text.endswith("\033[K\r\n"), f"progress with the total known from the file sizes: {text!r}")
code, text = on_terminal(["-r", REF, "-d", DIS, "--feature", "psnr", "-n", "-o", "/dev/null",
                          "--frame_cnt", "3", "--frame_skip_dist", "1"])
check(code == 0 and "\r3/3 frames (100%)" in text and "/4 frames" not in text,
      f"progress total from --frame_cnt: {text!r}")
os.mkfifo(tmp("progress.fifo"))
threading.Thread(target=feed_fifo, args=(tmp("progress.fifo"), ref_bytes), daemon=True).start()
code, text = on_terminal(["-r", tmp("progress.fifo"), "-d", "-", "--feature", "psnr", "-n", "-o", "/dev/null"],
                         dis_bytes)
check(code == 0 and "\r5 frames, " in text and "/" not in text and " left" not in text,
      f"progress without a total (pipes): {text!r}")
code, text = on_terminal(["-r", REF, "-d", "-", "--feature", "psnr", "-n", "-o", "/dev/null"], dis_bytes)
check(code == 0 and "\r5/5 frames (100%)" in text, f"progress bound by the one file: {text!r}")
code, text = on_terminal(["-r", REF, "-d", DIS, "--feature", "psnr", "-n", "-o", "/dev/null", "-q"])
check(code == 0 and text == "", f"-q: no progress: {text!r}")
# updates a few times a second, not every frame: 2000 tiny frames
tiny = [bytes([(i * 5 + k) & 255 for k in range(16 * 16 * 3 // 2)]) for i in range(4)] * 500
write_y4m(tmp("many.y4m"), 16, 16, tiny)
t0 = time.monotonic()
code, text = on_terminal(["-r", tmp("many.y4m"), "-d", tmp("many.y4m"), "--feature", "psnr", "-n",
                          "-o", "/dev/null"])
elapsed = time.monotonic() - t0
check(code == 0 and "2000/2000 frames" in text and text.count("\r") <= 3 + 4 * elapsed,
      f"{text.count(chr(13))} progress updates in {elapsed:.2f} s")

# ---- --cpumask: the scalar C and every SIMD level give the same values ----
runs = {}
for mask in ("0", "8", "63"):
    p = run("-r", REF, "-d", DIS, "--cpumask", mask, "--feature", "psnr", "--json", "--precision", "max",
            "-o", "-", "-q")
    runs[mask] = json.loads(p.stdout)["frames"] if p.returncode == 0 else None
check(runs["0"] and runs["0"] == runs["8"] == runs["63"], "--cpumask 0, 8 and 63 give the same per-frame values")
bad(["-r", REF, "-d", DIS, "--cpumask", "64"], 2, "invalid cpumask '64'", "a cpumask above 63")

finish()
