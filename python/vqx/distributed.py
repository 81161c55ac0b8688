"""vqx on a Dask cluster: many pairs as tasks, one long pair as segments.

>>> from distributed import Client
>>> import vqx.distributed as vd
>>> client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
>>> results = vd.score_many(client, [{"ref": "a.y4m", "dis": "b.y4m"},
...                                  {"ref": "a.y4m", "dis": "c.y4m", "features": ("psnr",)}])
>>> whole = vd.score_segmented(client, "ref.y4m", "dis.y4m", segment_frames=1000)

Every value is a single run's, bit for bit. A job is a dict of ``vqx.score``'s
arguments (paths, as the workers see them). A worker sends back a pair's values,
and the client rebuilds the ``Result`` in the C library (``vqx_import_stream``):
the models are predicted again from the imported features, and pooling, key
order and the output files are the library's own, so ``Result.write`` writes
the CLI's files.

A segment [s, e) of a pair is scored from frame s - before to frame e + after,
the temporal window the requested features declare (``vqx_frames_needed``:
motion's previous frames, motion2's next one, speed_temporal's history), and
keeps [s, e); the last segment runs to the stream's end, so the flush is the
single run's. Run-wide aggregates (psnr's ``enable_apsnr``) cannot be rebuilt
from segments and are refused there (they work in ``score_many``).

GPU workers: one worker per GPU, each with ``VQX_GPU`` set to its device and
the resource ``GPU=1`` (``gpu_cluster``, or ``VQX_GPU=i dask worker ADDRESS
--nthreads 1 --resources GPU=1``); a job with ``backend="cuda"`` runs on such a
worker, on its GPU.

``vqx-dask`` (``main``) does the same from the command line (docs/distributed.md).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple

from . import Error, Result, _BACKENDS, _FORMATS, _Options, _vqx, score

__all__ = ["score_many", "score_segmented", "gpu_cluster", "gpu_worker_spec", "PairError", "main"]

# vqx.score's options a job may give, beside "ref" and "dis"
_SCORE_OPTIONS = ("model", "features", "width", "height", "pixel_format", "bitdepth", "threads",
                  "subsample", "backend", "frame_cnt", "strict_backend", "cpumask", "gpu",
                  "frame_skip_ref", "frame_skip_dist")
_DEFAULT_RETRIES = 2


class PairError(Error):
    """A pair that failed on the cluster (after its retries): ``ref``, ``dis``,
    ``reason`` (vqx's message or the worker's failure)."""

    def __init__(self, ref: str, dis: str, reason: str) -> None:
        super().__init__(f"{ref} / {dis}: {reason}")
        self.ref, self.dis, self.reason = ref, dis, reason

    def __reduce__(self) -> Tuple[type, Tuple[str, str, str]]:
        return (PairError, (self.ref, self.dis, self.reason))


def _job_options(job: Mapping[str, Any]) -> dict:
    """vqx.score's keywords of a job, refusing anything else (a typo would
    otherwise only fail on a worker)."""
    if not isinstance(job, Mapping) or "ref" not in job or "dis" not in job:
        raise Error(f"a job is a dict with 'ref', 'dis' and vqx.score's options, not {job!r}")
    unknown = sorted(set(job) - {"ref", "dis", *_SCORE_OPTIONS})
    if unknown:
        raise Error(f"job {job['ref']} / {job['dis']}: unknown options {', '.join(unknown)} "
                    f"(vqx.score takes {', '.join(_SCORE_OPTIONS)})")
    return {k: v for k, v in job.items() if k in _SCORE_OPTIONS}


def _checked(options: Mapping[str, Any]) -> _Options:
    """The options as vqx.score checks them (on the client, before any task)."""
    o = dict(options)
    for k in ("frame_skip_ref", "frame_skip_dist"):
        o.pop(k, None)
    return _Options(o.get("model", ("version=vmaf_v0.6.1",)), o.get("features", ()),
                    o.get("width"), o.get("height"), o.get("pixel_format"), o.get("bitdepth"),
                    o.get("threads", 0), o.get("subsample", 1), o.get("backend", "cpu"),
                    o.get("frame_cnt"), o.get("strict_backend", False), o.get("cpumask", 0),
                    o.get("gpu", 0))


def _on_worker_gpu(options: dict) -> dict:
    """A cuda job without its own gpu takes its worker's (VQX_GPU)."""
    if options.get("backend") == "cuda" and "gpu" not in options and "VQX_GPU" in os.environ:
        options = dict(options, gpu=int(os.environ["VQX_GPU"]))
    return options


def _frame_counts(ref: str, dis: str, options: dict) -> Tuple[Optional[int], Optional[int]]:
    """Task: the frames of ref and of dis, None where the size does not tell (a pipe)."""
    raw = _checked(options).raw_format()
    try:
        return _vqx.probe(os.fsdecode(ref), raw)[4], _vqx.probe(os.fsdecode(dis), raw)[4]
    except Error as e:
        raise PairError(str(ref), str(dis), str(e)) from None


def _scored(ref: str, dis: str, options: dict, *, segment: bool = False) -> dict:
    """Task: score one pair (or segment) and return its values, picklable:
    keys in the library's order, each with its doubles and written flags."""
    options = _on_worker_gpu(options)
    t0 = time.monotonic()
    try:
        r = score(ref, dis, **options)
    except Error as e:  # its .result holds a context, which cannot travel
        raise PairError(str(ref), str(dis), str(e)) from None
    if segment and r.aggregate:
        raise PairError(str(ref), str(dis), "run-wide aggregates ("
                        f"{', '.join(r.aggregate)}) cannot be rebuilt from segments: score "
                        "this pair whole (score_many), or leave out enable_apsnr")
    raw = _checked(options).raw_format()
    w, h, layout, bpc, _ = _vqx.probe(os.fsdecode(ref), raw)
    ctx = r._ctx
    return {
        "format": (layout, bpc, w, h),
        "frame_count": r.frame_count,
        "keys": [(k, bytes(ctx.values(k)), ctx.written(k)) for k in r.keys],
        "aggregate": r.aggregate,
        "backends": r.backends,
        "notices": r.notices,
        "seconds": time.monotonic() - t0,
    }


class _Piece:
    """The frames [first, stop) of a task's record, as frames from `at` on."""

    def __init__(self, record: dict, first: int, stop: int, at: int) -> None:
        self.record, self.first, self.stop, self.at = record, first, stop, at

    def values(self, key_index: int) -> Tuple[bytes, bytes]:
        _, values, written = self.record["keys"][key_index]
        return values[8 * self.first:8 * self.stop], written[self.first:self.stop]


def _rebuild(options: dict, pieces: Sequence[_Piece], n_frames: int, seconds: float,
             notices: Sequence[str]) -> Result:
    """A Result of these pieces through the C library: a context with the
    same models and features takes the stream as imported, the features'
    values piece by piece in the library's key order, then the flush
    predicts the models, and their scores are checked against the workers'."""
    o = _checked(dict(options, backend="cpu", threads=0, gpu=0))
    ctx = o.open()
    before = set(ctx.keys())
    first = pieces[0].record
    ctx.import_stream(*first["format"], n_frames)
    # the models' outputs (bootstrap ones appear with the stream) are predicted here
    model_outputs = set(ctx.model_keys()) | (set(ctx.keys()) - before)
    order: dict = {}
    for piece in pieces:
        for i, (key, _, _) in enumerate(piece.record["keys"]):
            order.setdefault(key, []).append((piece, i))
    for key, where in order.items():
        if key in model_outputs:
            continue
        for piece, i in where:
            ctx.import_scores(key, piece.at, *piece.values(i))
    for name, value in first["aggregate"].items():
        ctx.import_aggregate(name, value)
    ran_on = list(first["backends"].items())
    if [name for name, _ in ran_on] == list(ctx.backends()):
        for i, (_, backend) in enumerate(ran_on):
            ctx.import_backend(i, _BACKENDS[backend])
    failure = ctx.flush()
    if failure:
        raise Error(f"the gathered values do not pool: {failure}")
    for key in model_outputs & order.keys():
        for piece, i in order[key]:
            values, written = piece.values(i)
            got = bytes(ctx.values(key))[8 * piece.at:8 * piece.at + len(values)]
            if got != values or ctx.written(key)[piece.at:piece.at + len(written)] != written:
                raise Error(f"{key}: the model scores predicted from the gathered features differ "
                            f"from the workers' at frames {piece.at}..")
    for line in notices:
        if line not in ctx.notices():  # a non-finite value's, which the flush repeats
            ctx.add_notice(line)
    return Result(ctx, seconds, o.subsample)


class _Progress:
    """A progress line on stderr (a terminal): tasks done, frames scored."""

    def __init__(self, what: str, tasks: int, frames: Optional[int], show: bool) -> None:
        self.what, self.tasks, self.frames, self.show = what, tasks, frames, show
        self.done = self.frames_done = 0
        self.t0 = time.monotonic()
        self.draw()

    def add(self, frames: int) -> None:
        self.done += 1
        self.frames_done += frames
        self.draw()

    def draw(self) -> None:
        if not self.show:
            return
        width = 30
        filled = width * self.done // self.tasks if self.tasks else width
        of = f"/{self.frames}" if self.frames is not None else ""
        rate = self.frames_done / max(time.monotonic() - self.t0, 1e-9)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.what} "
                         f"{self.done}/{self.tasks}, frames {self.frames_done}{of} "
                         f"({rate:.1f} fps)")
        if self.done == self.tasks:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _submit(client: Any, fn: Any, *args: Any, retries: int, options: dict, **kwargs: Any) -> Any:
    """One task: retried `retries` times; a cuda one on a worker with a GPU."""
    resources = {"GPU": 1} if options.get("backend") == "cuda" else None
    return client.submit(fn, *args, retries=retries, pure=False, resources=resources, **kwargs)


def _failure(future: Any, ref: str, dis: str) -> PairError:
    err = future.exception()
    return err if isinstance(err, PairError) else PairError(ref, dis, f"{type(err).__name__}: {err}")


def score_many(client: Any, jobs: Iterable[Mapping[str, Any]], *, retries: int = _DEFAULT_RETRIES,
               progress: bool = False, errors: str = "raise") -> List[Any]:
    """Score every job (a dict: ``ref``, ``dis`` and vqx.score's options) as one
    task on `client` (a ``distributed.Client``); the Results in the jobs' order.

    A task that fails is retried `retries` times; then, with errors="raise",
    a PairError naming the first failed pair (by job order) is raised once all
    tasks are done, with errors="return" the PairError takes the pair's place
    in the list. progress: a progress line on stderr over pairs and frames.
    """
    from distributed import as_completed

    if errors not in ("raise", "return"):
        raise Error(f"errors: 'raise' or 'return', not {errors!r}")
    jobs = list(jobs)
    options = [_job_options(job) for job in jobs]
    for job, o in zip(jobs, options):
        try:
            _checked(o)
        except Error as e:
            raise PairError(str(job["ref"]), str(job["dis"]), str(e)) from None
    futures = [_submit(client, _scored, job["ref"], job["dis"], o, retries=retries, options=o)
               for job, o in zip(jobs, options)]
    index = {f.key: i for i, f in enumerate(futures)}
    bar = _Progress("pairs", len(futures), None, progress)
    out: List[Any] = [None] * len(futures)
    for future in as_completed(futures):
        i = index[future.key]
        if future.status == "finished":
            record = future.result()
            out[i] = _rebuild(options[i], [_Piece(record, 0, record["frame_count"], 0)],
                              record["frame_count"], record["seconds"], record["notices"])
            bar.add(record["frame_count"])
        else:
            out[i] = _failure(future, str(jobs[i]["ref"]), str(jobs[i]["dis"]))
            bar.add(0)
    if errors == "raise":
        for r in out:
            if isinstance(r, PairError):
                raise r
    return out


def _segments(total: int, segment_frames: int, before: int, after: int, subsample: int,
              user_frame_cnt: bool) -> List[Tuple[int, int, int, Optional[int]]]:
    """(s, e, read_start, frames to read or None: to the end) of each segment.
    The read starts on a multiple of subsample, so that the frames a segment
    scores are the ones the single run scores."""
    plan = []
    for s in range(0, total, segment_frames):
        e = min(s + segment_frames, total)
        start = max(s - before, 0)
        start -= start % subsample
        stop = min(e + after, total)
        count = None if stop == total and not user_frame_cnt else stop - start
        plan.append((s, e, start, count))
    return plan


def score_segmented(client: Any, ref: Any, dis: Any, *, segment_frames: int,
                    retries: int = _DEFAULT_RETRIES, progress: bool = False,
                    **score_options: Any) -> Result:
    """Score one pair as segments of `segment_frames` frames, each a task on
    `client`; the Result is a single run's (frames numbered from the first
    frame scored, as vqx.score numbers them). score_options: vqx.score's.

    Needs inputs whose length the file size tells (regular files, y4m with
    plain frame headers). Raises PairError naming the pair when a segment
    failed after its retries, or when a feature emits run-wide aggregates.
    """
    from distributed import as_completed

    ref_path, dis_path = os.fsdecode(ref), os.fsdecode(dis)
    options = _job_options(dict(score_options, ref=ref_path, dis=dis_path))
    if isinstance(segment_frames, bool) or not isinstance(segment_frames, int) or segment_frames < 1:
        raise Error(f"invalid segment_frames {segment_frames!r} (at least 1)")
    o = _checked(options)
    # on a worker: the client may not see the files
    counts = _submit(client, _frame_counts, ref_path, dis_path, options, retries=retries,
                     options={})
    try:
        ref_frames, dis_frames = counts.result()
    except PairError:
        raise
    except Exception as e:  # a worker's failure other than vqx's
        raise PairError(ref_path, dis_path, f"{type(e).__name__}: {e}") from None
    skip_ref, skip_dis = options.get("frame_skip_ref", 0), options.get("frame_skip_dist", 0)
    if ref_frames is None or dis_frames is None:
        raise PairError(ref_path, dis_path, "segments need inputs whose frame count the file size "
                        "tells (a regular file; y4m with plain FRAME headers)")
    total = min(ref_frames - skip_ref, dis_frames - skip_dis)
    if o.frame_cnt:
        total = min(total, o.frame_cnt)
    if total <= 0:
        raise PairError(ref_path, dis_path, "no frame to score")
    with_window = o.open()
    before, after = with_window.frames_needed()
    with_window.close()
    subsample = max(o.subsample, 1)
    plan = _segments(total, segment_frames, before, after, subsample, bool(o.frame_cnt))
    futures = []
    for s, e, start, count in plan:
        seg = dict(options, frame_skip_ref=skip_ref + start, frame_skip_dist=skip_dis + start,
                   frame_cnt=count)
        futures.append(_submit(client, _scored, ref_path, dis_path, seg, segment=True,
                               retries=retries, options=options))
    index = {f.key: i for i, f in enumerate(futures)}
    bar = _Progress("segments", len(futures), total, progress)
    records: List[Optional[dict]] = [None] * len(futures)
    t0 = time.monotonic()
    failure = None
    for future in as_completed(futures):
        i = index[future.key]
        if future.status != "finished":
            failure = failure or _failure(future, ref_path, dis_path)
            bar.add(0)
            continue
        records[i] = future.result()
        s, e, _, _ = plan[i]
        bar.add(e - s)
    if failure:
        for f in futures:
            f.cancel()
        raise failure
    pieces, notices = [], []
    for (s, e, start, _), record in zip(plan, records):
        pieces.append(_Piece(record, s - start, e - start, s))
        notices += [f"frames {s}..{e - 1}: {line}" for line in record["notices"]]
    return _rebuild(options, pieces, total, time.monotonic() - t0, notices)


def _gpu_count() -> int:
    """GPUs nvidia-smi lists; 0 without it."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return 0
    return sum(1 for line in out.stdout.splitlines() if line.startswith("GPU "))


def gpu_worker_spec(gpus: Sequence[int], threads: int = 1) -> dict:
    """A SpecCluster's workers: one Nanny per GPU, with VQX_GPU set to it and
    the resource GPU=1, so that each cuda task runs alone on its GPU."""
    from distributed import Nanny

    return {f"gpu{g}": {"cls": Nanny, "options": {"nthreads": threads, "resources": {"GPU": 1},
                                                  "env": {"VQX_GPU": str(g)}}}
            for g in gpus}


def gpu_cluster(gpus: Optional[Sequence[int]] = None, **kwargs: Any) -> Any:
    """A local cluster of one worker per GPU (default: every GPU nvidia-smi
    lists); kwargs go to distributed.SpecCluster."""
    from distributed import Scheduler, SpecCluster

    if gpus is None:
        gpus = range(_gpu_count())
    gpus = list(gpus)
    if not gpus:
        raise Error("no GPU: nvidia-smi lists none (give the device indices)")
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    return SpecCluster(workers=gpu_worker_spec(gpus), scheduler=scheduler, **kwargs)


# ---- vqx-dask ----

def _read_manifest(path: str) -> List[dict]:
    """Jobs of a JSON file (a list of jobs) or of JSON lines (one job a line)."""
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    try:
        jobs = json.loads(text)
    except json.JSONDecodeError:
        try:
            jobs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as e:
            raise Error(f"{path}: neither JSON nor JSON lines: {e}") from None
    if isinstance(jobs, dict):
        jobs = [jobs]
    if not isinstance(jobs, list) or not all(isinstance(j, dict) for j in jobs):
        raise Error(f"{path}: a list of jobs (objects with ref, dis and options) expected")
    return jobs


def _outputs(job: dict) -> List[Tuple[str, str]]:
    """(path, format) of a job's "output": a path (the format from its suffix) or
    {format: path}."""
    out = job.pop("output", None)
    if out is None:
        return []
    if isinstance(out, str):
        fmt = os.path.splitext(out)[1].lstrip(".").lower()
        if fmt not in _FORMATS:
            raise Error(f"output {out}: the suffix names no format (json, xml, csv, sub, svg)")
        return [(out, fmt)]
    if isinstance(out, dict) and all(f in _FORMATS for f in out):
        return [(path, fmt) for fmt, path in out.items()]
    raise Error(f"output {out!r}: a path or {{format: path}} expected")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """vqx-dask: score a manifest of pairs on a Dask cluster."""
    ap = argparse.ArgumentParser(
        prog="vqx-dask", description="Score a manifest of pairs on a Dask cluster, exactly as vqx.")
    ap.add_argument("manifest", help="JSON list of jobs, or JSON lines ('-': stdin); a job is "
                    "{ref, dis, vqx.score options..., output: PATH or {format: PATH}}")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running scheduler (tcp://host:8786)")
    where.add_argument("--local", metavar="N", type=int, help="a local cluster of N workers")
    where.add_argument("--local-gpus", metavar="N", type=int,
                       help="a local cluster of one worker per GPU, GPUs 0..N-1")
    ap.add_argument("--segment-frames", type=int, metavar="N",
                    help="score each pair as segments of N frames (one pair over many workers)")
    ap.add_argument("--retries", type=int, default=_DEFAULT_RETRIES, help="retries of a failed task")
    ap.add_argument("--precision", default=None, help="output numbers: max or 0..17 decimals")
    ap.add_argument("--summary", metavar="FILE", help="write one JSON line per pair: its pooled "
                    "model means, or its error")
    ap.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    args = ap.parse_args(argv)
    from distributed import Client, LocalCluster

    try:
        jobs = _read_manifest(args.manifest)
        outputs = [_outputs(job) for job in jobs]
        precision = None if args.precision is None else \
            args.precision if args.precision == "max" else int(args.precision)
        if args.scheduler:
            client = Client(args.scheduler)
        elif args.local_gpus:
            client = Client(gpu_cluster(range(args.local_gpus)))
        else:
            client = Client(LocalCluster(n_workers=args.local, threads_per_worker=1,
                                         dashboard_address=None))
    except (Error, ValueError, OSError) as e:
        print(f"vqx-dask: {e}", file=sys.stderr)
        return 2
    progress = not args.no_progress and sys.stderr.isatty()
    with client:
        if args.segment_frames:
            results: List[Any] = []
            for job in jobs:
                o = dict(job)
                try:
                    results.append(score_segmented(client, o.pop("ref"), o.pop("dis"),
                                                   segment_frames=args.segment_frames,
                                                   retries=args.retries, progress=progress, **o))
                except Error as e:
                    results.append(e if isinstance(e, PairError) else
                                   PairError(str(job["ref"]), str(job["dis"]), str(e)))
        else:
            results = score_many(client, jobs, retries=args.retries, progress=progress,
                                 errors="return")
    failed = 0
    summary = open(args.summary, "w", encoding="utf-8") if args.summary else None
    for job, r, outs in zip(jobs, results, outputs):
        line = {"ref": str(job["ref"]), "dis": str(job["dis"])}
        if isinstance(r, PairError):
            failed += 1
            print(f"vqx-dask: {r}", file=sys.stderr)
            line["error"] = r.reason
        else:
            for path, fmt in outs:
                r.write(path, fmt, precision=precision)
            line["frames"] = r.frame_count
            line.update({k: r.pooled[k]["mean"] for k in r.models if "mean" in r.pooled.get(k, {})})
        if summary:
            summary.write(json.dumps(line) + "\n")
    if summary:
        summary.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
