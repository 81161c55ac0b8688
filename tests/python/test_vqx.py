"""The vqx Python package against libvmaf's golden values and the CLI, exactly."""
import json
import os
import subprocess

import numpy as np
import pytest
import vqx

from conftest import (SAMPLE_DIS, SAMPLE_REF, SHARED, assert_frames_equal, assert_matches_cli,
                      assert_results_equal, golden, golden_value, raw_frames, run_cli, run_specs, same)

# companion features compared on the clips of ../shared (the sample gets every one)
COMPANIONS = ("psnr", "float_ssim", "ciede", "psnr_hvs")


def _shared_pair_ids():
    """Every pair of ../shared's manifest (one id, which then skips, without it)."""
    manifest = SHARED / "golden" / "MANIFEST.json"
    if not manifest.exists():
        return ("nf_src01_576x324_3f_420p8",)
    return tuple(p["id"] for p in json.loads(manifest.read_text())["pairs"])


SHARED_PAIRS = _shared_pair_ids()


def sample_run(sample_golden, name):
    run = next(r for r in sample_golden["runs"] if r["name"] == name)
    skipped = {s.get("item", "") for s in run.get("skipped", [])}
    return run, skipped


@pytest.mark.parametrize("name", ["v061_all", "models", "options"])
def test_sample_file_golden(sample_golden, name):
    run, skipped = sample_run(sample_golden, name)
    models, features = run_specs(run, skipped)
    result = vqx.score(SAMPLE_REF, SAMPLE_DIS, model=models, features=features)
    # vqx writes some keys libvmaf computes but does not list; every golden key is there
    assert set(run["per_frame"]) <= set(result.keys)
    assert assert_frames_equal(result, run["per_frame"]) > 0
    assert result.aggregate == run.get("aggregate", {})
    for key, mean in run["pooled_mean"].items():
        assert same(result.pooled[key]["mean"], golden_value(mean)), key


@pytest.mark.parametrize("container", ["uint8", "strided"])
def test_sample_numpy_golden(sample_golden, sample_frames, container):
    run, skipped = sample_run(sample_golden, "v061_all")
    models, features = run_specs(run, skipped)
    ref, dis = sample_frames
    if container == "strided":
        # planes inside wider arrays, every other column, and a flipped copy flipped back
        def strided(frame):
            out = []
            for p in frame:
                wide = np.zeros((p.shape[0], 2 * p.shape[1]), np.uint8)
                wide[:, ::2] = p
                out.append(wide[:, ::2])
            out[0] = np.ascontiguousarray(frame[0][::-1])[::-1]
            return tuple(out)
        ref, dis = [strided(f) for f in ref], [strided(f) for f in dis]
    result = vqx.score(ref, dis, model=models, features=features)
    assert set(run["per_frame"]) <= set(result.keys)
    assert_frames_equal(result, run["per_frame"])
    assert result.aggregate == run.get("aggregate", {})


def test_sample_cli(cli, sample_golden):
    run, skipped = sample_run(sample_golden, "v061_all")
    models, features = run_specs(run, skipped)
    result = vqx.score(SAMPLE_REF, SAMPLE_DIS, model=models, features=features)
    assert_matches_cli(result, run_cli(cli, SAMPLE_REF, SAMPLE_DIS, models, features))


def test_plot_equals_cli(cli, tmp_path):
    features = ("psnr", "cambi")
    result = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=features)
    result.plot(tmp_path / "py.svg")
    cmd = [cli, "-r", str(SAMPLE_REF), "-d", str(SAMPLE_DIS), "--plot", str(tmp_path / "cli.svg"),
           "-q"]
    for spec in features:
        cmd += ["--feature", spec]
    subprocess.run(cmd, check=True)
    svg = (tmp_path / "py.svg").read_bytes()
    assert svg == (tmp_path / "cli.svg").read_bytes()
    assert svg.count(b"<g>") == len([k for k in result.keys if k in result.pooled])


def test_sample_cli_options(cli):
    features = ("float_ssim=enable_lcs=true", "psnr=enable_chroma=false")
    models = ("version=vmaf_v0.6.1:name=x", "version=vmaf_b_v0.6.3")
    result = vqx.score(str(SAMPLE_REF), str(SAMPLE_DIS), model=models, features=features,
                       subsample=2)
    assert_matches_cli(result, run_cli(cli, SAMPLE_REF, SAMPLE_DIS, models, features,
                                       ["--subsample", "2"]))


def test_write_matches_cli(cli, tmp_path):
    features = ("psnr=enable_apsnr=true", "float_ssim")
    result = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=features)
    want = run_cli(cli, SAMPLE_REF, SAMPLE_DIS, ["version=vmaf_v0.6.1"], features)
    result.write(tmp_path / "out.json", precision="max")
    got = json.loads((tmp_path / "out.json").read_text())
    for doc in (got, want):
        doc.pop("fps")
    assert got == want
    for fmt in ("xml", "csv", "sub"):
        result.write(tmp_path / f"out.{fmt}", fmt)
        assert (tmp_path / f"out.{fmt}").stat().st_size > 0


def test_streaming_equals_one_shot(sample_frames):
    features = ("psnr", "float_ssim", "cambi")
    one_shot = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=features)
    with vqx.Scorer(features=features) as scorer:
        for ref, dis in zip(*sample_frames):
            scorer.send(ref, [np.array(p) for p in dis])  # a list of planes is a frame too
        streamed = scorer.flush()
    assert_results_equal(streamed, one_shot)
    assert streamed.models == ["vmaf"]
    assert streamed.backends == {"psnr": "cpu", "float_ssim": "cpu", "cambi": "cpu", "adm": "cpu",
                                 "motion": "cpu", "vif": "cpu"}
    with pytest.raises(vqx.Error, match="flushed"):
        scorer.send(*sample_frames[0][0:2])


def test_threads_change_nothing(sample_frames):
    features = ("psnr", "float_ssim", "float_ms_ssim", "ciede", "speed_temporal")
    base = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=features)
    for threads in (1, 2, 3):
        assert_results_equal(vqx.score(SAMPLE_REF, SAMPLE_DIS, features=features,
                                       threads=threads), base)
    assert_results_equal(vqx.score(*sample_frames, features=features, threads=2), base)


def test_subsample_and_frame_cnt():
    r = vqx.score(SAMPLE_REF, SAMPLE_DIS, features=("psnr",), subsample=2, frame_cnt=4)
    assert r.frame_count == 4
    psnr = r.frames["psnr_y"]
    assert not np.isnan(psnr[0]) and np.isnan(psnr[1]) and not np.isnan(psnr[2])
    assert r.pooled["psnr_y"]["mean"] == (psnr[0] + psnr[2]) / 2


def test_unequal_lengths_notice(sample_frames):
    ref, dis = sample_frames
    r = vqx.score(ref, dis[:3], model=(), features=("psnr",))
    assert r.frame_count == 3
    assert r.notices == ["the distorted frames ended before the reference frames; scored 3 frames"]


def test_nothing_printed(capfd, sample_frames):
    ref, dis = sample_frames
    gray = tuple(np.full_like(p, 128) for p in ref[0])
    # identical flat frames: psnr is capped, cambi sees no banding; notices go to the Result
    r = vqx.score([gray] * 2, [gray] * 2, features=("psnr", "cambi"))
    assert capfd.readouterr() == ("", "")
    assert isinstance(r.notices, list)


def test_uint16(sample_frames):
    """10-bit samples in uint16 planes: the 8-bit sample << 2 (libvmaf's 10-bit golden
    src01 clips are made so), scored at 10 bits."""
    ref, dis = sample_frames
    wide = [[tuple(p.astype(np.uint16) << 2 for p in f) for f in frames] for frames in (ref, dis)]
    r = vqx.score(*wide, bitdepth=10, features=("psnr",), model=())
    assert r.frame_count == 5 and not np.isnan(r.frames["psnr_y"]).any()
    with pytest.raises(vqx.Error, match="bitdepth"):
        vqx.score(*wide, features=("psnr",))


def test_errors(sample_frames, tmp_path):
    ref, dis = sample_frames
    with pytest.raises(vqx.InputError, match="nonexistent.y4m: No such file") as e:
        vqx.score(tmp_path / "nonexistent.y4m", SAMPLE_DIS)
    assert isinstance(e.value, OSError) and isinstance(e.value, ValueError)
    with pytest.raises(vqx.Error, match="unknown model version 'nope'"):
        vqx.score(SAMPLE_REF, SAMPLE_DIS, model="version=nope")
    with pytest.raises(vqx.Error, match="nosuchfeature"):
        vqx.score(SAMPLE_REF, SAMPLE_DIS, features=("nosuchfeature",))
    with pytest.raises(vqx.Error, match="raw input needs all of"):
        vqx.score(SAMPLE_REF, SAMPLE_DIS, width=320)
    with pytest.raises(vqx.Error, match="both be paths"):
        vqx.score(SAMPLE_REF, dis)
    with pytest.raises(vqx.Error, match="unknown backend"):
        vqx.Scorer(backend="gpu")
    with pytest.raises(vqx.Error, match="invalid thread count"):
        vqx.Scorer(threads=-1)
    bad_chroma = (ref[0][0], ref[0][1][:-1], ref[0][2][:-1])
    with pytest.raises(vqx.Error, match="fit no pixel format"):
        vqx.score([bad_chroma], [bad_chroma])
    with pytest.raises(vqx.Error, match="the frames are 320x180, width and height say 320x176"):
        vqx.score([ref[0]], [dis[0]], height=176)
    with pytest.raises(vqx.Error, match="fit no 4:4:4"):
        vqx.score([ref[0]], [dis[0]], pixel_format="444")
    with pytest.raises(vqx.Error, match="plane Y: not 2-D"):
        vqx.score([(ref[0][0].ravel(),)], [(dis[0][0].ravel(),)])
    with pytest.raises(vqx.Error, match="neither uint8 nor uint16"):
        vqx.score([tuple(p.astype(np.float32) for p in ref[0])], [dis[0]])
    with pytest.raises(vqx.Error, match="no frame to score"):
        vqx.score([], [])
    peak = tuple(p.astype(np.uint16) for p in ref[0])
    peak[0][3, 5] = 1024
    with pytest.raises(vqx.Error, match=r"sample \(x 5, y 3\) is 1024, above the 10-bit peak") as e:
        vqx.score([peak] * 2, [peak] * 2, bitdepth=10, model=(), features=("psnr",))
    assert e.value.result.frame_count == 0
    with vqx.Scorer(model=(), features=("psnr",)) as s:
        s.send(ref[0], dis[0])
        with pytest.raises(vqx.Error, match="frame 1: reference picture is 160x90"):
            s.send(tuple(p[::2, ::2] for p in ref[1]), tuple(p[::2, ::2] for p in dis[1]))
        s.send(ref[2], dis[2])
        assert s.flush().frame_count == 2
    truncated = tmp_path / "truncated.y4m"
    truncated.write_bytes(SAMPLE_REF.read_bytes()[:-100])
    with pytest.raises(vqx.InputError, match="truncated") as e:
        vqx.score(truncated, SAMPLE_DIS, features=("psnr",))
    assert e.value.result.frame_count == 4


@pytest.fixture(scope="module")
def shared_pairs(shared_manifest, clip_cache):
    pairs = {p["id"]: p for p in shared_manifest["pairs"]}
    return {pid: pairs[pid] for pid in SHARED_PAIRS if pid in pairs}, shared_manifest


@pytest.mark.parametrize("pair_id", SHARED_PAIRS)
def test_shared_golden(shared_pairs, clip_cache, pair_id):
    pairs, manifest = shared_pairs
    if pair_id not in pairs:
        pytest.skip(f"{pair_id} not in the manifest")
    pair = pairs[pair_id]
    gold = json.loads((SHARED / "golden" / pair["golden"]).read_text())
    run = next(r for r in gold["runs"] if r["name"] == "v061_all")
    skipped = {s.get("item", "") for s in manifest.get("skipped", [])
               if s["pair"] == pair_id and s["run"] == "v061_all"}
    models, features = run_specs(run, skipped, COMPANIONS)
    ref = golden.unpack(str(SHARED), clip_cache, pair["ref"], pair["sha256"][pair["ref"]])
    dis = golden.unpack(str(SHARED), clip_cache, pair["dis"], pair["sha256"][pair["dis"]])
    geometry = dict(width=pair["width"], height=pair["height"], pixel_format=pair["pixfmt"],
                    bitdepth=pair["bitdepth"])

    from_file = vqx.score(ref, dis, model=models, features=features, **geometry)
    assert assert_frames_equal(from_file, run["per_frame"]) > 0
    assert {k: v for k, v in from_file.aggregate.items()} == \
        {k: v for k, v in run.get("aggregate", {}).items() if k in from_file.aggregate}

    frames = [raw_frames(path, pair["width"], pair["height"], pair["pixfmt"], pair["bitdepth"])
              for path in (ref, dis)]
    bitdepth = None if pair["bitdepth"] == 8 else pair["bitdepth"]
    from_numpy = vqx.score(*frames, model=models, features=features, bitdepth=bitdepth, threads=2)
    assert_results_equal(from_numpy, from_file)

    cli = os.environ.get("VQX_CLI")
    if cli:
        raw = ["-w", str(pair["width"]), "-h", str(pair["height"]), "-p", pair["pixfmt"],
               "-b", str(pair["bitdepth"])]
        assert_matches_cli(from_file, run_cli(cli, ref, dis, models, features, raw))


def _layout_frames(frame, layout):
    """A sample frame as another layout or size: chroma rows or columns repeated, or cropped."""
    y, u, v = frame
    if layout == "420 odd":
        return (y[:179, :319], u[:90, :160], v[:90, :160])
    if layout == "422":
        return (y, np.repeat(u, 2, axis=0), np.repeat(v, 2, axis=0))
    if layout == "444":
        return (y,) + tuple(np.repeat(np.repeat(p, 2, axis=0), 2, axis=1) for p in (u, v))
    return (y,)


@pytest.mark.parametrize("layout", ["420 odd", "422", "444", "400"])
def test_layouts_file_equals_numpy(sample_frames, tmp_path, layout):
    frames = [[_layout_frames(f, layout) for f in side] for side in sample_frames]
    paths = [tmp_path / "ref.yuv", tmp_path / "dis.yuv"]
    for path, side in zip(paths, frames):
        path.write_bytes(b"".join(np.ascontiguousarray(p).tobytes() for f in side for p in f))
    h, w = frames[0][0][0].shape
    pixfmt = layout.split()[0]
    features = ("psnr", "float_ssim")
    from_file = vqx.score(*paths, features=features, width=w, height=h, pixel_format=pixfmt,
                          bitdepth=8)
    from_numpy = vqx.score(*frames, features=features, pixel_format=pixfmt)
    assert_results_equal(from_numpy, from_file)
    assert from_numpy.notices == from_file.notices
    assert "vmaf" in from_file.keys and from_file.frame_count == 5
    cli = os.environ.get("VQX_CLI")
    if cli:
        raw = ["-w", str(w), "-h", str(h), "-p", pixfmt, "-b", "8"]
        assert_matches_cli(from_file, run_cli(cli, *paths, ["version=vmaf_v0.6.1"], features, raw))


def test_buffer_protocol_without_numpy_arrays(sample_frames):
    """Planes as plain 2-D memoryviews over bytes give the numpy planes' values."""
    as_views = [[tuple(memoryview(p.tobytes()).cast("B", p.shape) for p in f) for f in side]
                for side in sample_frames]
    features = ("psnr", "float_ssim")
    assert_results_equal(vqx.score(*as_views, features=features),
                         vqx.score(*sample_frames, features=features))
