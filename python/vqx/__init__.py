"""vqx: Netflix libvmaf 3.2's video quality metrics (VMAF and companions),
with libvmaf's exact values.

>>> import vqx
>>> r = vqx.score("ref.y4m", "dis.y4m", features=("psnr",))
>>> r.pooled["vmaf"]["mean"], r.frames["psnr_y"]

Inputs are paths (y4m, or raw planar yuv given ``width``, ``height``,
``pixel_format`` and ``bitdepth``) or iterables of frames. A frame is a tuple
of 2-D planes, (Y, U, V) or (Y,) for 4:0:0, as numpy arrays or any other
buffer-protocol object of uint8 (8-bit) or uint16 (``bitdepth`` 9 to 16)
samples; the plane shapes give the size and the pixel format. Models and
features are written as the CLI's ``--model`` and ``--feature`` values.
``vqx.Scorer`` takes frames one pair at a time, as a decoder gives them.

Errors raise ``vqx.Error`` (a ``ValueError``) or, for input files,
``vqx.InputError`` (also an ``OSError``), with the library's one-line
message; nothing is printed.
"""
from __future__ import annotations

import itertools
import os
import time
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Sequence, Tuple, Union

from . import _vqx
from ._vqx import Error, InputError

if TYPE_CHECKING:
    import numpy

__version__: str = _vqx.version
__all__ = ["score", "Scorer", "Result", "Error", "InputError", "feature_names"]

# An error raised once scoring has begun carries what was scored before it
# (the frames before a bad frame, the features that did not fail).
Error.result = None

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Frame = Sequence[Any]
"""A tuple of 2-D planes (Y, U, V) or (Y,), numpy arrays or buffers."""
Specs = Union[str, Iterable[str], None]

_LAYOUTS = {"400": 0, "420": 1, "422": 2, "444": 3}
_BACKENDS = {"cpu": 0, "cuda": 1, "vulkan": 2}
_FORMATS = {"xml": 0, "json": 1, "csv": 2, "sub": 3, "svg": 4}
_POOLS = ("min", "max", "mean", "harmonic_mean")
# vqx.h's VQX_PRECISION_LIBVMAF and VQX_PRECISION_MAX
_PRECISIONS = {None: -1, "libvmaf": -1, "max": -2}
_DEFAULT_MODEL = ("version=vmaf_v0.6.1",)


def feature_names() -> list:
    """The names of every feature extractor (as ``--feature`` takes them)."""
    return _vqx.feature_names()


def _specs(value: Specs, what: str) -> Tuple[str, ...]:
    """A spec or a sequence of specs (None: none) as a tuple of strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    specs = tuple(value)
    if not all(isinstance(s, str) for s in specs):
        raise Error(f"{what}: strings expected (the CLI's syntax), got {specs!r}")
    return specs


def _count(value: Any, name: str, low: int, high: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or \
            (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise Error(f"invalid {name} {value!r} ({bound})")
    return value


class _Options:
    """The options score() and Scorer share, checked once."""

    def __init__(self, model: Specs, features: Specs, width: Optional[int], height: Optional[int],
                 pixel_format: Optional[str], bitdepth: Optional[int], threads: int,
                 subsample: int, backend: str, frame_cnt: Optional[int], strict_backend: bool,
                 cpumask: int, gpu: int) -> None:
        self.models = _specs(model, "model")
        self.features = _specs(features, "features")
        self.width = 0 if width is None else _count(width, "width", 1, 65536)
        self.height = 0 if height is None else _count(height, "height", 1, 65536)
        if pixel_format is not None and str(pixel_format) not in _LAYOUTS:
            raise Error(f"invalid pixel format {pixel_format!r} (420, 422, 444 or 400)")
        self.layout = -1 if pixel_format is None else _LAYOUTS[str(pixel_format)]
        self.bitdepth = 0 if bitdepth is None else _count(bitdepth, "bit depth", 8, 16)
        self.raw_given = [width, height, pixel_format, bitdepth].count(None)
        self.threads = _count(threads, "thread count", 0, 1024)
        self.subsample = _count(subsample, "subsample", 0)
        if backend not in _BACKENDS:
            raise Error(f"unknown backend {backend!r} (backends: cpu, cuda, vulkan)")
        self.backend = _BACKENDS[backend]
        self.frame_cnt = 0 if frame_cnt is None else _count(frame_cnt, "frame count", 1)
        self.strict_backend = bool(strict_backend)
        self.cpumask = _count(cpumask, "cpumask", 0, 63)
        self.gpu = _count(gpu, "GPU", 0)

    def open(self) -> _vqx.Context:
        """A context with every model and feature requested, models first as
        the CLI (and libvmaf's) does: that order is the keys' order."""
        ctx = _vqx.Context(self.threads, self.subsample, self.backend, self.strict_backend,
                           self.cpumask, self.gpu)
        for spec in self.models:
            ctx.use_model(spec)
        for spec in self.features:
            name, _, options = spec.partition("=")
            ctx.use_feature(name, options or None)
        return ctx

    def raw_format(self) -> Optional[Tuple[int, int, int, int]]:
        """(w, h, layout, bpc) for raw files; None when none given (y4m)."""
        if self.raw_given == 4:
            return None
        if self.raw_given:
            raise Error("raw input needs all of width, height, pixel_format and bitdepth")
        return (self.width, self.height, self.layout, self.bitdepth)


class Result:
    """The scores of one run.

    ``frames``: key -> numpy float64 array, one value per frame, NaN where a
    frame has no value (frames skipped by ``subsample``, a feature that
    failed on that frame). ``pooled``: key -> {"min", "max", "mean",
    "harmonic_mean"} over every frame (honouring ``subsample``; a method
    that cannot pool a key is left out). ``aggregate``: the aggregate
    metrics (e.g. psnr's ``apsnr_y``). ``backends``: feature -> "cpu",
    "cuda" or "vulkan", which backend computed it (the ``backends`` of the CLI's JSON).
    ``models``: the key of each model's score. ``notices``: the library's
    notices (a feature dropped, a backend fallback, an input that ended
    first), which the CLI prints.
    """

    def __init__(self, ctx: _vqx.Context, elapsed: float, subsample: int) -> None:
        self._ctx = ctx
        self._subsample = subsample
        self._fps = ctx.frame_count() / elapsed if elapsed > 0 else float("nan")
        self._frames: Optional[dict] = None
        self.frame_count: int = ctx.frame_count()
        self.keys: list = ctx.keys()
        self.models: list = ctx.model_keys()
        self.notices: list = ctx.notices()
        self.pooled: dict = {}
        for key in self.keys:
            pooled = dict(zip(_POOLS, ctx.pooled(key)))
            if any(v is not None for v in pooled.values()):
                self.pooled[key] = {m: v for m, v in pooled.items() if v is not None}

    @property
    def frames(self) -> "dict[str, numpy.ndarray]":
        """key -> float64 array of per-frame values, NaN where not scored."""
        if self._frames is None:
            try:
                import numpy
            except ImportError as e:
                raise ImportError("vqx.Result.frames needs numpy (pip install numpy)") from e
            self._frames = {}
            for key in self.keys:
                values = numpy.frombuffer(self._ctx.values(key), dtype=numpy.float64)
                # temporal features compute every frame; the frames subsample
                # skips are not scored (the output files and pooling skip them)
                if self._subsample > 1:
                    values[numpy.arange(len(values)) % self._subsample != 0] = numpy.nan
                self._frames[key] = values
        return self._frames

    @property
    def aggregate(self) -> "dict[str, float]":
        """Aggregate metrics, name -> value (e.g. apsnr_y with psnr=enable_apsnr=true)."""
        return self._ctx.aggregate()

    @property
    def backends(self) -> "dict[str, str]":
        """Feature (with its options) -> the backend that computed it: "cpu", "cuda", "vulkan"."""
        return self._ctx.backends()

    def write(self, path: PathLike, fmt: str = "json", *,
              precision: Union[None, str, int] = None) -> None:
        """Write the CLI's output file: fmt "json", "xml", "csv", "sub", or
        "svg" (the plot, as plot() writes it).

        precision: None or "libvmaf" (libvmaf's %.6f), "max" (every double
        exactly, as ``--precision max``) or a number of decimals 0..17.
        """
        if fmt not in _FORMATS:
            raise Error(f"unknown output format {fmt!r} (json, xml, csv, sub or svg)")
        if isinstance(precision, int) and not isinstance(precision, bool) and 0 <= precision <= 17:
            digits = precision
        elif isinstance(precision, (str, type(None))) and precision in _PRECISIONS:
            digits = _PRECISIONS[precision]
        else:
            raise Error(f"invalid precision {precision!r} (0 to 17, 'max' or 'libvmaf')")
        self._ctx.write(os.fspath(path), _FORMATS[fmt], digits, self._fps)

    def plot(self, path: PathLike) -> None:
        """Write an SVG plot, the CLI's ``--plot``: one panel per score with
        the per-frame curve, a dashed line at the pooled mean, and the three
        worst frames (lowest; highest for distortion-type keys such as mse,
        motion, cambi) marked and labelled with their numbers."""
        self.write(path, "svg")

    def __repr__(self) -> str:
        means = ", ".join(f"{k}={self.pooled[k]['mean']:.6f}" for k in self.models
                          if "mean" in self.pooled.get(k, {}))
        return f"<vqx.Result {self.frame_count} frames, {len(self.keys)} keys{', ' if means else ''}{means}>"


def _finish(ctx: _vqx.Context, o: _Options, t0: float, failure: Optional[str],
            error: type) -> Result:
    """Flush and make the Result; a failure (reading or feature) raises with it attached."""
    flush_failure = ctx.flush()
    result = Result(ctx, time.monotonic() - t0, o.subsample)
    failure = failure or flush_failure
    if not failure and not result.frame_count:
        failure = "no frame to score"
    if failure:
        err = error(failure) if failure != flush_failure else Error(failure)
        err.result = result
        raise err
    return result


class Scorer:
    """Score frames one pair at a time (from a decoder, say).

    Takes the options of ``vqx.score`` but ``ref`` and ``dis``::

        with vqx.Scorer(features=("psnr",)) as s:
            for ref_frame, dis_frame in decoded:
                s.send(ref_frame, dis_frame)
            result = s.flush()

    The first frame sets the size, pixel format and bit depth of the stream;
    frames past ``frame_cnt`` are ignored.
    """

    def __init__(self, *, model: Specs = _DEFAULT_MODEL, features: Specs = (),
                 width: Optional[int] = None, height: Optional[int] = None,
                 pixel_format: Optional[str] = None, bitdepth: Optional[int] = None,
                 threads: int = 0, subsample: int = 1, backend: str = "cpu",
                 frame_cnt: Optional[int] = None, strict_backend: bool = False,
                 cpumask: int = 0, gpu: int = 0) -> None:
        self._options = _Options(model, features, width, height, pixel_format, bitdepth, threads,
                                 subsample, backend, frame_cnt, strict_backend, cpumask, gpu)
        self._ctx: Optional[_vqx.Context] = self._options.open()
        self._sent = 0
        self._t0 = time.monotonic()

    def _context(self) -> _vqx.Context:
        if self._ctx is None:
            raise Error("the scorer is flushed or closed")
        return self._ctx

    def send(self, ref_frame: Frame, dis_frame: Frame) -> None:
        """Score one pair (copied: the arrays may be reused at once).

        A frame the library refuses (a sample above the bit depth's peak, a
        size that differs from the first frame's) raises vqx.Error; the
        frames before and after it are scored.
        """
        ctx = self._context()
        o = self._options
        if o.frame_cnt and self._sent >= o.frame_cnt:
            return
        failure = ctx.send(_planes(ref_frame), _planes(dis_frame), o.bitdepth, o.layout,
                           o.width, o.height)
        if failure:
            raise Error(failure)
        self._sent += 1

    def flush(self) -> Result:
        """Finish the stream and return its Result (the scorer is done then).

        A feature that failed raises vqx.Error, with the other features'
        scores as the exception's ``result``.
        """
        ctx = self._context()
        self._ctx = None  # the Result owns the context from here on
        return _finish(ctx, self._options, self._t0, None, Error)

    def close(self) -> None:
        """Drop the stream unflushed (a no-op after flush)."""
        if self._ctx is not None:
            self._ctx.close()
            self._ctx = None

    def __enter__(self) -> "Scorer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _planes(frame: Frame) -> tuple:
    return frame if isinstance(frame, tuple) else tuple(frame)


def _is_path(x: Any) -> bool:
    return isinstance(x, (str, bytes, os.PathLike))


def score(ref: Union[PathLike, Iterable[Frame]], dis: Union[PathLike, Iterable[Frame]], *,
          model: Specs = _DEFAULT_MODEL, features: Specs = (), width: Optional[int] = None,
          height: Optional[int] = None, pixel_format: Optional[str] = None,
          bitdepth: Optional[int] = None, threads: int = 0, subsample: int = 1,
          backend: str = "cpu", frame_cnt: Optional[int] = None, strict_backend: bool = False,
          cpumask: int = 0, gpu: int = 0, frame_skip_ref: int = 0,
          frame_skip_dist: int = 0) -> Result:
    """Score a distorted video against its reference, as the vqx CLI does.

    ref, dis: both paths (y4m, detected from its header, or raw planar yuv,
    which needs width, height, pixel_format "420", "422", "444" or "400" and
    bitdepth 8 to 16), or both iterables of frames (tuples of 2-D planes,
    uint8 or uint16 with ``bitdepth``; the plane shapes give the size and
    pixel format, which width, height and pixel_format, when given, must
    match). Scoring stops at the end of the shorter input (a notice says
    so) or after ``frame_cnt`` frames.

    model: model specs, the CLI's ``--model`` (e.g. "version=vmaf_v0.6.1",
    "path=model.json:name=x"); () for none. features: the CLI's ``--feature``
    values (e.g. "psnr", "float_ssim=enable_lcs=true"). threads: worker
    threads (0: all in the calling thread; no value changes). subsample:
    score every n-th frame. backend: "cpu", "cuda" or "vulkan" (features
    without a twin there run on the CPU, or fail with strict_backend). cpumask:
    libvmaf's --cpumask (SIMD levels not used; values are equal anyway).
    gpu: the GPU of backend "cuda" or "vulkan" (the CLI's --gpu).
    frame_skip_ref, frame_skip_dist: frames skipped at the start of each
    input (the CLI's --frame_skip_ref and --frame_skip_dist); the first
    frame scored is frame 0 of the Result.

    Raises vqx.Error for bad options and frames, vqx.InputError for files
    that cannot be opened or read; an error met after scoring began has the
    scores of the frames before it as its ``result``.
    """
    options = _Options(model, features, width, height, pixel_format, bitdepth, threads,
                       subsample, backend, frame_cnt, strict_backend, cpumask, gpu)
    skip_ref = _count(frame_skip_ref, "frame skip", 0)
    skip_dis = _count(frame_skip_dist, "frame skip", 0)
    if _is_path(ref) and _is_path(dis):
        raw = options.raw_format()
        ctx = options.open()
        t0 = time.monotonic()
        _, failure = ctx.score_files(os.fsdecode(ref), os.fsdecode(dis), raw, options.frame_cnt,
                                     skip_ref, skip_dis)
        return _finish(ctx, options, t0, failure, InputError)
    if _is_path(ref) or _is_path(dis):
        raise Error("ref and dis must both be paths or both be frames")
    ctx = options.open()
    t0 = time.monotonic()
    ref_frames = itertools.islice(ref, skip_ref, None)
    dis_frames = itertools.islice(dis, skip_dis, None)
    return _finish(ctx, options, t0, _send_frames(ctx, options, ref_frames, dis_frames), Error)


def _send_frames(ctx: _vqx.Context, o: _Options, ref: Iterator[Frame],
                 dis: Iterator[Frame]) -> Optional[str]:
    """Send pairs until either iterator ends; the library's message for a refused frame."""
    end = object()
    sent = 0
    while not o.frame_cnt or sent < o.frame_cnt:
        ref_frame, dis_frame = next(ref, end), next(dis, end)
        if ref_frame is end or dis_frame is end:
            if ref_frame is not dis_frame:
                first, other = ("reference", "distorted") if ref_frame is end else \
                               ("distorted", "reference")
                ctx.add_notice(f"the {first} frames ended before the {other} frames; "
                               f"scored {sent} frames")
            return None
        failure = ctx.send(_planes(ref_frame), _planes(dis_frame), o.bitdepth, o.layout,
                           o.width, o.height)
        if failure:
            return failure
        sent += 1
    return None
