"""vqx.distributed on a LocalCluster of 2 workers: a manifest of pairs, and each
pair split into segments of 1, 2 and 3 frames, give every per-frame value,
pooled value and output file of a single run, for every feature and model."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import vqx

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed: "
                                  "vqx.distributed is not tested")
import vqx.distributed as vd  # noqa: E402

from conftest import SAMPLE_DIS, SAMPLE_REF, SHARED, golden  # noqa: E402

# Every extractor with its defaults, the temporal ones with every option that
# changes their window, and every model of models/ (the model's features
# with their model options, e.g. vmaf_4k's motion, the v1.0.16 ones' float
# features). enable_apsnr's run-wide aggregates are tested apart: segments
# refuse them.
FEATURES = tuple(f for f in vqx.feature_names() if f not in ("null",)) + (
    "psnr=enable_mse=true",
    "motion=motion_five_frame_window=true",
    "motion=motion_moving_average=true",
    "motion=motion_five_frame_window=true:motion_moving_average=true:debug=true",
    "motion=motion_force_zero=true",
    "float_motion=motion_add_scale1=true:motion_filter_size=3:debug=true",
    "float_motion=motion_add_uv=true:motion_blend_factor=0.5:motion_blend_offset=2",
    "speed_temporal=speed_use_ref_diff=true",
    "adm=adm_csf_mode=1",
    "cambi=full_ref=true",
    "float_ssim=enable_lcs=true",
)
MODEL_NAMES = ("vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg",
               "vmaf_b_v0.6.3", "vmaf_float_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_float_b_v0.6.3",
               "vmaf_float_4k_v0.6.1", "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h",
               "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h",
               "vmaf_v1.0.16_hfr_5d0h", "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h_2160")
MODELS = tuple(f"version={m}:name={m}" for m in MODEL_NAMES)


def _shared_pairs():
    """(id, ref, dis, geometry) of every pair of ../shared's manifest; none without it."""
    path = SHARED / "golden" / "MANIFEST.json"
    if not path.exists():
        return []
    return [p for p in json.loads(path.read_text())["pairs"]]


SHARED_PAIRS = _shared_pairs()


@pytest.fixture(scope="session")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="session")
def pairs(clip_cache):
    """job dicts of every pair: ../shared's clips (unpacked once), else the sample."""
    if not SHARED_PAIRS:
        return {"sample": dict(ref=str(SAMPLE_REF), dis=str(SAMPLE_DIS))}
    jobs = {}
    for p in SHARED_PAIRS:
        ref = golden.unpack(str(SHARED), clip_cache, p["ref"], p["sha256"][p["ref"]])
        dis = golden.unpack(str(SHARED), clip_cache, p["dis"], p["sha256"][p["dis"]])
        jobs[p["id"]] = dict(ref=ref, dis=dis, width=p["width"], height=p["height"],
                             pixel_format=p["pixfmt"], bitdepth=p["bitdepth"])
    return jobs


def _runs_on(job):
    """(options, single run) of every feature and model that runs on this pair: those
    that refuse its input (SpEED's minimum size, say) are left out, as their
    failure names them."""
    features, models = list(FEATURES), list(MODELS)
    while True:
        try:
            return dict(model=tuple(models), features=tuple(features)), \
                vqx.score(**job, model=models, features=features)
        except vqx.Error as e:
            notices = e.result.notices if e.result else []
            refused = [f for f in features if str(e).startswith(f.split("=", 1)[0] + ":")]
            unfed = [m for m in models if f"model '{m.rsplit('name=', 1)[1]}' is not computed"
                     in " ".join(notices)]
            if not refused and not unfed:
                raise
            features = [f for f in features if f not in refused]
            models = [m for m in models if m not in unfed]


@pytest.fixture(scope="session")
def singles(pairs):
    """(options, single run) of every pair with every feature and model that runs on it."""
    return {pid: _runs_on(job) for pid, job in pairs.items()}


def _file_lines(result, tmp_path, fmt):
    """The output file as lines, without the fps (a wall-clock figure)."""
    path = tmp_path / f"out.{fmt}"
    result.write(path, fmt, precision="max")
    return [line for line in path.read_text().splitlines() if "fps" not in line]


def assert_same_run(got, want, tmp_path):
    """Same keys in the same order, the same doubles per frame (NaN equal to
    NaN), the same pooled values, and the same output files."""
    assert got.frame_count == want.frame_count
    assert got.keys == want.keys
    assert got.models == want.models
    compared = 0
    for key in want.keys:
        np.testing.assert_array_equal(got.frames[key], want.frames[key], err_msg=key, strict=True)
        compared += int(np.count_nonzero(~np.isnan(want.frames[key])))
    assert compared > 0
    # as text: NaN equal to NaN, and the keys' order compared too
    assert json.dumps(got.pooled) == json.dumps(want.pooled)
    assert json.dumps(got.aggregate) == json.dumps(want.aggregate)
    assert got.backends == want.backends
    for fmt in ("json", "xml", "csv", "sub"):
        assert _file_lines(got, tmp_path, fmt) == _file_lines(want, tmp_path, fmt), fmt


def test_window_is_the_widest_requested():
    """The window the segments read comes from the extractor table."""
    ctx = vqx._vqx.Context()
    assert ctx.frames_needed() == (0, 0)
    ctx.use_feature("float_motion")
    assert ctx.frames_needed() == (1, 1)
    ctx.use_model("version=vmaf_v0.6.1")
    assert ctx.frames_needed() == (4, 2)


def test_manifest_equals_single_runs(client, pairs, singles, tmp_path):
    """Every pair of the manifest as a task: each Result is its single run's."""
    ids = list(pairs)
    results = vd.score_many(client, [dict(pairs[pid], **singles[pid][0]) for pid in ids])
    assert len(results) == len(ids)
    for pid, result in zip(ids, results):
        assert_same_run(result, singles[pid][1], tmp_path)


@pytest.mark.parametrize("segment_frames", [1, 2, 3])
def test_segments_equal_single_runs(client, pairs, singles, tmp_path, segment_frames):
    """Every pair split into segments: per-frame, pooled and file outputs of a single run."""
    for pid, job in pairs.items():
        job = dict(job)
        options, single = singles[pid]
        result = vd.score_segmented(client, job.pop("ref"), job.pop("dis"),
                                    segment_frames=segment_frames, **job, **options)
        assert_same_run(result, single, tmp_path)


@pytest.mark.parametrize("subsample", [2, 3])
def test_segments_with_subsample_and_frame_range(client, tmp_path, subsample):
    """subsample, frame_skip and frame_cnt: the segments score the single run's frames."""
    options = dict(model=MODELS[:2], features=("psnr", "speed_temporal",
                   "motion=motion_five_frame_window=true:motion_moving_average=true"),
                   subsample=subsample)
    for extra in ({}, dict(frame_skip_ref=1, frame_skip_dist=1, frame_cnt=3)):
        want = vqx.score(SAMPLE_REF, SAMPLE_DIS, **options, **extra)
        for segment_frames in (1, 2):
            got = vd.score_segmented(client, SAMPLE_REF, SAMPLE_DIS, segment_frames=segment_frames,
                                     **options, **extra)
            assert_same_run(got, want, tmp_path)


def test_frame_skip_equals_later_frames():
    """frame_skip_ref/dist: frame 0 of the Result is the first frame after the skip."""
    whole = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=("psnr",), model=())
    skipped = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=("psnr",), model=(), frame_skip_ref=2,
                        frame_skip_dist=2)
    assert skipped.frame_count == whole.frame_count - 2
    np.testing.assert_array_equal(skipped.frames["psnr_y"], whole.frames["psnr_y"][2:])
    with pytest.raises(vqx.InputError, match="fewer than 9 frames to skip"):
        vqx.score(SAMPLE_REF, SAMPLE_DIS, frame_skip_ref=9)


def test_aggregates(client, tmp_path):
    """Run-wide aggregates travel with a pair, and segments refuse them with one message."""
    options = dict(model=(), features=("psnr=enable_apsnr=true",))
    want = vqx.score(SAMPLE_REF, SAMPLE_DIS, **options)
    assert want.aggregate
    got = vd.score_many(client, [dict(ref=str(SAMPLE_REF), dis=str(SAMPLE_DIS), **options)])[0]
    assert_same_run(got, want, tmp_path)
    with pytest.raises(vd.PairError, match="run-wide aggregates .*apsnr_y.* cannot be rebuilt"):
        vd.score_segmented(client, SAMPLE_REF, SAMPLE_DIS, segment_frames=2, retries=0, **options)


def test_failed_pair_is_retried_and_named(client, tmp_path):
    """A pair that fails (a missing file) is reported with its paths and vqx's reason,
    in its place among the others' results."""
    missing = str(tmp_path / "missing.y4m")
    jobs = [dict(ref=str(SAMPLE_REF), dis=str(SAMPLE_DIS), model=(), features=("psnr",)),
            dict(ref=str(SAMPLE_REF), dis=missing, model=(), features=("psnr",))]
    results = vd.score_many(client, jobs, retries=1, errors="return")
    assert isinstance(results[0], vqx.Result) and results[0].frame_count == 5
    err = results[1]
    assert isinstance(err, vd.PairError) and err.dis == missing and missing in str(err)
    assert "No such file" in err.reason or "cannot open" in err.reason
    with pytest.raises(vd.PairError, match="missing.y4m"):
        vd.score_many(client, jobs, retries=0)
    with pytest.raises(vd.PairError, match="missing.y4m"):
        vd.score_segmented(client, SAMPLE_REF, missing, segment_frames=2, retries=0)
    with pytest.raises(vqx.Error, match="unknown options colour"):
        vd.score_many(client, [dict(jobs[0], colour="red")])
    with pytest.raises(vqx.Error, match="segment_frames"):
        vd.score_segmented(client, SAMPLE_REF, SAMPLE_DIS, segment_frames=0)


def test_gpu_workers(monkeypatch):
    """One worker per GPU: each has VQX_GPU and the resource GPU=1; a cuda job
    without a gpu takes its worker's device, and asks for a GPU worker."""
    spec = vd.gpu_worker_spec([0, 1, 3])
    assert [w["options"]["env"]["VQX_GPU"] for w in spec.values()] == ["0", "1", "3"]
    assert all(w["options"]["resources"] == {"GPU": 1} and w["options"]["nthreads"] == 1
               for w in spec.values())
    monkeypatch.setenv("VQX_GPU", "3")
    assert vd._on_worker_gpu({"backend": "cuda"}) == {"backend": "cuda", "gpu": 3}
    assert vd._on_worker_gpu({"backend": "cuda", "gpu": 1}) == {"backend": "cuda", "gpu": 1}
    assert vd._on_worker_gpu({}) == {}

    class Recorder:
        def submit(self, *args, **kwargs):
            self.kwargs = kwargs

    rec = Recorder()
    vd._submit(rec, print, retries=2, options={"backend": "cuda"})
    assert rec.kwargs["resources"] == {"GPU": 1} and rec.kwargs["retries"] == 2
    vd._submit(rec, print, retries=0, options={})
    assert rec.kwargs["resources"] is None


def test_vqx_dask_cli(tmp_path):
    """vqx-dask on a JSON-lines manifest: the CLI's files, a summary, exit 1 for a failed pair."""
    out = tmp_path / "sample.json"
    jobs = [dict(ref=str(SAMPLE_REF), dis=str(SAMPLE_DIS), features=["psnr"], output=str(out)),
            dict(ref=str(SAMPLE_REF), dis=str(tmp_path / "none.y4m"))]
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_text("".join(json.dumps(j) + "\n" for j in jobs))
    summary = tmp_path / "summary.jsonl"
    cmd = [sys.executable, "-m", "vqx.distributed", str(manifest), "--local", "2",
           "--precision", "max", "--summary", str(summary), "--retries", "0", "--no-progress"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "none.y4m" in proc.stderr
    want = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=["psnr"])
    assert _file_lines(want, tmp_path, "json") == \
        [line for line in out.read_text().splitlines() if "fps" not in line]
    lines = [json.loads(line) for line in summary.read_text().splitlines()]
    assert lines[0]["vmaf"] == want.pooled["vmaf"]["mean"] and lines[0]["frames"] == 5
    assert "none.y4m" in lines[1]["dis"] and lines[1]["error"]
