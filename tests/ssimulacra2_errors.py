#!/usr/bin/env python3
"""CLI tests of what ssimulacra2 refuses: unknown matrix or range names
(usage errors naming the choices), 4:0:0 input (no chroma to make RGB
from) and frames below libjxl's 8x8 minimum, each with one clear message;
and of its range=auto: a y4m XCOLORRANGE tag decides, an option overrides it.

Usage: ssimulacra2_errors.py VQX SAMPLES_DIR
"""
import json
import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import check, finish, run  # noqa: E402

cli_common.refused(["-n", "--feature", "ssimulacra2=matrix=bt2100"],
                   "ssimulacra2: option matrix takes one of bt709, bt601, bt2020, not 'bt2100'")
cli_common.refused(["-n", "--feature", "ssimulacra2=range=tv"],
                   "ssimulacra2: option range takes one of auto, limited, full, not 'tv'")
cli_common.refused(["-n", "--feature", "ssimulacra2=primaries=bt709"],
                   "ssimulacra2: unknown option 'primaries' (options: matrix, range)")


def refused_input(w, h, layout, samples, needle):
    with tempfile.NamedTemporaryFile(suffix=".yuv") as f:
        f.write(bytes(samples))
        f.flush()
        p = run("-r", f.name, "-d", f.name, "-w", str(w), "-h", str(h), "-p", layout, "-b", "8",
                "-n", "--feature", "ssimulacra2", "-o", os.devnull)
    check(p.returncode == 1, f"{w}x{h} {layout}: exit {p.returncode}, want 1 ({p.stderr.strip()})")
    check(needle in p.stderr and p.stderr.count("\n") == 1,
          f"{w}x{h} {layout}: message {p.stderr.strip()!r} lacks {needle!r}")


def scores(ref, dis, options=""):
    p = run("-r", ref, "-d", dis, "-n", "--feature", "ssimulacra2" + options, "--json", "-o", "-",
            "--precision", "max", "-q")
    check(p.returncode == 0, f"ssimulacra2{options} on {ref}: exit {p.returncode} {p.stderr!r}")
    if p.returncode:
        return None
    return [f["metrics"]["ssimulacra2"] for f in json.loads(p.stdout)["frames"]]


samples = sys.argv[2]
plain = [os.path.join(samples, n + ".y4m") for n in ("city_ref_320x180", "city_x264_100k_320x180")]
with tempfile.TemporaryDirectory() as tmp:
    tagged = {}
    for tag in ("FULL", "LIMITED"):
        tagged[tag] = []
        for path in plain:
            data = open(path, "rb").read()
            end = data.index(b"\n")
            out = os.path.join(tmp, f"{tag}_{os.path.basename(path)}")
            open(out, "wb").write(data[:end] + b" XCOLORRANGE=" + tag.encode() + data[end:])
            tagged[tag].append(out)
    limited, full = scores(*plain), scores(*plain, "=range=full")
    check(limited and full and limited != full, "range=full changes the scores")
    check(scores(*tagged["FULL"]) == full, "a y4m tagged XCOLORRANGE=FULL is read as full range")
    check(scores(*tagged["LIMITED"]) == limited, "XCOLORRANGE=LIMITED is read as limited range")
    check(scores(*tagged["FULL"], "=range=limited") == limited, "range=limited overrides the tag")
    check(scores(tagged["FULL"][0], plain[1]) == full, "the reference's tag decides for the pair")

refused_input(16, 16, "400", 16 * 16, "ssimulacra2: needs chroma planes, input is 4:0:0")
refused_input(7, 8, "420", 7 * 8 + 2 * 4 * 4, "ssimulacra2: 7x8 is too small: the minimum is 8x8")
refused_input(64, 7, "444", 3 * 64 * 7, "ssimulacra2: 64x7 is too small: the minimum is 8x8")
finish()
