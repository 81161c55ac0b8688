#!/usr/bin/env python3
"""CLI tests of model option overrides and of adm's option combinations.

An override (-m SPEC:EXTRACTOR.OPTION=VALUE) names the option by its name or
its alias, and either replaces the model's own value; the same option
overridden twice in one spec is a usage error (exit 2) naming the spec, the
extractor and the option. adm's combinations of view distance, display
height and CSF table are refused when the options are parsed (exit 2), also
through a model and on the CUDA backend where a device is present.

Usage: cli_model_options_test.py VQX SAMPLES_DIR
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import check, finish, frames, refused, run_pair as run  # noqa: E402

# ---- overrides by name or alias replace the model's value ----
neg, p = frames("-m", "version=vmaf_v0.6.1neg")
check(neg is not None, f"vmaf_v0.6.1neg: exit {p.returncode} ({p.stderr.strip()})")
by_name, p = frames("-m", "version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1.5")
check(by_name is not None, f"override by name: exit {p.returncode} ({p.stderr.strip()})")
by_alias, p = frames("-m", "version=vmaf_v0.6.1neg:adm.egl=1.5")
check(by_alias is not None, f"override by alias: exit {p.returncode} ({p.stderr.strip()})")
if neg and by_name and by_alias:
    check(by_alias == by_name, f"alias and name give the same frames: {by_alias} / {by_name}")
    check(all("integer_adm2_egl_1.5" in f and "integer_adm2_egl_1" not in f for f in by_alias),
          f"the model's adm_enhn_gain_limit=1 is replaced: {sorted(by_alias[0])}")
    check(all(a["vmaf"] != b["vmaf"] for a, b in zip(by_alias, neg)),
          "the override changes vmaf")
# an option of the model's vif by alias, and adm and vif at once
both, p = frames("-m", "version=vmaf_v0.6.1neg:adm.egl=1.5:vif.egl=1.5")
check(both is not None and all("integer_vif_scale0_egl_1.5" in f and
                               "integer_adm2_egl_1.5" in f for f in both),
      f"adm.egl and vif.egl: exit {p.returncode} ({p.stderr.strip()})")

# ---- the same option overridden twice ----
for spec, message in [
        ("version=vmaf_v0.6.1neg:adm.egl=1.5:adm.egl=2",
         "model 'version=vmaf_v0.6.1neg:adm.egl=1.5:adm.egl=2': adm option adm_enhn_gain_limit "
         "overridden twice"),
        ("version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1:adm.egl=2",
         "model 'version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1:adm.egl=2': adm option "
         "adm_enhn_gain_limit overridden twice (as adm.adm_enhn_gain_limit and adm.egl)"),
        ("version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1:vif.egl=1",
         "vif option vif_enhn_gain_limit overridden twice (as vif.vif_enhn_gain_limit and "
         "vif.egl)")]:
    refused(["-m", spec], message)

# ---- adm's option combinations, at parse time ----
no_table = ("adm: adm_csf_mode=2 has no table for adm_norm_view_dist=3 and "
            "adm_ref_display_height=1440 (tables: 1080 at 3 and 5, 2160 at 1.5, 3 and 5, 720 and "
            "480 at 3 and 5)")
too_near = ("adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240, not "
            "1.5 * 1080")
refused(["-n", "--feature", "adm=adm_csf_mode=2:adm_ref_display_height=1440"], no_table)
refused(["-n", "--feature", "adm=csf=3:rdh=1440"], no_table.replace("mode=2", "mode=3"))
refused(["-n", "--feature", "adm=adm_norm_view_dist=1.5"], too_near)
refused(["-m", "version=vmaf_v1.0.16_3d0h:adm.rdh=1440"], no_table)
refused(["-m", "version=vmaf_v0.6.1:adm.nvd=1.5"], too_near)
# the table's combinations and a larger product are accepted
for feature in ["adm=csf=2:nvd=1.5:rdh=2160", "adm=csf=3:rdh=720:nvd=5",
                "adm=adm_norm_view_dist=1.5:adm_ref_display_height=2160"]:
    got, p = frames("-n", "--feature", feature)
    check(got is not None, f"{feature}: exit {p.returncode} ({p.stderr.strip()})")

# the CUDA twin takes its check from the CPU extractor
p = run("-n", "--backend", "cuda", "--strict_backend", "--feature", "adm", "-o", os.devnull)
if p.returncode == 0:
    refused(["-n", "--backend", "cuda", "--feature", "adm=adm_csf_mode=2:rdh=1440"], no_table)
    refused(["-n", "--backend", "cuda", "--feature", "adm=nvd=1.5"], too_near)
else:
    print(f"(no CUDA run: {p.stderr.strip()})")

finish()
