#!/usr/bin/env python3
"""Compare vqx's ssimulacra2 with libjxl's per-frame values.

Each tests/data/ssimulacra2/*.json holds one case: its inputs (a clip pair
of ../shared, the bundled sample pair, or a variant of the sample made here:
deeper samples, 4:2:2, 4:4:4, an odd-sized crop), the extractor's options,
and libjxl's values, as its tool prints them (%.8f) and at full precision
(%.17g, the same program with only the printf changed); README.md there
says how they were made. Every value must be within --tolerance (1e-6) of
libjxl's full-precision one, for the scalar C (--cpumask 63), for AVX2
(--cpumask 16) and for every SIMD level this CPU has (--cpumask 0); the
maximum difference and the count of exactly equal values are reported.

--write-inputs DIR writes the inputs of the sample variants (for making the
reference values) and exits.

Exit 0 when every value is within the tolerance, 1 otherwise, 77 (meson's
skip) when every case needs ../shared and it is absent.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import unpack  # noqa: E402


def read_y4m(path):
    """(width, height, frames of [y, u, v] lists of rows) of an 8-bit 4:2:0 y4m."""
    data = open(path, "rb").read()
    header, _, rest = data.partition(b"\n")
    fields = header.split()
    w = int(next(f[1:] for f in fields if f.startswith(b"W")))
    h = int(next(f[1:] for f in fields if f.startswith(b"H")))
    cw, ch = (w + 1) // 2, (h + 1) // 2
    frames = []
    while rest:
        _, _, rest = rest.partition(b"\n")
        planes = []
        for pw, ph in ((w, h), (cw, ch), (cw, ch)):
            planes.append([list(rest[r * pw:(r + 1) * pw]) for r in range(ph)])
            rest = rest[pw * ph:]
        frames.append(planes)
    return w, h, frames


def doubled(items, n, mix):
    """n items from half as many: the even ones repeat, each odd one is
    mix() of its two neighbours (the last repeats at the end)."""
    last = len(items) - 1
    return [items[i // 2] if not i & 1 else mix(items[i // 2], items[min(i // 2 + 1, last)])
            for i in range(n)]


def between(a, b):
    return (a + b + 1) >> 1


def variant(frames, w, h, layout, bits, crop):
    """The frames as raw bytes in `layout` at `bits`: chroma rows (4:2:2) or
    rows and columns (4:4:4) interpolated between the 4:2:0 samples, samples
    shifted up to `bits`, optionally cropped to crop = [w, h]."""
    sx = 0 if layout == "444" else 1
    sy = 1 if layout == "420" else 0
    cw, ch = crop if crop else (w, h)
    out = bytearray()
    for y, u, v in frames:
        planes = [[row[:cw] for row in y[:ch]]]
        for c in (u, v):
            if layout != "420":
                c = doubled(c, h, lambda a, b: [between(p, q) for p, q in zip(a, b)])
            if layout == "444":
                c = [doubled(row, w, between) for row in c]
            planes.append([row[:(cw + sx) >> sx] for row in c[:(ch + sy) >> sy]])
        for p in planes:
            for row in p:
                if bits == 8:
                    out += bytes(row)
                else:
                    for sample in row:
                        out += (sample << (bits - 8)).to_bytes(2, "little")
    return bytes(out)


def sample_inputs(case, samples, tmp):
    """The ref and dis paths of a case on the bundled sample pair."""
    src = case["sample"]
    paths = []
    for role in ("ref", "dis"):
        path = os.path.join(samples, src[role])
        if src.get("layout", "420") == "420" and src.get("bits", 8) == 8 and "crop" not in src:
            paths.append(path)
            continue
        w, h, frames = read_y4m(path)
        raw = variant(frames, w, h, src.get("layout", "420"), src.get("bits", 8), src.get("crop"))
        out = os.path.join(tmp, case["id"] + "_" + role + ".yuv")
        open(out, "wb").write(raw)
        paths.append(out)
    return paths


def geometry(case):
    g = case.get("geometry")
    if not g:
        return []
    return ["-w", str(g["width"]), "-h", str(g["height"]), "-p", g["layout"], "-b", str(g["bits"])]


def vqx_values(vqx, ref, dis, case, cpumask):
    opts = ":".join(f"{k}={v}" for k, v in sorted(case.get("options", {}).items()))
    feature = "ssimulacra2" + ("=" + opts if opts else "")
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [vqx, "-r", ref, "-d", dis] + geometry(case) + [
            "--feature", feature, "-n", "--json", "-o", out.name, "--precision", "max",
            "--cpumask", str(cpumask)]
        subprocess.run(cmd, check=True)
        frames = json.load(open(out.name))["frames"]
    return [f["metrics"]["ssimulacra2"] for f in frames]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vqx")
    ap.add_argument("--data", required=True, help="tests/data/ssimulacra2")
    ap.add_argument("--samples", required=True, help="the bundled samples/ folder")
    ap.add_argument("--shared", help="../shared")
    ap.add_argument("--cache", help="where ../shared's clips are unpacked")
    ap.add_argument("--only", default="", help="comma-separated case ids")
    ap.add_argument("--source", choices=["shared", "sample"], help="only the cases of this source")
    ap.add_argument("--tolerance", type=float, default=1e-6)
    ap.add_argument("--write-inputs", metavar="DIR")
    args = ap.parse_args()

    cases = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(args.data, "*.json")))]
    wanted = [c for c in args.only.split(",") if c]
    # $VQX_GOLDEN_PAIRS (the sanitizer build's subset) limits the clips of ../shared
    pairs = [p for p in os.environ.get("VQX_GOLDEN_PAIRS", "").split(",") if p]
    cases = [c for c in cases if (not wanted or c["id"] in wanted)
             and (not args.source or args.source in c)
             and not (pairs and "shared" in c and c["id"] not in pairs)]
    if args.write_inputs:
        os.makedirs(args.write_inputs, exist_ok=True)
        for case in cases:
            if "sample" in case:
                print(case["id"], *sample_inputs(case, args.samples, args.write_inputs))
        return 0

    manifest = os.path.join(args.shared or "", "golden", "MANIFEST.json")
    have_shared = bool(args.shared) and os.path.exists(manifest)
    sha = {}
    if have_shared:
        for pair in json.load(open(manifest))["pairs"]:
            sha.update(pair["sha256"])
    failed = ran = values = equal = 0
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            if "shared" in case:
                if not have_shared:
                    print(f"{case['id']}: skipped, no ../shared")
                    continue
                names = case["shared"]
                ref, dis = (unpack(args.shared, args.cache, names[r], sha[names[r]])
                            for r in ("ref", "dis"))
            else:
                ref, dis = sample_inputs(case, args.samples, tmp)
            want = case["libjxl_full"]
            for mask, what in ((63, "C"), (16, "AVX2"), (0, "all SIMD")):
                got = vqx_values(args.vqx, ref, dis, case, mask)
                ran += 1
                if len(got) != len(want):
                    print(f"{case['id']} {what}: {len(got)} frames, libjxl has {len(want)}")
                    failed += 1
                    continue
                diffs = [abs(g - w) for g, w in zip(got, want)]
                exact = sum(d == 0 for d in diffs)
                ok = max(diffs) <= args.tolerance
                values += len(diffs)
                equal += exact
                worst = max(worst, max(diffs))
                failed += not ok
                print(f"{case['id']} {what}: {len(want)} frames, "
                      f"max |vqx - libjxl| {max(diffs):.3g}, "
                      f"{exact} exactly equal{'' if ok else ' FAIL'}")
    if not ran:
        return 77
    print(f"{values} values: max |vqx - libjxl| {worst:.3g}, {equal} exactly equal")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
