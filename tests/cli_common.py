"""Helpers shared by the CLI tests (cli_test.py, cli_options_test.py,
cli_model_options_test.py): the pass/fail tally, runs of vqx, refusals and
the final "N passed, N failed" line.

Each test is run as `python3 tests/X.py VQX SAMPLES_DIR` and imports this
module from its own folder.
"""
import json
import os
import subprocess
import sys

VQX = sys.argv[1]
SAMPLES = sys.argv[2]
REF = os.path.join(SAMPLES, "city_ref_320x180.y4m")
DIS = os.path.join(SAMPLES, "city_x264_100k_320x180.y4m")
# the sample pair, two frames, quiet: the option tests' runs
PAIR = ["-r", REF, "-d", DIS, "--frame_cnt", "2", "-q"]

_tally = {"passed": 0, "failed": 0}


def check(cond, what):
    if cond:
        _tally["passed"] += 1
    else:
        _tally["failed"] += 1
        print(f"FAIL: {what}")


def run(*args, preexec_fn=None, stdin=None, input=None, env=None):
    """A run of vqx; `input`: bytes for its standard input (a pipe); `env`: variables added."""
    p = subprocess.run([VQX, *args], capture_output=True, preexec_fn=preexec_fn, stdin=stdin,
                       input=input, env=None if env is None else {**os.environ, **env})
    p.stdout, p.stderr = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    return p


def run_pair(*args):
    """A run of vqx on PAIR, text output."""
    return subprocess.run([VQX, *PAIR, *args], capture_output=True, text=True, errors="replace")


def frames(*args):
    """Per-frame metrics of a JSON run on PAIR (stdout), or None; and the process."""
    p = run_pair("--json", "-o", "-", "--precision", "max", *args)
    if p.returncode:
        return None, p
    return [f["metrics"] for f in json.loads(p.stdout)["frames"]], p


def refused(args, *needles):
    """A run on PAIR with `args` is a usage error (exit 2) whose message holds every needle."""
    p = run_pair("--json", "-o", os.devnull, *args)
    check(p.returncode == 2, f"{args}: exit {p.returncode}, want 2 ({p.stderr.strip()})")
    for n in needles:
        check(n in p.stderr, f"{args}: message {p.stderr.strip()!r} lacks {n!r}")


def finish():
    """The tally's line; exits 1 when a check failed."""
    print(f"{_tally['passed']} passed, {_tally['failed']} failed")
    sys.exit(1 if _tally["failed"] else 0)
