#!/usr/bin/env python3
"""CLI tests of what ssimulacra2 refuses: unknown matrix or range names
(usage errors naming the choices), 4:0:0 input (no chroma to make RGB
from) and frames below libjxl's 8x8 minimum, each with one clear message.

Usage: ssimulacra2_errors.py VQX SAMPLES_DIR
"""
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
                   "ssimulacra2: option range takes one of limited, full, not 'tv'")
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


refused_input(16, 16, "400", 16 * 16, "ssimulacra2: needs chroma planes, input is 4:0:0")
refused_input(7, 8, "420", 7 * 8 + 2 * 4 * 4, "ssimulacra2: 7x8 is too small: the minimum is 8x8")
refused_input(64, 7, "444", 3 * 64 * 7, "ssimulacra2: 64x7 is too small: the minimum is 8x8")
finish()
