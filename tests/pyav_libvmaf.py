#!/usr/bin/env python3
"""FFmpeg's libvmaf filter, through PyAV, on a given libvmaf.so.3.

Creates (once, in --venv) a Python 3.12 virtual environment with av==19.0.2,
whose wheel bundles FFmpeg 8 and its own libvmaf in av.libs/.  The bundled
libvmaf file is replaced by a symbolic link to the library under test
(--libvmaf), and the running process is checked to map that very file.

Then, for a few clip pairs of ../shared (8-bit and 10-bit 4:2:0, 8-bit 4:4:4),
the filter graph  buffer(distorted) + buffer(reference) -> libvmaf -> buffersink
is run with the filter options model=, feature=, n_threads, n_subsample,
log_fmt (json, xml, csv, sub), log_path and pool.  Every per-frame value of the
log is compared with the golden double of ../shared/golden, printed the way
libvmaf prints it (%.6f, or %.16f for values with more than six leading
fractional zeros), for every key the golden holds; with n_subsample only the
frames scored must be present.  Pooled values (xml, json) and the filter's
"VMAF score: " lines are compared with the golden values pooled as libvmaf
pools them.  Every value is also compared, key by key, with the vqx CLI's
JSON output for the same inputs and options.

Exit 0: all equal; 1: a difference or an error; 77 (meson's skip): ../shared
is absent, or PyPI cannot be reached to install av, or python3.12 is missing.

Usage: pyav_libvmaf.py --libvmaf LIB --vqx VQX --shared DIR --cache DIR --venv DIR
"""
import argparse
import gc
import glob
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import unpack  # noqa: E402  (standard library only)

AV_REQUIREMENT = "av==19.0.2"
VENV_MARKER = ".pyav_libvmaf_ready"
NETWORK_MARKERS = ("NewConnectionError", "Max retries exceeded", "Temporary failure in name resolution",
                   "Name or service not known", "Network is unreachable", "Connection refused",
                   "ConnectTimeoutError", "ReadTimeoutError", "No matching distribution found",
                   "Could not find a version that satisfies", "ProxyError", "SSLError")

# The filter runs. models: FFmpeg model= entries (dicts); golden: for a model entry without
# feature overloads, the golden key is "vmaf" for vmaf_v0.6.1 (run v061_all names it so) and the
# version otherwise (run "models").  Golden keys of features are looked up in GOLDEN_RUNS order.
CASES = [
    {"pair": "nf_src01_576x324_3f_420p8", "fmt": "json", "threads": 0, "subsample": 1,
     "pool": "mean",
     "models": [{"version": "vmaf_v0.6.1", "name": "vmaf"},
                {"version": "vmaf_v0.6.1neg", "name": "neg"},
                {"version": "vmaf_v0.6.1", "name": "noclip", "disable_clip": "true"}],
     "features": [{"name": "psnr"}, {"name": "float_ssim"}]},
    {"pair": "nf_src01_576x324_3f_420p10le", "fmt": "xml", "threads": 2, "subsample": 1,
     "pool": "harmonic_mean",
     "models": [{"version": "vmaf_v0.6.1", "name": "vmaf"},
                {"version": "vmaf_v0.6.1neg", "name": "neg"}],
     "features": [{"name": "psnr"}, {"name": "float_ssim", "enable_lcs": "true"}]},
    {"pair": "deb_cockatoo_x264_150k_1280x720_8f_444p8", "fmt": "csv", "threads": 1,
     "subsample": 3, "pool": "min",
     "models": [{"version": "vmaf_v0.6.1", "name": "vmaf"},
                {"version": "vmaf_v0.6.1", "name": "egl", "vif.vif_enhn_gain_limit": "1.0",
                 "adm.adm_enhn_gain_limit": "1.0"}],
     "features": [{"name": "psnr"}, {"name": "float_ssim"}]},
    {"pair": "nf_sparks_480x270_5f_420p10le", "fmt": "sub", "threads": 2, "subsample": 2,
     "pool": "harmonic_mean",
     "models": [{"version": "vmaf_4k_v0.6.1", "name": "v4k"},
                {"version": "vmaf_float_v0.6.1", "name": "flt"}],
     "features": [{"name": "psnr"}]},
]
GOLDEN_RUNS = ["v061_all", "models", "options"]


def ffmpeg_escape(s):
    """One level of FFmpeg option escaping (what avfilter_init_str undoes)."""
    return re.sub(r"([\\:='|,;\[\]])", r"\\\1", s)


def filter_args(case, log_path):
    def entry(d):
        return "\\:".join(f"{k}={v}" for k, v in d.items())
    opts = [("model", "|".join(entry(m) for m in case["models"])),
            ("feature", "|".join(entry(f) for f in case["features"])),
            ("n_threads", str(case["threads"])), ("n_subsample", str(case["subsample"])),
            ("log_fmt", case["fmt"]), ("log_path", ffmpeg_escape(log_path)),
            ("pool", case["pool"])]
    return ":".join(f"{k}={v}" for k, v in opts)


def vqx_args(case):
    args = []
    for m in case["models"]:
        spec = [f"version={m['version']}", f"name={m['name']}"]
        for k, v in m.items():
            if k in ("version", "name"):
                continue
            if k in ("disable_clip", "enable_transform"):
                if v == "true":
                    spec.append(k)
            else:
                spec.append(f"{k}={v}")
        args += ["-m", ":".join(spec)]
    for f in case["features"]:
        opts = ":".join(f"{k}={v}" for k, v in f.items() if k != "name")
        args += ["--feature", f["name"] + ("=" + opts if opts else "")]
    return args + ["--threads", str(case["threads"]), "--subsample", str(case["subsample"])]


# ---- libvmaf's printing -------------------------------------------------------------

def leading_zeros(x):
    """libvmaf's count_leading_zeros_d, in the same double arithmetic."""
    x = abs(x)
    frac = x - float(int(x))
    n = 0
    while frac < 1.0 and frac != 0:
        frac *= 10
        n += 1
    return n


def c_print(x, nonfinite="null"):
    if not math.isfinite(x):
        return nonfinite
    return ("%.6f" if leading_zeros(x) <= 6 else "%.16f") % x


def pool(values, method):
    """vmaf_feature_score_pooled over the given (scored) values, in frame order."""
    s = i_s = 0.0
    lo = hi = values[0]
    for v in values:
        s += v
        i_s += 1.0 / (v + 1.0)
        lo = v if v < lo else lo
        hi = v if v > hi else hi
    return {"mean": s / len(values), "min": lo, "max": hi,
            "harmonic_mean": len(values) / i_s - 1.0}[method]


# ---- log parsers: (frames {index: {key: text}}, pooled {key: {method: text}} or None) --

def parse_json(path):
    d = json.load(open(path), parse_float=str)
    frames = {f["frameNum"]: {k: ("null" if v is None else v) for k, v in f["metrics"].items()}
              for f in d["frames"]}
    pooled = {k: {m: ("null" if v is None else v) for m, v in p.items()}
              for k, p in d.get("pooled_metrics", {}).items()}
    return frames, pooled


def parse_xml(path):
    root = ET.parse(path).getroot()
    frames = {}
    for f in root.find("frames"):
        a = dict(f.attrib)
        frames[int(a.pop("frameNum"))] = a
    pooled = {}
    for m in root.find("pooled_metrics"):
        a = dict(m.attrib)
        pooled[a.pop("name")] = a
    return frames, pooled


def parse_csv(path):
    lines = open(path).read().splitlines()
    header = lines[0].rstrip(",").split(",")
    if header[0] != "Frame":
        raise ValueError(f"{path}: csv header does not start with Frame")
    frames = {}
    for line in lines[1:]:
        cells = line.rstrip(",").split(",")
        if len(cells) != len(header):
            raise ValueError(f"{path}: row of {len(cells)} cells under {len(header)} columns")
        frames[int(cells[0])] = dict(zip(header[1:], cells[1:]))
    return frames, None


SUB_LINE = re.compile(r"^\{(\d+)\}\{(\d+)\}frame: (\d+)\|(.*)$")


def parse_sub(path):
    frames = {}
    for line in open(path).read().splitlines():
        m = SUB_LINE.match(line)
        if not m or int(m.group(2)) != int(m.group(1)) + 1 or m.group(1) != m.group(3):
            raise ValueError(f"{path}: unexpected sub line {line!r}")
        metrics = {}
        for item in m.group(4).rstrip("|").split("|"):
            k, v = item.split(": ")
            metrics[k] = v
        frames[int(m.group(1))] = metrics
    return frames, None


PARSERS = {"json": parse_json, "xml": parse_xml, "csv": parse_csv, "sub": parse_sub}


# ---- the outer process: the virtual environment -------------------------------------------

def ensure_venv(venv):
    py = os.path.join(venv, "bin", "python")
    marker = os.path.join(venv, VENV_MARKER)
    if os.path.exists(py) and os.path.exists(marker) and \
            open(marker).read().strip() == AV_REQUIREMENT:
        return py, None
    shutil.rmtree(venv, ignore_errors=True)
    env = dict(os.environ)
    if shutil.which("pyenv") and not env.get("PYENV_VERSION", "").startswith("3.12"):
        # pyenv's shim runs python3.12 only when a selected version provides it
        p = subprocess.run(["pyenv", "whence", "python3.12"], capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.split():
            env["PYENV_VERSION"] = p.stdout.split()[-1]
    python312 = shutil.which("python3.12")
    if not python312:
        return None, "SKIP: python3.12 not found: the PyAV test needs it for av==19.0.2's wheel"
    p = subprocess.run([python312, "-m", "venv", venv], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        return None, f"FAIL: python3.12 -m venv {venv}: {p.stderr.strip()}"
    p = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                        "--retries", "1", "--timeout", "20", AV_REQUIREMENT, "numpy"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        out = p.stdout + p.stderr
        shutil.rmtree(venv, ignore_errors=True)
        if any(m in out for m in NETWORK_MARKERS):
            return None, f"SKIP: PyPI cannot be reached to install {AV_REQUIREMENT}"
        return None, f"FAIL: pip install {AV_REQUIREMENT} numpy:\n{out.strip()}"
    with open(marker, "w") as f:
        f.write(AV_REQUIREMENT + "\n")
    return py, None


def outer(args):
    if not os.path.exists(os.path.join(args.shared, "golden", "MANIFEST.json")):
        print(f"SKIP: {args.shared}/golden/MANIFEST.json not found: PyAV test not run")
        return 77
    for what, path in (("--libvmaf", args.libvmaf), ("--vqx", args.vqx)):
        if not os.path.isfile(path):
            print(f"FAIL: {what} {path}: no such file")
            return 1
    t0 = time.time()
    py, msg = ensure_venv(args.venv)
    if py is None:
        print(msg)
        return 77 if msg.startswith("SKIP") else 1
    lib_dir = os.path.dirname(os.path.realpath(args.libvmaf))
    env = dict(os.environ)
    # what the library under test needs next to it (e.g. libvqx.so), whatever its RUNPATH says
    env["LD_LIBRARY_PATH"] = lib_dir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    print(f"venv ready in {time.time() - t0:.1f} s: {args.venv}")
    sys.stdout.flush()
    cmd = [py, os.path.abspath(__file__), "--inner"] + sys.argv[1:]
    return subprocess.run(cmd, env=env).returncode


# ---- the inner process: in the venv ------------------------------------------------------

def install_library(libvmaf):
    """Point av.libs/libvmaf-<hash>.so.* at the library under test; returns the link."""
    spec = importlib.util.find_spec("av")
    libs = os.path.join(os.path.dirname(os.path.dirname(spec.origin)), "av.libs")
    found = [p for p in glob.glob(os.path.join(libs, "libvmaf-*.so*"))
             if not p.endswith(".bundled") and not p.endswith(".tmp")]
    if len(found) != 1:
        raise SystemExit(f"FAIL: expected one libvmaf-*.so* in {libs}, found {found}")
    link = found[0]
    if not os.path.islink(link):  # the wheel's own file: keep it aside
        os.replace(link, link + ".bundled")
    tmp = link + ".tmp"
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(os.path.realpath(libvmaf), tmp)
    os.replace(tmp, link)
    return link


def mapped_vmaf_files():
    """(path, dev, inode) of every mapped file whose name has 'vmaf' in it."""
    out = set()
    for line in open("/proc/self/maps"):
        parts = line.split(None, 5)
        if len(parts) == 6 and "vmaf" in os.path.basename(parts[5]):
            major, minor = (int(x, 16) for x in parts[3].split(":"))
            out.add((parts[5].strip(), os.makedev(major, minor), int(parts[4])))
    return out


def read_frames(path, pair):
    """The clip's frames as lists of 2-D numpy planes (uint8 or <u2)."""
    import numpy as np
    w, h, depth, fmt = pair["width"], pair["height"], pair["bitdepth"], pair["pixfmt"]
    cw = w if fmt == "444" else (w + 1) // 2
    ch = h if fmt != "420" else (h + 1) // 2
    dtype = np.uint8 if depth == 8 else np.dtype("<u2")
    plane_sizes = [(h, w), (ch, cw), (ch, cw)]
    n = sum(a * b for a, b in plane_sizes)
    data = np.fromfile(path, dtype=dtype)
    if data.size % n:
        raise SystemExit(f"FAIL: {path}: size is not a whole number of frames")
    frames = []
    for i in range(data.size // n):
        off, planes = i * n, []
        for a, b in plane_sizes:
            planes.append(data[off:off + a * b].reshape(a, b))
            off += a * b
        frames.append(planes)
    return frames


def av_format(pair):
    return f"yuv{pair['pixfmt']}p" + ("" if pair["bitdepth"] == 8 else f"{pair['bitdepth']}le")


def make_frame(av, np, planes, fmt, w, h, pts, tb):
    frame = av.VideoFrame(w, h, fmt)
    for plane, src in zip(frame.planes, planes):
        rows, cols = src.shape
        dst = np.frombuffer(plane, np.uint8).reshape(plane.buffer_size // plane.line_size,
                                                    plane.line_size)
        dst[:rows, :cols * src.itemsize] = src.view(np.uint8).reshape(rows, cols * src.itemsize)
    frame.pts = pts
    frame.time_base = tb
    return frame


def run_filter(av, np, case, pair, ref_frames, dis_frames, log_path, want_lib):
    """Runs the graph; returns (mapped ok message or error, frames out). Frees the graph."""
    from fractions import Fraction
    tb = Fraction(1, 25)
    fmt = av_format(pair)
    w, h = pair["width"], pair["height"]
    graph = av.filter.Graph()
    dis = graph.add_buffer(width=w, height=h, format=fmt, time_base=tb, name="distorted")
    ref = graph.add_buffer(width=w, height=h, format=fmt, time_base=tb, name="reference")
    vmaf = graph.add("libvmaf", filter_args(case, log_path))
    sink = graph.add("buffersink")
    dis.link_to(vmaf, 0, 0)   # libvmaf's input 0 ("main") is the distorted video
    ref.link_to(vmaf, 0, 1)   # input 1 ("reference")
    vmaf.link_to(sink)
    graph.configure()

    mapped = mapped_vmaf_files()
    st = os.stat(want_lib)
    def is_lib(path, dev, ino):  # same file; by name too, as overlay file systems may show
        return (dev == st.st_dev and ino == st.st_ino) or path == want_lib  # other numbers
    if not any(is_lib(*m) for m in mapped):
        maps_error = (f"the library under test {want_lib} is not mapped; vmaf files mapped: "
                      f"{sorted(p for p, _, _ in mapped)}")
    else:
        others = sorted(m[0] for m in mapped if not is_lib(*m))
        maps_error = f"other vmaf libraries mapped too: {others}" if others else None

    out = 0

    def drain():
        nonlocal out
        while True:
            try:
                sink.pull()
                out += 1
            except (av.BlockingIOError, av.EOFError):
                return

    for i, (r, d) in enumerate(zip(ref_frames, dis_frames)):
        dis.push(make_frame(av, np, d, fmt, w, h, i, tb))
        ref.push(make_frame(av, np, r, fmt, w, h, i, tb))
        drain()
    dis.push(None)
    ref.push(None)
    drain()
    # the filter's uninit (flush, pooled scores, vmaf_write_output) runs when the graph is freed
    del dis, ref, vmaf, sink, graph
    gc.collect()
    return maps_error, out


class Tally:
    def __init__(self):
        self.compared = 0
        self.failed = 0
        self.messages = []

    def eq(self, got, want, what):
        self.compared += 1
        if got != want:
            self.failed += 1
            if len(self.messages) < 40:
                self.messages.append(f"  {what}: got {got}, want {want}")

    def fail(self, what):
        self.failed += 1
        self.messages.append(f"  {what}")


def golden_key_of_model(m):
    if any("." in k or k in ("disable_clip", "enable_transform") for k in m):
        return None  # an overloaded or flagged model: not in the golden runs
    return "vmaf" if m["version"] == "vmaf_v0.6.1" else m["version"]


def golden_lookup(golden, case, skipped):
    """log key -> list of N golden doubles (None where the golden runs lack the key)."""
    runs = {r["name"]: r for r in golden["runs"]}
    model_keys = {}
    for m in case["models"]:
        gk = golden_key_of_model(m)
        model_keys[m["name"]] = None
        if gk is None:
            continue
        for rn in GOLDEN_RUNS:
            if rn in runs and gk in runs[rn]["per_frame"]:
                model_keys[m["name"]] = [float(v) if isinstance(v, str) else v
                                         for v in runs[rn]["per_frame"][gk]]
                break

    def lookup(key):
        if key in model_keys:
            return model_keys[key]
        for rn in GOLDEN_RUNS:
            if rn in runs and key in runs[rn]["per_frame"]:
                return [float(v) if isinstance(v, str) else v for v in runs[rn]["per_frame"][key]]
        return None
    return lookup


def check_case(av, np, args, manifest, case, workdir, libvmaf_real):
    pair = next(p for p in manifest["pairs"] if p["id"] == case["pair"])
    label = f"{case['pair']} log_fmt={case['fmt']} n_threads={case['threads']} " \
            f"n_subsample={case['subsample']} pool={case['pool']}"
    tally = Tally()
    if pair["width"] % 2 or pair["height"] % 2:
        print(f"skip {label}: odd size")
        return tally
    t0 = time.time()
    golden = json.load(open(os.path.join(args.shared, "golden", pair["golden"])))
    ref_path = unpack(args.shared, args.cache, pair["ref"], pair["sha256"][pair["ref"]])
    dis_path = unpack(args.shared, args.cache, pair["dis"], pair["sha256"][pair["dis"]])
    ref_frames, dis_frames = read_frames(ref_path, pair), read_frames(dis_path, pair)
    n = len(ref_frames)
    if n != pair["frames"] or len(dis_frames) != n:
        tally.fail(f"{label}: clips hold {n}/{len(dis_frames)} frames, manifest says {pair['frames']}")
        return tally
    log_path = os.path.join(workdir, f"{case['pair']}.{case['fmt']}")

    with av.logging.Capture(local=False) as logs:
        try:
            maps_error, out = run_filter(av, np, case, pair, ref_frames, dis_frames, log_path,
                                         libvmaf_real)
        except (av.FFmpegError, ValueError) as e:
            gc.collect()
            tally.fail(f"{label}: the filter graph failed: {e}\n    libvmaf= {filter_args(case, log_path)}")
            print(f"FAIL {label}")
            print("\n".join(tally.messages))
            return tally
    if maps_error:
        tally.fail(f"{label}: {maps_error}")
    if out != n:
        tally.fail(f"{label}: the filter passed {out} frames on, want {n}")
    if not os.path.exists(log_path):
        tally.fail(f"{label}: no log written to {log_path}")
        return tally
    try:
        frames, pooled = PARSERS[case["fmt"]](log_path)
    except (ValueError, KeyError, ET.ParseError, json.JSONDecodeError) as e:
        tally.fail(f"{label}: cannot parse the log: {e}")
        return tally

    scored = [i for i in range(n) if case["subsample"] <= 1 or i % case["subsample"] == 0]
    tally.eq(sorted(frames), scored, f"{label}: frames in the log")
    lookup = golden_lookup(golden, case, None)

    # 1. the log against the golden values
    wanted = [m["name"] for m in case["models"]]
    for f in case["features"]:
        wanted += {"psnr": ["psnr_y", "psnr_cb", "psnr_cr"], "float_ssim": ["float_ssim"]}.get(f["name"], [])
    keys = sorted({k for f in frames.values() for k in f})
    for k in wanted:
        if k not in keys:
            tally.fail(f"{label}: key {k} missing from the log")
    golden_keys = 0
    for k in keys:
        g = lookup(k)
        if g is None:
            continue
        golden_keys += 1
        for i in scored:
            if i in frames and k in frames[i]:
                tally.eq(frames[i][k], c_print(g[i], "nan" if case["fmt"] != "json" else "null"),
                         f"{label}: frame {i} {k} (log vs golden)")
            else:
                tally.fail(f"{label}: frame {i} has no {k}")
        if pooled is not None and k in pooled:
            vals = [g[i] for i in scored]
            for method in ("min", "max", "mean", "harmonic_mean"):
                tally.eq(pooled[k].get(method), c_print(pool(vals, method)),
                         f"{label}: pooled {method} {k} (log vs golden)")
    for m in case["models"]:
        g = lookup(m["name"])
        if g is None:
            continue
        want = "%f" % pool([g[i] for i in scored], case["pool"])
        got = [msg.split(":", 1)[1].strip() for _, _, msg in logs
               if msg.startswith("VMAF score:")]
        # one "VMAF score" line per model, in model order
        idx = [x["name"] for x in case["models"]].index(m["name"])
        tally.eq(got[idx] if idx < len(got) else None, want,
                 f"{label}: 'VMAF score' of {m['name']} pooled by {case['pool']}")
    n_golden = tally.compared

    # 2. the log against the vqx CLI
    vqx_out = os.path.join(workdir, f"{case['pair']}.vqx.json")
    cmd = [args.vqx, "-r", ref_path, "-d", dis_path, "--width", str(pair["width"]),
           "--height", str(pair["height"]), "--pixel_format", pair["pixfmt"],
           "--bitdepth", str(pair["bitdepth"])] + vqx_args(case) + ["--json", "-o", vqx_out, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        tally.fail(f"{label}: vqx exit {p.returncode}: {p.stderr.strip()}\n    {' '.join(cmd)}")
    else:
        vframes, vpooled = parse_json(vqx_out)
        tally.eq(sorted(vframes), scored, f"{label}: frames in vqx's output")
        vkeys = sorted({k for f in vframes.values() for k in f})
        if set(vkeys) != set(keys):
            tally.fail(f"{label}: keys differ: only in the log {sorted(set(keys) - set(vkeys))}, "
                       f"only in vqx {sorted(set(vkeys) - set(keys))}")
        for i in scored:
            for k in keys:
                if k in frames.get(i, {}) and k in vframes.get(i, {}):
                    tally.eq(frames[i][k], vframes[i][k], f"{label}: frame {i} {k} (log vs vqx)")
        if pooled is not None:
            for k in keys:
                for method in ("min", "max", "mean", "harmonic_mean"):
                    if k in pooled and k in vpooled:
                        tally.eq(pooled[k].get(method), vpooled[k].get(method),
                                 f"{label}: pooled {method} {k} (log vs vqx)")
    print(f"{'FAIL' if tally.failed else 'ok  '} {label}: {len(keys)} keys ({golden_keys} in the golden), "
          f"{n_golden} values vs golden, {tally.compared - n_golden} vs vqx, "
          f"{time.time() - t0:.1f} s")
    for msg in tally.messages:
        print(msg)
    return tally


def inner(args):
    link = install_library(args.libvmaf)
    libvmaf_real = os.path.realpath(args.libvmaf)
    import av
    import av.filter
    import av.logging
    import numpy as np
    av.logging.set_level(av.logging.INFO)
    print(f"PyAV {av.__version__}, libavfilter {'.'.join(map(str, av.library_versions['libavfilter']))}; "
          f"{os.path.basename(link)} -> {libvmaf_real}")
    manifest = json.load(open(os.path.join(args.shared, "golden", "MANIFEST.json")))
    compared = failed = 0
    with tempfile.TemporaryDirectory(prefix="pyav_libvmaf.") as workdir:
        for case in CASES:
            if args.pairs and case["pair"] not in args.pairs.split(","):
                continue
            t = check_case(av, np, args, manifest, case, workdir, libvmaf_real)
            compared += t.compared
            failed += t.failed
    print(f"{compared} comparisons, {failed} failed")
    if compared == 0:
        print("FAIL: nothing compared")
        return 1
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--libvmaf", required=True, help="the libvmaf.so.3 under test")
    ap.add_argument("--vqx", required=True, help="the vqx CLI")
    ap.add_argument("--shared", required=True, help="folder with golden/ and data/ (../shared)")
    ap.add_argument("--cache", required=True, help="folder for the unpacked clips")
    ap.add_argument("--venv", required=True, help="the cached virtual environment")
    ap.add_argument("--pairs", default="", help="comma-separated pair ids to run (default: all)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    return inner(args) if args.inner else outer(args)


if __name__ == "__main__":
    sys.exit(main())
