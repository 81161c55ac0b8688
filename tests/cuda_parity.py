#!/usr/bin/env python3
"""Parity of the device twins (--backend cuda or vulkan) with the CPU
extractors, at zero difference.

Runs the vqx CLI twice on each input, with --backend cpu and with
--backend BACKEND --strict_backend (every feature on its twin, or failure), at
--precision max, and compares every per-frame value, every pooled value and
every aggregate as doubles (NaN equal to NaN). Inputs: every clip pair of
../shared (unpacked into a cache folder), and generated ones: full-range
random planes at 8, 10, 12 and 16 bits, noisy copies, flat planes, every
chroma format, odd sizes, the smallest frames each feature accepts, and
3840x2160. Each input runs with every twin at default options (VMAF's model
included) and with their other options, where its size suits them; the
vmaf_v1.0.16 models run on the inputs large enough for cambi and SpEED (all
eight, or those whose SpEED prescale the chroma planes allow).
Then cambi's failure on luma above the peak must read the same on both
backends, and its heatmap files must be equal.

The Vulkan backend has twins of psnr, motion and adm so far: with --backend
vulkan every input runs the VULKAN_SETS instead, and --skip-large leaves out
the 3840x2160 inputs (lavapipe, Vulkan on the CPU, in CI).

Prints one line per run and a table; exits 0 when nothing differs, 1 on
any difference, 77 (meson's skip) without a device, unless
VQX_REQUIRE_VULKAN is set for --backend vulkan.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import unpack, raw_args  # noqa: E402

DEFAULTS = ["psnr=enable_mse=true:enable_apsnr=true", "motion=debug=true", "vif=debug=true",
            "adm=debug=true"]
OPTIONS = [
    "psnr=enable_chroma=false:reduced_hbd_peak=true:min_sse=0.5",
    "motion=motion_five_frame_window=true:motion_moving_average=true:motion_max_val=18"
    ":motion_blend_factor=0.5:motion_blend_offset=3:motion_fps_weight=2",
    "motion=motion_force_zero=true",
    "vif=vif_enhn_gain_limit=1.0:vif_skip_scale0=true",
    "adm=adm_csf_mode=1:adm_csf_scale=2:adm_csf_diag_scale=0.5",
    "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5"
    ":adm_noise_weight=0.02",
    "adm=adm_csf_mode=3:adm_norm_view_dist=5",
    "adm=adm_skip_aim=true:adm_skip_scale0=true:adm_ref_display_height=2160",
]
SPEED = ["speed_chroma", "speed_temporal"]
SPEED_OPTIONS = [
    "speed_chroma=speed_kernelscale=2:speed_weight_var_mode=3:speed_sigma_nn=0.5"
    ":speed_nn_floor=0.1:speed_max_val=10",
    "speed_chroma=speed_prescale=1.5:speed_prescale_method=bilinear:speed_weight_var_mode=1",
    "speed_chroma=speed_prescale=0.75:speed_prescale_method=bicubic:speed_weight_var_mode=5",
    "speed_chroma=speed_kernelscale=0.5:speed_prescale=2:speed_prescale_method=lanczos4"
    ":speed_weight_var_mode=6",
    "speed_chroma=speed_weight_var_mode=2:speed_kernelscale=1.5",
    "speed_chroma=speed_weight_var_mode=4:speed_prescale=1.0005",
    "speed_temporal=speed_use_ref_diff=true:speed_kernelscale=0.5",
    "speed_temporal=speed_prescale=0.5:speed_prescale_method=nearest:speed_sigma_nn=1.5",
    "speed_temporal=speed_prescale=1.25:speed_prescale_method=lanczos4:speed_nn_floor=0.5",
    "speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45",
    "speed_chroma=speed_prescale=0.6:speed_prescale_method=bilinear:speed_weight_var_mode=2",
    "speed_chroma=speed_prescale=0.7:speed_prescale_method=lanczos4:speed_weight_var_mode=4",
    "speed_chroma=speed_prescale=2.0:speed_prescale_method=nearest:speed_max_val=3",
    "speed_chroma=speed_prescale=1.0004:speed_kernelscale=3.0",
    "speed_temporal=speed_prescale=0.8:speed_prescale_method=bicubic:speed_max_val=1",
    "speed_temporal=speed_kernelscale=1.5:speed_prescale=0.6:speed_prescale_method=bilinear",
]
FLOAT = ["float_psnr", "float_moment", "float_ansnr", "float_motion"]
FLOAT_VIF = ["float_vif=debug=true"]
FLOAT_VIF_OPTIONS = [
    "float_vif=vif_enhn_gain_limit=1.0:vif_sigma_nsq=0.5:debug=true",
    "float_vif=vif_kernelscale=0.5:vif_skip_scale0=true:vif_scale1_min_val=0.2",
]
# every method, enlarging and shrinking (0.5 the smallest: "applies")
FLOAT_VIF_PRESCALE = [
    "float_vif=vif_prescale=2.0:vif_prescale_method=nearest",
    "float_vif=vif_prescale=0.5:vif_prescale_method=nearest:debug=true",
    "float_vif=vif_prescale=1.5:vif_prescale_method=bilinear",
    "float_vif=vif_prescale=0.7:vif_prescale_method=bilinear:debug=true",
    "float_vif=vif_prescale=1.25:vif_prescale_method=bicubic",
    "float_vif=vif_prescale=0.6:vif_prescale_method=bicubic:vif_kernelscale=0.5",
    "float_vif=vif_prescale=1.37:vif_prescale_method=lanczos4:debug=true",
    "float_vif=vif_prescale=0.5:vif_prescale_method=lanczos4:vif_skip_scale0=true",
]
FLOAT_ADM = ["float_adm=debug=true"]
FLOAT_ADM_OPTIONS = [
    "float_adm=adm_enhn_gain_limit=1.0:adm_csf_mode=1:adm_skip_scale0=true:debug=true",
    "float_adm=adm_bypass_cm=1:adm_adm3_apply_hm=1:adm_skip_aim_scale=2:adm_noise_weight=0.05"
    ":adm_csf_mode=2",
]
FLOAT_OPTIONS = [
    "float_motion=motion_add_scale1=true:motion_add_uv=true:motion_fps_weight=2",
    "float_motion=motion_filter_size=3:motion_blend_factor=0.5:motion_blend_offset=3"
    ":motion_max_val=18",
    "float_motion=motion_filter_size=1:motion_add_scale1=true:debug=false",
    "float_motion=motion_force_zero=true",
]
SSIMULACRA2 = ["ssimulacra2"]
PSNR_HVS = ["psnr_hvs"]
# One instance a run: ssimulacra2's key carries no option suffix.
SSIMULACRA2_OPTIONS = ["ssimulacra2=matrix=bt2020:range=full", "ssimulacra2=matrix=bt601"]
# float_ssim's options keep its key names: one instance a run (float_ms_ssim alike)
SSIM_SETS = {
    "ssim": ["float_ssim", "float_ms_ssim"],
    "ssim lcs": ["float_ssim=enable_lcs=true", "float_ms_ssim=enable_lcs=true"],
    "ssim options 1": ["float_ssim=scale=3:enable_lcs=true:enable_db=true",
                       "float_ms_ssim=enable_db=true:clip_db=true:enable_lcs=true"],
    "ssim options 2": ["float_ssim=scale=10:enable_lcs=true", "float_ms_ssim=enable_db=true"],
    # below float_ms_ssim's 176x176
    "float_ssim": ["float_ssim"],
    "float_ssim lcs": ["float_ssim=enable_lcs=true"],
    "float_ssim options": ["float_ssim=scale=1:enable_db=true:clip_db=true"],
}
CAMBI = ["cambi=full_ref=true"]  # cambi's own key and the full-reference ones
# One instance with full_ref a run: its cambi_source and cambi_full_reference
# keys carry no option suffix, so two would collide (refused).
CAMBI_OPTIONS = [
    "cambi=full_ref=true:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06"
    ":cambi_max_val=17",
    "cambi=max_log_contrast=5:eotf=pq:tvi_threshold=0.05",
    "cambi=max_log_contrast=0:topk=0.2:window_size=45",
    "cambi=enc_bitdepth=8:cambi_topk=0.9:window_size=63",
    "cambi=enc_width=240:enc_height=180:enc_bitdepth=10",
    "cambi=cambi_high_res_speedup=1440:cambi_eotf=pq:topk=0.0001",
    "cambi=max_log_contrast=0:topk=0.1",
    "cambi=max_log_contrast=5:eotf=pq:cambi_topk=1.0",
    "cambi=cambi_eotf=pq:tvi_threshold=0.0001",
    "cambi=enc_bitdepth=8:window_size=15",
    "cambi=enc_bitdepth=16:max_log_contrast=3:cambi_vis_lum_threshold=20",
    "cambi=cambi_high_res_speedup=2160",
]
# the other full_ref variants, one a run, on the inputs of FULL_REF_INPUTS
CAMBI_FULL_REF = [
    "cambi=full_ref=true:src_width=320:src_height=240:topk=1",
    "cambi=tvi_threshold=1.0:cambi_max_val=0.5:full_ref=true",
    "cambi=full_ref=true:enc_width=1920:enc_height=1080",
    "cambi=full_ref=true:enc_width=220:enc_height=200:src_width=320:src_height=240",
]
FULL_REF_INPUTS = ("deb_cockatoo_x264_150k_1280x720_8f_420p8", "nf_src01_576x324_3f_420p10le",
                   "ramp 10-bit odd", "ramp 8-bit 16x216", "banded ramp 8-bit 3840x2160")
# The Vulkan twins' features, at their defaults and with their other options.
VULKAN_SETS = {"vulkan": (["psnr=enable_mse=true:enable_apsnr=true", "motion=debug=true"], []),
               "vulkan adm": (["adm=debug=true"], []),
               "vulkan vif": (["vif=debug=true"], []),
               "vulkan vif gain": (["vif=debug=true:vif_enhn_gain_limit=1.2"], []),
               "vulkan model": ([], ["version=vmaf_v0.6.1"]),
               **{f"vulkan options {i + 1}": ([o], []) for i, o in enumerate(
                   o for o in OPTIONS if o.startswith(("psnr", "motion", "adm", "vif")))},
               "cambi": (CAMBI, []), "cambi options": (CAMBI_OPTIONS, []),
               **{f"cambi full_ref {i + 1}": ([o], []) for i, o in enumerate(CAMBI_FULL_REF)}}
# the smallest frame side each Vulkan twin takes: motion's blur, vif's scale 3, adm's 4-level DWT
VULKAN_MIN_SIDE = {"motion": 3, "vif": 16, "adm": 33}


def v1_models(*names):
    return [f"version=vmaf_v1.0.16_{m}:name=vmaf_{m}" for m in names]


# speed_chroma: no prescale in these, 0.6 in _5d0h, 0.5 in _3d0h_2160
V1_UNSCALED = ("3d0h", "1d5h_2160", "hfr_3d0h", "hfr_1d5h_2160")
V1_MODELS = v1_models(*V1_UNSCALED, "5d0h", "hfr_5d0h", "3d0h_2160", "hfr_3d0h_2160")
SETS = {"defaults": (DEFAULTS, ["version=vmaf_v0.6.1"]), "options": (OPTIONS, []),
        "float": (FLOAT, []), "float options": (FLOAT_OPTIONS, []),
        "float vif": (FLOAT_VIF, []), "float vif options": (FLOAT_VIF_OPTIONS, []),
        "float vif prescale": (FLOAT_VIF_PRESCALE, []),
        "float adm": (FLOAT_ADM, []), "float adm options": (FLOAT_ADM_OPTIONS, []),
        "float model": ([], ["version=vmaf_float_v0.6.1"]),
        "speed": (SPEED, []), "speed options": (SPEED_OPTIONS, []),
        "speed temporal": (["speed_temporal"], []),
        "ssimulacra2": (SSIMULACRA2, []),
        **{k: (v, []) for k, v in SSIM_SETS.items()},
        "psnr_hvs": (PSNR_HVS, []),
        **{f"ssimulacra2 options {i + 1}": ([o], []) for i, o in enumerate(SSIMULACRA2_OPTIONS)},
        "cambi": (CAMBI, []), "cambi options": (CAMBI_OPTIONS, []),
        **{f"cambi full_ref {i + 1}": ([o], []) for i, o in enumerate(CAMBI_FULL_REF)},
        "v1 models": ([], V1_MODELS),
        # where a prescale leaves the chroma below 80x80, the models that run there
        "v1 models unscaled": ([], v1_models(*V1_UNSCALED)),
        "v1 models 0.6": ([], v1_models("5d0h", "hfr_5d0h"))}


def chroma_size(w, h, fmt):
    if fmt == "400":
        return 0, 0
    return ((w + 1) // 2 if fmt in ("420", "422") else w,
            (h + 1) // 2 if fmt == "420" else h)


def applies(set_name, w, h, fmt):
    """Whether every feature of the set accepts frames of this size: speed
    needs planes of 80x80 (160x160 with prescales of 0.5, which the options
    and some v1 models use), cambi a side of 216; the others run everywhere
    (the small sets aside)."""
    cw, ch = chroma_size(w, h, fmt)
    speed_ok = min(cw, ch) >= 80 and min(w, h) >= 80
    if set_name.startswith("ssimulacra2"):  # needs chroma, and 8x8 (libjxl's minimum)
        return fmt != "400" and min(w, h) >= 8
    if set_name.startswith("ssim"):  # float_ms_ssim's five scales
        return min(w, h) >= 176
    if set_name == "float_ssim options":  # no decimation: the SSIM window
        return min(w, h) >= 11
    if set_name.startswith("float_ssim"):  # where float_ms_ssim does not run
        return 11 <= min(w, h) < 176
    if set_name == "psnr_hvs":  # needs chroma, and one 8x8 block in every plane
        return fmt != "400" and min(w, h, cw, ch) >= 8
    if set_name == "float vif prescale":  # the sides of 16 after a prescale of 0.5
        return int(min(w, h) * 0.5 + 0.5) >= 16
    if set_name.startswith("float vif"):  # scale 3 of the 17-tap filter: sides of 16
        return min(w, h) >= 16
    if set_name.startswith("float adm") or set_name == "float model":  # the 4-level DWT
        return min(w, h) >= 17
    if set_name == "float options":  # motion_add_uv: chroma planes of 3x3
        return fmt != "400" and min(cw, ch) >= 3
    if set_name == "speed":
        return speed_ok
    if set_name == "speed temporal":  # alone: 4:0:0 has no chroma for speed_chroma
        return fmt == "400" and min(w, h) >= 80
    if set_name == "speed options":
        return min(cw, ch) >= 160 and min(w, h) >= 160
    if set_name == "cambi":
        return max(w, h) >= 216
    if set_name == "cambi options":
        return max(w, h) >= 320
    if set_name == "v1 models":  # some prescale speed_chroma by 0.5
        return min(cw, ch) >= 160 and max(w, h) >= 216
    if set_name == "v1 models unscaled":
        return speed_ok and min(cw, ch) < 160 and max(w, h) >= 216
    if set_name == "v1 models 0.6":
        return int(min(cw, ch) * 0.6 + 0.5) >= 80 and min(cw, ch) < 160 and max(w, h) >= 216
    return True


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) and math.isnan(b):
            return True
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def run_vqx(vqx, inp, features, models, backend, extra, out):
    cmd = [vqx] + inp + ["--json", "--precision", "max", "-o", out, "-q"] + extra
    for f in features:
        cmd += ["--feature", f]
    for m in models:
        cmd += ["-m", m]
    if not models:
        cmd.append("-n")
    if backend != "cpu":
        cmd += ["--backend", backend, "--strict_backend"]
    else:
        cmd += ["--threads", str(min(os.cpu_count() or 1, 16))]
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc, cmd, time.time() - t0


def compare(cpu, gpu, device):
    """(values compared, differences, first difference)"""
    n = diff = 0
    first = ""
    if len(cpu["frames"]) != len(gpu["frames"]):
        return 0, 1, f"{len(cpu['frames'])} frames on the cpu, {len(gpu['frames'])} on {device}"
    for fc, fg in zip(cpu["frames"], gpu["frames"]):
        mc, mg = fc["metrics"], fg["metrics"]
        for key in sorted(set(mc) | set(mg)):
            n += 1
            if not same(mc.get(key, "absent"), mg.get(key, "absent")):
                diff += 1
                first = first or (f"frame {fc['frameNum']} {key}: cpu {mc.get(key)!r} "
                                  f"{device} {mg.get(key)!r}")
    for section in ("pooled_metrics", "aggregate_metrics"):
        flat_c = json.dumps(cpu[section], sort_keys=True)
        flat_g = json.dumps(gpu[section], sort_keys=True)
        n += 1
        if flat_c != flat_g:
            diff += 1
            first = first or f"{section} differ"
    for name, backend in gpu.get("backends", {}).items():
        if backend != device:
            diff += 1
            first = first or f"{name} ran on {backend}"
    return n, diff, first


# ---- generated inputs ----

def samples(n, bpc, kind, seed_bytes=None):
    """n samples as bytes: random full range, flat, or given."""
    bps = 1 if bpc == 8 else 2
    if kind == "random":
        b = bytearray(os.urandom(n * bps))
        if bps == 2 and bpc < 16:
            mask = (1 << (bpc - 8)) - 1
            b[1::2] = b[1::2].translate(bytes(i & mask for i in range(256)))
        return bytes(b)
    value = kind
    return value.to_bytes(bps, "little") * n


def noisy(data, bpc):
    """data with the two low bits of every sample flipped at random."""
    bps = 1 if bpc == 8 else 2
    noise = bytearray(os.urandom(len(data)))
    noise = noise.translate(bytes(i & 3 for i in range(256)))
    if bps == 2:
        noise[1::2] = bytes(len(noise) // 2)
    x = int.from_bytes(data, "little") ^ int.from_bytes(noise, "little")
    return x.to_bytes(len(data), "little")


def plane_sizes(w, h, fmt):
    if fmt == "400":
        return [(w, h)]
    cw = (w + 1) // 2 if fmt in ("420", "422") else w
    ch = (h + 1) // 2 if fmt == "420" else h
    return [(w, h), (cw, ch), (cw, ch)]


def ramp(pw, ph, bpc, frame, levels):
    """A horizontal ramp over `levels` code values of the 8-bit scale, moving
    with the frame: wide flat bands, the worst case of banding."""
    bps = 1 if bpc == 8 else 2
    row = b"".join(((64 + (x + 7 * frame) * levels // pw) << (bpc - 8)).to_bytes(bps, "little")
                   for x in range(pw))
    return row * ph


def write_clip(path, w, h, fmt, bpc, frames, kind):
    """kind: 'random', 'noisy' (the reference at path.ref, plus noise),
    'ramp' / 'coarse ramp' (luma; flat chroma), a flat value, or a list of
    such kinds, one per plane."""
    bps = 1 if bpc == 8 else 2
    kinds = kind if isinstance(kind, list) else [kind] * 3
    with open(path, "wb") as f:
        ref = open(path[:-len(".dis.yuv")] + ".ref.yuv", "rb") if "noisy" in kinds else None
        for frame in range(frames):
            for p, (pw, ph) in enumerate(plane_sizes(w, h, fmt)):
                n = pw * ph
                k = kinds[p]
                if ref:
                    data = ref.read(n * bps)
                    f.write(noisy(data, bpc) if k == "noisy" else data)
                elif k in ("ramp", "coarse ramp"):
                    f.write(ramp(pw, ph, bpc, frame, 40 if k == "ramp" else 20) if p == 0 else
                            samples(n, bpc, 128 << (bpc - 8)))
                else:
                    f.write(samples(n, bpc, k))
        if ref:
            ref.close()


GENERATED = [
    # name, w, h, fmt, bpc, frames, ref kind, dis kind, feature sets (None: every
    # set that applies to the size)
    ("random 8-bit", 176, 144, "420", 8, 5, "random", "random", None),
    ("random 10-bit", 176, 144, "420", 10, 5, "random", "random", None),
    ("random 12-bit", 176, 144, "420", 12, 5, "random", "random", None),
    ("random 16-bit", 176, 144, "420", 16, 5, "random", "random", None),
    ("noisy 8-bit", 176, 144, "420", 8, 5, "random", "noisy", None),
    ("noisy 10-bit 4:2:2 odd", 101, 67, "422", 10, 5, "random", "noisy", None),
    ("noisy 12-bit 4:4:4 odd", 97, 53, "444", 12, 4, "random", "noisy", None),
    ("noisy 16-bit 4:0:0", 80, 60, "400", 16, 4, "random", "noisy", None),
    ("random 8-bit 4:2:0 odd", 65, 49, "420", 8, 4, "random", "random", None),
    ("flat equal 8-bit", 64, 48, "420", 8, 3, 128, 128, None),
    ("flat 0 vs max 10-bit", 64, 48, "420", 10, 3, 0, 1023, None),
    ("flat 0 vs max 16-bit", 64, 48, "444", 16, 3, 0, 65535, None),
    ("smallest for adm 33x33", 33, 33, "420", 8, 4, "random", "noisy", None),
    ("smallest for vif 16x16", 16, 16, "420", 10, 4, "random", "noisy", "small16"),
    ("smallest for motion 3x3", 3, 3, "420", 8, 4, "random", "random", "small3"),
    # ssimulacra2's smallest: 9x8 is also scored at 5x4, 8x8 at 4x4
    ("smallest for ssimulacra2 9x8", 9, 8, "420", 8, 3, "random", "noisy", "ssimulacra2"),
    ("smallest for ssimulacra2 8x8 4:4:4", 8, 8, "444", 16, 3, "random", "noisy",
     "ssimulacra2"),
    ("ssimulacra2 4:2:2 odd 13x17", 13, 17, "422", 12, 3, "random", "random", "ssimulacra2"),
    # float_ssim's smallest (11x11), float_ms_ssim's (176x176), odd sizes, and
    # float_ssim's automatic factor 2 on odd sizes
    ("smallest for float_ssim 11x11", 11, 11, "400", 12, 3, "random", "noisy", "ssim all"),
    ("smallest for float_ms_ssim 176x176", 176, 176, "420", 16, 3, "random", "noisy",
     "ssim all"),
    ("float_ms_ssim 4:2:2 odd 177x183", 177, 183, "422", 10, 3, "random", "noisy", "ssim all"),
    ("float_ssim factor 2 odd 641x387", 641, 387, "420", 8, 3, "random", "noisy", "ssim all"),
    # psnr_hvs's smallest: one 8x8 block per plane (4:2:0 chroma of 15x15 is 8x8)
    ("smallest for psnr_hvs 15x15", 15, 15, "420", 8, 3, "random", "noisy", "psnr_hvs"),
    ("psnr_hvs 4:2:2 odd 15x23", 15, 23, "422", 16, 3, "random", "noisy", "psnr_hvs"),
    ("psnr_hvs 4:4:4 8x8", 8, 8, "444", 12, 3, "random", "random", "psnr_hvs"),
    ("3840x2160 8-bit", 3840, 2160, "420", 8, 4, "random", "noisy", None),
    ("3840x2160 10-bit", 3840, 2160, "420", 10, 3, "random", "noisy", "defaults"),
    # squared errors whose sum outgrows the device's exact integers
    ("flat 0 vs max 16-bit 3840x2160", 3840, 2160, "400", 16, 2, 0, 65535, "float"),
    # sizes for speed (planes of 80x80 or more) and cambi (a side of 216)
    ("random 8-bit 352x328", 352, 328, "420", 8, 4, "random", "random", None),
    ("random 10-bit 352x328", 352, 328, "420", 10, 4, "random", "random", None),
    ("random 12-bit 336x336", 336, 336, "420", 12, 3, "random", "random", None),
    ("random 16-bit 352x328", 352, 328, "420", 16, 3, "random", "random", None),
    ("noisy 10-bit 4:2:2 odd 227x181", 227, 181, "422", 10, 4, "random", "noisy", None),
    ("noisy 12-bit 4:4:4 odd 221x163", 221, 163, "444", 12, 3, "random", "noisy", None),
    ("noisy 8-bit 4:0:0 240x216", 240, 216, "400", 8, 3, "random", "noisy", None),
    ("flat equal 8-bit 224x176", 224, 176, "420", 8, 3, 128, 128, None),
    ("flat 0 vs max 10-bit 224x176", 224, 176, "420", 10, 3, 0, 1023, None),
    ("one flat chroma in both 8-bit 352x328", 352, 328, "420", 8, 3,
     ["random", 128, "random"], ["random", 128, "random"], None),
    ("one flat chroma in ref 10-bit 352x328", 352, 328, "420", 10, 3,
     ["random", 512, "random"], "random", None),
    ("smallest for speed 160x160", 160, 160, "420", 8, 4, "random", "noisy", "speed"),
    ("smallest for speed 159x159", 159, 159, "420", 10, 4, "random", "noisy", "speed"),
    ("smallest for speed_temporal 80x80 4:0:0", 80, 80, "400", 12, 4, "random", "noisy",
     "speed temporal"),
    ("smallest for cambi 216x1", 216, 1, "420", 8, 3, "random", "noisy", "cambi"),
    ("smallest for cambi 1x216", 1, 216, "420", 10, 3, "random", "noisy", "cambi"),
    ("ramp 10-bit odd 241x217", 241, 217, "420", 10, 3, "ramp", "noisy", "cambi all"),
    ("ramp 12-bit 216x150", 216, 150, "420", 12, 3, "ramp", "coarse ramp", "cambi all"),
    ("ramp 16-bit 320x240", 320, 240, "420", 16, 3, "ramp", "noisy", "cambi all"),
    ("ramp 8-bit 216x16", 216, 16, "420", 8, 3, "ramp", "coarse ramp", "cambi all"),
    ("ramp 8-bit 16x216", 16, 216, "420", 8, 3, "ramp", "noisy", "cambi all"),
    ("banded ramp 8-bit 3840x2160", 3840, 2160, "420", 8, 3, "ramp", "coarse ramp", "v1"),
    ("noisy ramp 10-bit 3840x2160", 3840, 2160, "420", 10, 2, "ramp", "noisy", "v1"),
    ("banded ramp 10-bit 1920x1080", 1920, 1080, "420", 10, 3, "ramp", "coarse ramp", "v1"),
    ("banded ramp 8-bit 1280x720", 1280, 720, "420", 8, 3, "ramp", "coarse ramp", "v1"),
]
# the banded ramps: the features of the v1 models, with every set of cambi
V1_SETS = ("cambi", "cambi options", "v1 models")
CAMBI_SETS = ("cambi", "cambi options")
SMALL = {"small16": (["psnr=enable_mse=true", "motion=debug=true", "vif=debug=true"] + FLOAT +
                     FLOAT_VIF + ["float_ssim=enable_lcs=true"], []),
         "small3": (["psnr=enable_mse=true", "motion=debug=true",
                     "motion=motion_five_frame_window=true"] + FLOAT, [])}


def above_peak_clip(path, w, h, frames, bad_frame):
    """10-bit 4:2:0 ramps with one luma sample of 1100 in frame bad_frame."""
    with open(path, "wb") as f:
        for frame in range(frames):
            luma = bytearray(ramp(w, h, 10, frame, 40))
            if frame == bad_frame:
                at = 2 * (w * (h // 2) + w // 2)
                luma[at:at + 2] = (1100).to_bytes(2, "little")
            f.write(bytes(luma))
            cw, ch = chroma_size(w, h, "420")
            f.write(samples(2 * cw * ch, 10, 512))


def extra_checks(vqx, tmp):
    """Cambi's failures on luma above the bit depth's peak, and float_vif's
    on frames too small after vif_prescale, must read the same on both
    backends, and cambi's heatmap files must be equal. Yields (name,
    difference or "")."""
    w, h = 320, 240
    geometry = ["-w", str(w), "-h", str(h), "-p", "420", "-b", "10"]
    good, bad = os.path.join(tmp, "peak-good.yuv"), os.path.join(tmp, "peak-bad.yuv")
    above_peak_clip(good, w, h, 3, -1)
    above_peak_clip(bad, w, h, 3, 1)
    for name, ref, dis, feature in (("cambi above peak in dis", good, bad, "cambi"),
                                    ("cambi above peak in ref, full_ref", bad, good,
                                     "cambi=full_ref=true")):
        seen = {}
        for backend in ("cpu", "cuda"):
            proc, _, _ = run_vqx(vqx, ["-r", ref, "-d", dis] + geometry, [feature], [], backend,
                                 [], os.path.join(tmp, "peak.json"))
            seen[backend] = (proc.returncode, proc.stderr.strip())
        diff = "" if seen["cpu"] == seen["cuda"] and seen["cpu"][0] else \
            f"cpu {seen['cpu']} cuda {seen['cuda']}"
        yield name, diff
    # 40x40 shrunk by 0.3 is 12x12: scale 3 of the 17-tap filter needs 16
    for name, option, size in (
            ("float_vif too small after vif_prescale", "vif_prescale=0.3", 40),
            ("float_vif vif_prescale on a frame below 8x8",
             "vif_prescale=4.0:vif_kernelscale=0.5", 7)):
        small = ["-w", str(size), "-h", str(size), "-p", "420", "-b", "10"]
        seen = {}
        for backend in ("cpu", "cuda"):
            proc, _, _ = run_vqx(vqx, ["-r", good, "-d", good] + small,
                                 ["float_vif=" + option], [], backend, [],
                                 os.path.join(tmp, "small.json"))
            seen[backend] = (proc.returncode, proc.stderr.strip())
        diff = "" if seen["cpu"] == seen["cuda"] and seen["cpu"][0] else \
            f"cpu {seen['cpu']} cuda {seen['cuda']}"
        yield name, diff
    files = {}
    for backend in ("cpu", "cuda"):
        folder = os.path.join(tmp, "heatmaps-" + backend)
        proc, _, _ = run_vqx(vqx, ["-r", good, "-d", good] + geometry,
                             ["cambi=heatmaps_path=" + folder], [], backend, [],
                             os.path.join(tmp, "heat.json"))
        files[backend] = {n: open(os.path.join(folder, n), "rb").read()
                          for n in sorted(os.listdir(folder))} if proc.returncode == 0 else None
    same_files = files["cpu"] and files["cpu"] == files["cuda"]
    yield "cambi heatmaps", "" if same_files else \
        f"files differ: {sorted(files['cpu'] or [])} vs {sorted(files['cuda'] or [])}"


def wanted(set_name, sets):
    """Whether --sets asks for this set: each comma-separated part names a
    set exactly, or, when no set has that name, the sets containing it."""
    for part in sets.split(","):
        if part == set_name or (part not in SETS and part not in VULKAN_SETS and part in set_name):
            return True
    return False


def device_present(vqx, tmp, backend):
    path = os.path.join(tmp, "probe.yuv")
    with open(path, "wb") as f:
        f.write(bytes(16 * 16 * 3 // 2))
    proc = subprocess.run([vqx, "-r", path, "-d", path, "-w", "16", "-h", "16", "-p", "420",
                           "-b", "8", "-n", "--feature", "psnr", "--backend", backend, "-q"],
                          capture_output=True, text=True)
    return proc.returncode == 0, proc.stderr.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vqx", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--tmp", default=tempfile.gettempdir())
    ap.add_argument("--only", default="", help="run only inputs whose name contains this")
    ap.add_argument("--sets", default="",
                    help="run only these feature sets (comma-separated: a set's name, or a part "
                         "of the names of several)")
    ap.add_argument("--inputs", default=os.environ.get("VQX_PARITY_INPUTS", ""),
                    help="run only these inputs (comma-separated names; default: all, or "
                         "$VQX_PARITY_INPUTS)")
    ap.add_argument("--backend", default="cuda", choices=("cuda", "vulkan"))
    ap.add_argument("--skip-large", action="store_true", help="leave out the 3840x2160 inputs")
    args = ap.parse_args()
    device = args.backend

    tmp = tempfile.mkdtemp(dir=args.tmp, prefix="vqx-parity-")
    ok, why = device_present(args.vqx, tmp, device)
    if not ok:
        if device == "vulkan" and os.environ.get("VQX_REQUIRE_VULKAN"):
            print(f"FAIL: no Vulkan device ({why}), and VQX_REQUIRE_VULKAN is set")
            return 1
        print(f"SKIP: no {device} device ({why})")
        return 77

    inputs = []  # (name, argv, sets)
    manifest_path = os.path.join(args.shared, "golden", "MANIFEST.json")
    if os.path.exists(manifest_path):
        manifest = json.load(open(manifest_path))
        for pair in manifest["pairs"]:
            sha = pair["sha256"]
            ref = unpack(args.shared, args.cache, pair["ref"], sha[pair["ref"]])
            dis = unpack(args.shared, args.cache, pair["dis"], sha[pair["dis"]])
            inputs.append((pair["id"], ["-r", ref, "-d", dis] + raw_args(pair), None,
                           (pair["width"], pair["height"], pair["pixfmt"])))
    else:
        print(f"note: {args.shared} not found: clips not compared")
    for name, w, h, fmt, bpc, frames, rk, dk, sets in GENERATED:
        if args.only and args.only not in name or args.skip_large and w * h > 1920 * 1080:
            continue
        base = os.path.join(tmp, name.replace(" ", "_").replace(":", ""))
        write_clip(base + ".ref.yuv", w, h, fmt, bpc, frames, rk)
        write_clip(base + ".dis.yuv", w, h, fmt, bpc, frames, dk)
        argv = ["-r", base + ".ref.yuv", "-d", base + ".dis.yuv", "-w", str(w), "-h", str(h),
                "-p", fmt, "-b", str(bpc)]
        inputs.append((name, argv, sets, (w, h, fmt)))

    if args.inputs:
        named = set(args.inputs.split(","))
        missing = named - {i[0] for i in inputs}
        if missing:
            print(f"FAIL: no such inputs: {', '.join(sorted(missing))}")
            return 1
        inputs = [i for i in inputs if i[0] in named]
    rows, total_n, total_diff, failures, messages = [], 0, 0, 0, []
    for name, argv, sets, geometry in inputs:
        if args.only and args.only not in name:
            continue
        if device == "vulkan":  # cambi's sets as on CUDA
            runs = {k: v for k, v in VULKAN_SETS.items()
                    if all(min(geometry[:2]) >= VULKAN_MIN_SIDE.get(f.split("=")[0], 1)
                           for f in v[0] + (["adm"] if v[1] else []))  # a model: vif, adm
                    and applies(k, *geometry) and (not k.startswith("cambi full_ref") or
                                                   any(tag in name for tag in FULL_REF_INPUTS))}
        elif sets in SMALL:
            runs = {sets: SMALL[sets]}
        elif sets == "ssim all":
            runs = {k: SETS[k] for k in SSIM_SETS if applies(k, *geometry)}
        elif sets in ("v1", "cambi all"):
            runs = {k: SETS[k] for k in (V1_SETS if sets == "v1" else CAMBI_SETS)}
        elif sets:
            runs = {sets: SETS[sets]}
        else:
            runs = {k: v for k, v in SETS.items()
                    if applies(k, *geometry) and not k.startswith("cambi full_ref")}
        if device == "cuda" and any(tag in name for tag in FULL_REF_INPUTS):
            runs.update({k: v for k, v in SETS.items() if k.startswith("cambi full_ref")})
        runs = {k: v for k, v in runs.items() if wanted(k, args.sets)}
        # cambi keeps nothing across frames, and on lavapipe a 720p frame of its sets takes
        # seconds: on Vulkan they score the first three frames of each input
        variants = [(k, v, ["--frame_cnt", "3"] if device == "vulkan" and k.startswith("cambi")
                     else []) for k, v in runs.items()]
        if "defaults" in runs and name.startswith("nf_src01_q_"):
            variants.append(("defaults subsample 3", runs["defaults"], ["--subsample", "3"]))
        if "speed" in runs and name.startswith("nf_parkjoy"):
            variants.append(("speed subsample 3", runs["speed"], ["--subsample", "3"]))
        for set_name, (features, models), extra in variants:
            out, secs = {}, {}
            for backend in ("cpu", device):
                path = os.path.join(tmp, f"out-{backend}.json")
                proc, cmd, secs[backend] = run_vqx(args.vqx, argv, features, models, backend,
                                                   extra, path)
                if proc.returncode != 0:
                    out[backend] = None
                    messages.append(f"FAIL {name} [{set_name}] {backend}: exit {proc.returncode} "
                                    f"after {secs[backend]:.1f} s: {proc.stderr.strip()}\n"
                                    f"  {' '.join(cmd)}")
                    print(messages[-1], flush=True)
                    break
                out[backend] = json.load(open(path))
            if not out.get("cpu") or not out.get(device):
                failures += 1
                rows.append((name, set_name, 0, 0, "run failed"))
                continue
            n, diff, first = compare(out["cpu"], out[device], device)
            total_n += n
            total_diff += diff
            failures += diff > 0
            frames = len(out["cpu"]["frames"])
            rows.append((name, set_name, frames, n, diff))
            line = (f"{'FAIL' if diff else 'ok  '} {name} [{set_name}]: {frames} frames, "
                    f"{n} values, {diff} differ{': ' + first if first else ''} "
                    f"({secs['cpu']:.1f} s cpu, "
                    f"{secs[device]:.1f} s {device})")
            if diff:
                messages.append(line)
            print(line, flush=True)

    if not args.only and device == "cuda":
        for name, diff in extra_checks(args.vqx, tmp):
            failures += bool(diff)
            rows.append((name, "cambi", 3, 1, 1 if diff else 0))
            line = f"{'FAIL' if diff else 'ok  '} {name}{': ' + diff if diff else ''}"
            if diff:
                messages.append(line)
            print(line, flush=True)

    print()
    print("| input | features | frames | values compared | differences |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |")
    print(f"\n{total_n} values compared, {total_diff} differ, {failures} failing runs")
    for m in messages:  # again at the end, where a log's tail shows them
        print(m)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
