"""Fixtures of the vqx Python tests: the bundled sample, the clips of
../shared (when present), the CLI (when $VQX_CLI names it), and readers that
turn y4m and raw files into numpy frames.

Environment: VQX_CLI (path of the vqx CLI, for the CLI comparisons),
VQX_SHARED (folder with golden/ and data/, default ../shared beside the
source tree), VQX_CLIP_CACHE (where the xz clips are unpacked, default a
pytest temporary folder).
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE_REF = REPO / "samples" / "city_ref_320x180.y4m"
SAMPLE_DIS = REPO / "samples" / "city_x264_100k_320x180.y4m"
SAMPLE_GOLDEN = REPO / "tests" / "data" / "golden" / "city_x264_100k_320x180.json"
SHARED = Path(os.environ.get("VQX_SHARED", REPO.parent / "shared"))

sys.path.insert(0, str(REPO / "tests"))
import golden  # noqa: E402,F401  (unpack(): the clips of ../shared, checked against the manifest)

LAYOUTS = {"420": (2, 2), "422": (2, 1), "444": (1, 1), "400": None}  # chroma subsampling (x, y)


def plane_shapes(w, h, pixfmt):
    if LAYOUTS[pixfmt] is None:
        return [(h, w)]
    sx, sy = LAYOUTS[pixfmt]
    c = (-(-h // sy), -(-w // sx))
    return [(h, w), c, c]


def raw_frames(path, w, h, pixfmt, bitdepth):
    """The frames of a raw planar file as tuples of numpy planes (little-endian words above 8 bits)."""
    dtype = np.dtype(np.uint8) if bitdepth == 8 else np.dtype("<u2")
    data = np.fromfile(path, dtype=dtype)
    shapes = plane_shapes(w, h, pixfmt)
    frame_len = sum(a * b for a, b in shapes)
    frames = []
    for start in range(0, len(data) - frame_len + 1, frame_len):
        planes, at = [], start
        for shape in shapes:
            n = shape[0] * shape[1]
            planes.append(data[at:at + n].reshape(shape).astype(dtype.newbyteorder("=")))
            at += n
        frames.append(tuple(planes))
    return frames


def y4m_frames(path):
    """(frames, pixfmt) of a y4m file with plain FRAME headers."""
    data = Path(path).read_bytes()
    header, rest = data.split(b"\n", 1)
    params = {p[:1]: p[1:] for p in header.decode().split()[1:]}
    w, h = int(params["W"]), int(params["H"])
    colour = params.get("C", "420")
    pixfmt = "400" if colour.startswith("mono") else colour[:3]
    assert colour in ("420", "420jpeg", "420paldv", "420mpeg2", "422", "444", "mono"), colour
    shapes = plane_shapes(w, h, pixfmt)
    frames, at = [], 0
    while at < len(rest):
        assert rest[at:at + 6] == b"FRAME\n"
        at += 6
        planes = []
        for shape in shapes:
            n = shape[0] * shape[1]
            planes.append(np.frombuffer(rest, np.uint8, n, at).reshape(shape))
            at += n
        frames.append(tuple(planes))
    return frames, pixfmt


def same(a, b):
    """Exact equality of doubles, NaN equal to NaN."""
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def golden_value(v):
    return float(v) if isinstance(v, str) else v


def assert_frames_equal(result, per_frame, keys=None):
    """Every per-frame value of `keys` (default: every golden key the result has) equals."""
    compared = 0
    for key in keys if keys is not None else [k for k in per_frame if k in result.frames]:
        got = result.frames[key].tolist()
        want = [golden_value(v) for v in per_frame[key]]
        assert len(got) == len(want), key
        bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if not same(g, w)]
        assert not bad, f"{key}: (frame, vqx, golden) {bad[:3]}"
        compared += len(got)
    return compared


def assert_results_equal(a, b):
    """Two Results hold the same keys, per-frame values, pooled values and aggregates."""
    assert a.keys == b.keys
    for key in a.keys:
        np.testing.assert_array_equal(a.frames[key], b.frames[key], err_msg=key, strict=True)
    assert a.pooled == b.pooled
    assert json.dumps(a.aggregate) == json.dumps(b.aggregate)


def run_cli(cli, ref, dis, models, features, extra=(), threads=0):
    """The CLI's --json --precision max output as parsed JSON."""
    cmd = [cli, "-r", str(ref), "-d", str(dis), "--json", "--precision", "max", "-o", "-", "-q",
           "--threads", str(threads), *extra]
    for spec in features:
        cmd += ["--feature", spec]
    for spec in models:
        cmd += ["-m", spec]
    if not models:
        cmd.append("-n")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def assert_matches_cli(result, cli_json):
    """Per-frame, pooled and aggregate values equal the CLI's JSON (null: not finite)."""
    # the CLI lists the frames scored (not those that subsample skips)
    frames = {f["frameNum"]: f["metrics"] for f in cli_json["frames"]}
    assert max(frames) < result.frame_count
    cli_keys = list(cli_json["frames"][0]["metrics"])
    assert cli_keys == [k for k in result.keys if k in cli_keys]
    for key in result.keys:
        got = result.frames[key].tolist()
        want = [frames.get(i, {}).get(key) for i in range(result.frame_count)]
        for i, (g, w) in enumerate(zip(got, want)):
            assert same(g, float("nan") if w is None else w), f"{key}[{i}]: {g!r} CLI {w!r}"
    assert result.pooled == {k: {m: float("nan") if v is None else v for m, v in p.items()}
                             for k, p in cli_json["pooled_metrics"].items()}
    assert result.aggregate == cli_json["aggregate_metrics"]


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("VQX_CLI")
    if not path:
        pytest.skip("VQX_CLI not set: no comparison with the CLI")
    return path


@pytest.fixture(scope="session")
def sample_golden():
    return json.loads(SAMPLE_GOLDEN.read_text())


@pytest.fixture(scope="session")
def sample_frames():
    ref, pixfmt = y4m_frames(SAMPLE_REF)
    dis, _ = y4m_frames(SAMPLE_DIS)
    assert pixfmt == "420"
    return ref, dis


@pytest.fixture(scope="session")
def shared_manifest():
    path = SHARED / "golden" / "MANIFEST.json"
    if not path.exists():
        pytest.skip(f"{SHARED} not found: the clips of ../shared are not compared")
    return json.loads(path.read_text())


@pytest.fixture(scope="session")
def clip_cache(tmp_path_factory):
    cache = os.environ.get("VQX_CLIP_CACHE")
    return cache or str(tmp_path_factory.mktemp("clips"))


def run_specs(run, skipped, wanted=None):
    """(models, features) of a golden run, without what upstream refused, limited to the
    feature names in `wanted` (None: every one)."""
    features = [f for f in run["features"] if f"feature {f}" not in skipped and
                (wanted is None or f.split("=", 1)[0] in wanted)]
    models = [m for m in run["models"] if f"model {m}" not in skipped]
    return models, features
