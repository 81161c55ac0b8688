#!/usr/bin/env python3
"""CLI tests of extractor option parsing: every refusal is a usage error
(exit 2) whose message names the extractor, the option, the bad text and
what is accepted; -0 is 0 (same keys, same values); subnormals are numbers.

Usage: cli_options_test.py VQX SAMPLES_DIR
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import check, finish, frames  # noqa: E402


def refused(feature, *needles, model=None):
    cli_common.refused(["-m", model] if model else ["-n", "--feature", feature], *needles)


# duplicate keys, also a name and its alias (through a model: cli_model_options_test.py)
refused("psnr=enable_mse=true:enable_mse=false", "psnr: option enable_mse given twice")
refused("adm=adm_enhn_gain_limit=2:egl=3",
        "adm: option adm_enhn_gain_limit given twice (as adm_enhn_gain_limit and egl)")

# numbers that strtod/strtol would take but are not plain decimal
for text in ["0x1p-3", "inf", "nan", "infinity", " 1", "1 ", "1e", ""]:
    refused(f"float_vif=vif_sigma_nsq={text}", "float_vif: option vif_sigma_nsq takes a number "
            "in [0, 5]", "no spaces, hexadecimal, inf or nan", f"not '{text}'")
for text in ["010", "0x3", " 3", "3 ", "3.0", "3e0"]:
    refused(f"adm=adm_csf_mode={text}", "adm: option adm_csf_mode takes an integer in [0, 3]",
            f"not '{text}'")

# a finite set of values, checked when the options are parsed
scales = ("0.444444, 0.5, 0.666667, 0.711111, 0.74074, 1, 1.06667, 1.11111, 1.16667, 1.25, "
          "1.33333, 1.41667, 1.4746, 1.5, 1.54, 1.6, 1.66667, 2, 2.4, 3, 3.71134 (each within "
          "0.001)")
refused("speed_chroma=speed_kernelscale=0.1",
        f"speed_chroma: option speed_kernelscale takes one of {scales}, not '0.1'")
refused("speed_temporal=speed_kernelscale=0.9", "speed_temporal: option speed_kernelscale takes "
        "one of", "not '0.9'")
refused("float_vif=vif_kernelscale=1.2", f"float_vif: option vif_kernelscale takes one of {scales}")
refused(None, "float_vif: option vif_kernelscale takes one of", model="version=vmaf_float_v0.6.1:"
        "float_vif.vif_kernelscale=1.2")
refused("cambi=cambi_high_res_speedup=1000", "cambi: option cambi_high_res_speedup takes one of "
        "0, 1080, 1440, 2160, not '1000'")
refused("float_motion=motion_filter_size=7", "float_motion: option motion_filter_size takes one "
        "of 1, 3, 5, not '7'")
refused("float_adm=adm_csf_mode=3", "float_adm: option adm_csf_mode takes one of 0, 1, 2, not '3'")
refused("cambi=heatmaps_path=", "cambi: option heatmaps_path takes a non-empty value")

# accepted: a leading '+', a kernel scale within 1e-3 (in float), a subnormal
for feature in ["adm=adm_csf_mode=+0", "speed_chroma=speed_kernelscale=0.501",
                "float_vif=vif_kernelscale=0.6667", "psnr=min_sse=1e-310"]:
    got, p = frames("-n", "--feature", feature)
    check(got is not None, f"{feature}: exit {p.returncode} ({p.stderr.strip()})")

# -0 is 0: the same key names, the same values, bit for bit (as JSON text)
for feature, opt in [("float_vif", "vif_sigma_nsq"), ("adm", "adm_noise_weight"),
                     ("motion", "motion_fps_weight"), ("cambi", "cambi_vis_lum_threshold")]:
    for neg in ["-0", "-0.0", "-0e3", "-1e-400"]:
        a, pa = frames("-n", "--feature", f"{feature}={opt}={neg}")
        b, pb = frames("-n", "--feature", f"{feature}={opt}=0")
        check(a is not None and a == b, f"{feature} {opt}={neg}: {a} / {b} "
              f"({pa.stderr.strip()} {pb.stderr.strip()})")
        check(a is not None and all(v is not None for f in a for v in f.values()),
              f"{feature} {opt}={neg}: a value is not finite: {a}")

finish()
