#!/usr/bin/env python3
"""Compare vqx with libvmaf's golden per-frame values, exactly.

For every clip pair in ../shared/golden, run the vqx CLI with the features
(or models) of one golden run, at full precision, with each thread count
asked for, and compare every per-frame value of the requested keys with the
golden double (==, NaN equal to NaN). The clips are unpacked once into a
cache folder and checked against the manifest's sha256.

With --pair-json FILE --ref REF --dis DIS the one pair of FILE (a golden file
in the same format, whose runs list what upstream refused under "skipped") is
compared instead, on the given inputs (.y4m, or raw with the file's geometry):
tests/data/golden holds such a file for the bundled sample pair, so a checkout
without ../shared still compares against libvmaf.

With --key-order the run is computed whole (every model and feature upstream
took) and the keys of every frame's metrics, and of pooled_metrics, must come
in the golden per_frame order, which is libvmaf's.

Exit 0 when every value is equal, 1 on any difference, 77 (meson's skip)
when ../shared is absent, or when upstream refused every requested item for
every pair compared.
"""
import argparse
import hashlib
import json
import lzma
import math
import os
import subprocess
import sys
import tempfile


def unpack(shared, cache, name, sha256):
    os.makedirs(cache, exist_ok=True)
    dst = os.path.join(cache, name)
    if os.path.exists(dst):
        return dst
    src = os.path.join(shared, "data", name + ".xz")
    h = hashlib.sha256()
    fd, tmp = tempfile.mkstemp(dir=cache)
    with os.fdopen(fd, "wb") as out, lzma.open(src) as inp:
        while True:
            block = inp.read(1 << 20)
            if not block:
                break
            h.update(block)
            out.write(block)
    if h.hexdigest() != sha256:
        os.unlink(tmp)
        raise SystemExit(f"{name}: sha256 mismatch after unpacking")
    os.replace(tmp, dst)
    return dst


def raw_args(pair):
    depth = pair["bitdepth"]
    return ["-w", str(pair["width"]), "-h", str(pair["height"]),
            "-p", pair["pixfmt"], "-b", str(depth)]


def same(got, want):
    """got: from vqx's JSON, where a non-finite value is null."""
    if got is None:
        return want is not None and not math.isfinite(want)
    if math.isnan(got) and math.isnan(want):
        return True
    return got == want


def golden_value(v):
    return float(v) if isinstance(v, str) else v


def pairs_from_shared(args):
    """(pair id, golden, skipped items, inputs()) for each pair of ../shared's manifest;
    None when there is no manifest. inputs() unpacks the clips and gives their arguments."""
    manifest_path = os.path.join(args.shared, "golden", "MANIFEST.json")
    if not os.path.exists(manifest_path):
        return None
    manifest = json.load(open(manifest_path))
    wanted_pairs = [p for p in args.pairs.split(",") if p]
    pairs = []
    for pair in manifest["pairs"]:
        if wanted_pairs and pair["id"] not in wanted_pairs:
            continue
        golden = json.load(open(os.path.join(args.shared, "golden", pair["golden"])))
        skipped = {s.get("item", "") for s in manifest.get("skipped", [])
                   if s["pair"] == pair["id"] and s["run"] == args.run}

        def inputs(pair=pair):
            sha = pair["sha256"]
            ref = unpack(args.shared, args.cache, pair["ref"], sha[pair["ref"]])
            dis = unpack(args.shared, args.cache, pair["dis"], sha[pair["dis"]])
            return ["-r", ref, "-d", dis] + raw_args(pair)
        pairs.append((pair["id"], golden, skipped, inputs))
    return pairs


def pair_from_json(args):
    """The same for --pair-json: what upstream refused is listed in each run's "skipped"."""
    golden = json.load(open(args.pair_json))
    run = next(r for r in golden["runs"] if r["name"] == args.run)
    skipped = {s.get("item", "") for s in run.get("skipped", [])}
    pair_id = os.path.splitext(os.path.basename(args.pair_json))[0]

    def inputs():
        cmd = ["-r", args.ref, "-d", args.dis]
        if not all(p.endswith(".y4m") for p in (args.ref, args.dis)):
            cmd += raw_args(golden)
        return cmd
    return pair_id, golden, skipped, inputs


def check_key_order(args, pairs):
    """Every model and feature of the run that upstream took, at once: the
    keys of each frame and the pooled ones in the golden (libvmaf's) order."""
    checked = failed = 0
    for pair_id, golden, skipped, inputs in pairs:
        run = next(r for r in golden["runs"] if r["name"] == args.run)
        cmd = [args.vqx] + (["--cpumask", args.cpumask] if args.cpumask else [])
        models = [m for m in run["models"] if f"model {m}" not in skipped]
        for spec in models:
            cmd += ["-m", spec]
        if not models:
            cmd.append("-n")
        for spec in run["features"]:
            if f"feature {spec}" not in skipped:
                cmd += ["--feature", spec]
        want = list(run["per_frame"])
        cmd += inputs()
        for threads in args.threads.split(","):
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                full = cmd + ["--threads", threads, "--json", "-o", out.name, "-q"]
                proc = subprocess.run(full, capture_output=True, text=True)
                if proc.returncode != 0:
                    print(f"FAIL {pair_id} threads={threads}: exit {proc.returncode}: "
                          f"{proc.stderr.strip()}\n  {' '.join(full)}")
                    failed += 1
                    continue
                result = json.load(open(out.name))
            listings = [(f"frame {f['frameNum']}", list(f["metrics"])) for f in result["frames"]]
            listings.append(("pooled_metrics", list(result["pooled_metrics"])))
            for where, got in listings:
                checked += 1
                if got != want:
                    failed += 1
                    first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w),
                                 min(len(got), len(want)))
                    print(f"FAIL {pair_id} threads={threads} {where}: key {first} is "
                          f"{got[first] if first < len(got) else None!r}, golden "
                          f"{want[first] if first < len(want) else None!r}\n  vqx    {got}\n"
                          f"  golden {want}")
                    break
    print(f"{checked - failed} key listings in order, {failed} not")
    if checked == 0:
        print("no key order compared")
        return 1
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vqx", required=True)
    ap.add_argument("--shared", help="folder with golden/ and data/ (../shared)")
    ap.add_argument("--cache", help="folder for the unpacked clips of --shared")
    ap.add_argument("--pair-json", help="compare the one pair of this golden file instead")
    ap.add_argument("--ref", help="with --pair-json: reference input")
    ap.add_argument("--dis", help="with --pair-json: distorted input")
    ap.add_argument("--run", required=True, help="golden run: v061_all, models or options")
    ap.add_argument("--feature", action="append", default=[],
                    help="feature name of the run to compute (its golden options are used)")
    ap.add_argument("--model", action="append", default=[],
                    help="model of the run to compute (its golden spec is used)")
    ap.add_argument("--extra-feature", action="append", default=[],
                    help="feature spec (name=k=v:k=v) added to the command as is; pairs whose "
                         "golden run has none of --keys are skipped")
    ap.add_argument("--model-dir", default="",
                    help="load each model by path=DIR/<version>.json instead of version=")
    ap.add_argument("--keys", default="",
                    help="comma-separated keys that must be present and equal")
    ap.add_argument("--aggregate", default="", help="comma-separated aggregate keys to compare")
    ap.add_argument("--key-order", action="store_true",
                    help="compute the whole run and compare the order of its keys")
    ap.add_argument("--threads", default="0,2")
    ap.add_argument("--cpumask", default="",
                    help="passed to vqx: the SIMD levels not to use (16: AVX2 alone, 63: the C)")
    ap.add_argument("--pairs", default=os.environ.get("VQX_GOLDEN_PAIRS", ""),
                    help="comma-separated pair ids (default: all, or $VQX_GOLDEN_PAIRS)")
    args = ap.parse_args()
    if not args.keys and not args.key_order:
        ap.error("--keys is needed without --key-order")

    if args.pair_json:
        if not (args.ref and args.dis):
            ap.error("--pair-json needs --ref and --dis")
        pairs = [pair_from_json(args)]
    else:
        if not (args.shared and args.cache):
            ap.error("--shared and --cache are needed without --pair-json")
        pairs = pairs_from_shared(args)
        if pairs is None:
            print(f"SKIP: {args.shared} not found: golden comparison not run")
            return 77
    if args.key_order:
        return check_key_order(args, pairs)
    keys = [k for k in args.keys.split(",") if k]
    aggregates = [k for k in args.aggregate.split(",") if k]

    checked = failed = refused = 0
    for pair_id, golden, skipped, inputs in pairs:
        run = next(r for r in golden["runs"] if r["name"] == args.run)
        cmd = [args.vqx] + (["--cpumask", args.cpumask] if args.cpumask else [])
        features = []
        for spec in run["features"]:
            name = spec.split("=", 1)[0]
            if name in args.feature and f"feature {spec}" not in skipped:
                features.append(spec)
        for spec in features:
            cmd += ["--feature", spec]
        models = []
        for spec in run["models"]:
            version = dict(kv.split("=", 1) for kv in spec.split(":") if "=" in kv).get("version")
            if version in args.model and f"model {spec}" not in skipped:
                models.append(spec)
        for spec in models:
            if args.model_dir:
                version = dict(kv.split("=", 1) for kv in spec.split(":") if "=" in kv)["version"]
                spec = spec.replace(f"version={version}",
                                    f"path={os.path.join(args.model_dir, version + '.json')}")
            cmd += ["-m", spec]
        if not models:
            cmd.append("-n")
        extra = args.extra_feature if any(k in run["per_frame"] for k in keys) else []
        if not features and not models and not extra:
            if skipped:
                print(f"{pair_id}: upstream refused every requested item, nothing to compare")
                refused += 1
            else:
                print(f"{pair_id}: no requested item in run {args.run}, nothing to compare")
            continue
        for spec in extra:
            cmd += ["--feature", spec]

        cmd += inputs()
        for threads in args.threads.split(","):
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                full = cmd + ["--threads", threads, "--json", "--precision", "max",
                              "-o", out.name, "-q"]
                proc = subprocess.run(full, capture_output=True, text=True)
                if proc.returncode != 0:
                    print(f"FAIL {pair_id} threads={threads}: exit {proc.returncode}: "
                          f"{proc.stderr.strip()}\n  {' '.join(full)}")
                    failed += 1
                    continue
                result = json.load(open(out.name))
            frames = result["frames"]
            for key in keys:
                if key not in run["per_frame"]:
                    continue  # upstream refused the feature for this pair
                want = run["per_frame"][key]
                got = [f["metrics"].get(key) for f in frames]
                if len(got) != len(want):
                    print(f"FAIL {pair_id} {key}: {len(got)} frames, golden has {len(want)}")
                    failed += 1
                    continue
                for i, (g, w) in enumerate(zip(got, want)):
                    checked += 1
                    if not same(g, golden_value(w)):
                        failed += 1
                        print(f"FAIL {pair_id} threads={threads} {key}[{i}]: "
                              f"vqx {g!r} golden {w!r}")
            for key in aggregates:
                want = run.get("aggregate", {}).get(key)
                got = result["aggregate_metrics"].get(key)
                checked += 1
                if want is None or not same(got, golden_value(want)):
                    failed += 1
                    print(f"FAIL {pair_id} threads={threads} aggregate {key}: "
                          f"vqx {got!r} golden {want!r}")
    print(f"{checked - failed} passed, {failed} failed")
    if checked == 0 and failed == 0 and refused and refused == len(pairs):
        print("SKIP: upstream refused every requested item for every pair")
        return 77
    if checked == 0:
        print("no value compared")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
