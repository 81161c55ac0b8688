#!/usr/bin/env python3
"""CLI tests: every output format, the flags, every class of bad input.

Needs nothing outside the repository: inputs are the bundled sample pair and
small files written here. PSNR values are checked against an independent
computation in Python (same double arithmetic, same libm log10).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

VQX = sys.argv[1]
SAMPLES = sys.argv[2]
REF = os.path.join(SAMPLES, "city_ref_320x180.y4m")
DIS = os.path.join(SAMPLES, "city_x264_100k_320x180.y4m")
TMP = tempfile.mkdtemp(prefix="vqx-cli-")

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def run(*args):
    return subprocess.run([VQX, *args], capture_output=True, text=True)


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
open(tmp("short.yuv"), "wb").write(b"".join(REF_FRAMES) + b"\0" * 100)
bad(["-r", tmp("short.yuv"), "-d", raw_dis, "-w", str(W), "-h", str(H), "-p", "420", "-b", "8"],
    3, "short.yuv", "raw size not a whole number of frames")
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
bad(["-r", REF, "-d", DIS, "--threads", "-1"], 2, "thread", "bad thread count")
bad(["-r", REF, "-d", DIS, "--precision", "40"], 2, "precision", "bad precision")
bad(["-r", REF, "-d", DIS, "--nosuchflag"], 2, "nosuchflag", "unknown flag")
bad(["-r", REF], 2, "distorted", "missing -d")
bad(["-r", REF, "-d", DIS, "--feature", "psnr", "-n", "-o", tmp("no/such/dir/out.xml")], 5,
    "out.xml", "unwritable output")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
