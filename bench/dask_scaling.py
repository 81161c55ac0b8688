#!/usr/bin/env python3
"""vqx.distributed's scaling (docs/distributed.md, "Scaling"): the same work
on local clusters of 1, 2, ... workers (one thread each, one process each),
wall clock best of --runs, against vqx.score in one process (threads=0).

  manifest   score_many over every pair of ../shared (--repeat times each)
  segmented  score_segmented of one long pair: the frames of --clip's pair
             repeated to --frames frames, in segments of --segment frames

Checks that every Result equals the single run's (per-frame and pooled), so a
number in the table is also a test.

usage: bench/dask_scaling.py [--shared ../shared] [--workers 1,2] [--runs 3]
       [--repeat 2] [--clip deb_city_x264_100k_720x404_12f_420p8] [--frames 120]
       [--segment 30] [--model version=vmaf_v0.6.1] [--gpus]

--gpus: one worker per GPU (vqx.distributed.gpu_cluster) with backend cuda,
for 1..N GPUs, instead of CPU workers.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import vqx
import vqx.distributed as vd
from distributed import Client, LocalCluster

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import golden  # noqa: E402  (unpack the clips of ../shared)


def same(a, b):
    assert a.keys == b.keys and json.dumps(a.pooled) == json.dumps(b.pooled)
    for k in a.keys:
        np.testing.assert_array_equal(a.frames[k], b.frames[k], err_msg=k)


def best(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parents[2] / "shared"))
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--clip", default="deb_city_x264_100k_720x404_12f_420p8")
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--segment", type=int, default=30)
    ap.add_argument("--model", default="version=vmaf_v0.6.1")
    ap.add_argument("--gpus", action="store_true")
    args = ap.parse_args()

    manifest = json.loads(Path(args.shared, "golden", "MANIFEST.json").read_text())
    cache = tempfile.mkdtemp(prefix="vqx-dask-bench-")
    extra = dict(backend="cuda") if args.gpus else {}
    jobs, long_pair = [], None
    for p in manifest["pairs"]:
        paths = [golden.unpack(args.shared, cache, p[s], p["sha256"][p[s]]) for s in ("ref", "dis")]
        geometry = dict(width=p["width"], height=p["height"], pixel_format=p["pixfmt"],
                        bitdepth=p["bitdepth"])
        job = dict(ref=paths[0], dis=paths[1], model=(args.model,), **geometry, **extra)
        jobs += [job] * args.repeat
        if p["id"] == args.clip:
            long_pair = dict(job)
            for side, path in zip(("ref", "dis"), paths):
                data = Path(path).read_bytes()
                n = p["frames"]
                long = Path(cache, f"long_{side}.yuv")
                long.write_bytes(data * -(-args.frames // n))
                long_pair[side] = str(long)
            long_pair["frame_cnt"] = args.frames
    manifest_frames = sum(p["frames"] for p in manifest["pairs"]) * args.repeat

    t_single_many, singles = best(lambda: [vqx.score(**j) for j in jobs], args.runs)
    t_single_long, single_long = best(lambda: vqx.score(**long_pair), args.runs)
    rows = [("vqx.score, one process", "-", t_single_many, t_single_long)]
    for n in [int(w) for w in args.workers.split(",")]:
        cluster = vd.gpu_cluster(range(n)) if args.gpus else \
            LocalCluster(n_workers=n, threads_per_worker=1, dashboard_address=None)
        with cluster, Client(cluster) as client:
            t_many, results = best(lambda: vd.score_many(client, jobs), args.runs)
            for a, b in zip(results, singles):
                same(a, b)
            job = dict(long_pair)
            ref, dis = job.pop("ref"), job.pop("dis")
            t_long, seg = best(lambda: vd.score_segmented(client, ref, dis,
                                                          segment_frames=args.segment, **job),
                               args.runs)
            same(seg, single_long)
        rows.append((f"{n} {'GPU' if args.gpus else 'CPU'} worker{'s' if n > 1 else ''}", n,
                     t_many, t_long))
    print(f"manifest: {len(jobs)} pairs, {manifest_frames} frames; segmented: {args.frames} "
          f"frames of {args.clip}, segments of {args.segment}; model {args.model}; "
          f"best of {args.runs}")
    print("| run | workers | manifest s | manifest fps | segmented s | segmented fps |")
    print("|---|---|---|---|---|---|")
    for name, n, tm, tl in rows:
        print(f"| {name} | {n} | {tm:.2f} | {manifest_frames / tm:.1f} | {tl:.2f} | "
              f"{args.frames / tl:.1f} |")


if __name__ == "__main__":
    main()
