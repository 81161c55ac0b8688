#!/bin/sh
# The Python package in CI: `pip install SRC` into a fresh venv of
# $VQX_PYTHON (python3.12) with dask[distributed] (vqx.distributed), pytest
# tests/python there; then `pip wheel SRC`
# and that wheel (abi3) installed into a venv of $VQX_OTHER_PYTHON
# (python3.13), imported, scoring the sample pair without numpy.
#
#   tests/python/run.sh [SRC]     SRC: the source tree (default: this script's)
#
# Environment: VQX_CLI (the vqx CLI, for the CLI comparisons; skipped when
# unset), VQX_SHARED (../shared), VQX_JOBS (compile jobs, default ninja's),
# VQX_PYTHON, VQX_OTHER_PYTHON, TMPDIR. Exit 0 passed, 1 failed, 77 skipped
# (PyPI, which meson-python and ninja come from, cannot be reached, or
# $VQX_PYTHON is missing). The source tree is not written to.
set -eu

SRC=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
PYTHON=${VQX_PYTHON:-python3.12}
OTHER_PYTHON=${VQX_OTHER_PYTHON:-python3.13}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vqx-python.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
BUILD_ARGS=""
[ -n "${VQX_JOBS:-}" ] && BUILD_ARGS="-Ccompile-args=-j$VQX_JOBS"

# pyenv's shims run a pythonX.Y only when a selected version provides it
if [ -z "${PYENV_VERSION:-}" ] && command -v pyenv >/dev/null 2>&1; then
    first=$(pyenv whence "$PYTHON" 2>/dev/null | tail -n 1 || true)
    other=$(pyenv whence "$OTHER_PYTHON" 2>/dev/null | tail -n 1 || true)
    PYENV_VERSION=$first${other:+:$other}
    export PYENV_VERSION
fi
if ! "$PYTHON" -c pass >/dev/null 2>&1; then
    echo "SKIP: $PYTHON not found"
    exit 77
fi
"$PYTHON" -m venv "$WORK/venv"
PIP="$WORK/venv/bin/pip"
if ! "$PIP" download -q --no-deps --retries 1 --timeout 15 -d "$WORK/probe" meson-python >/dev/null 2>&1; then
    echo "SKIP: PyPI cannot be reached (meson-python, meson and ninja come from it)"
    exit 77
fi

echo "== pip install $SRC ($("$WORK/venv/bin/python" --version))"
# shellcheck disable=SC2086
"$PIP" install -q $BUILD_ARGS "${SRC}[test]"
# vqx.distributed's tests need Dask (from PyPI too); without it they skip, saying so
if ! "$PIP" install -q "dask[distributed]"; then
    echo "NOTE: dask[distributed] cannot be installed: tests/python/test_distributed.py skips"
fi
echo "== pytest"
(cd "$WORK" && "$WORK/venv/bin/python" -m pytest -q -p no:cacheprovider "$SRC/tests/python")

echo "== pip wheel $SRC"
# shellcheck disable=SC2086
"$PIP" wheel -q --no-deps $BUILD_ARGS -w "$WORK/wheels" "$SRC"
WHEEL=$(ls "$WORK"/wheels/vqx-*-abi3-*.whl)
echo "built $(basename "$WHEEL")"
if ! "$OTHER_PYTHON" -c pass >/dev/null 2>&1; then
    echo "FAIL: $OTHER_PYTHON not found: the abi3 wheel is not tried on another Python"
    exit 1
fi
"$OTHER_PYTHON" -m venv "$WORK/other"
"$WORK/other/bin/pip" install -q --no-deps "$WHEEL"
echo "== the wheel on $("$WORK/other/bin/python" --version), without numpy"
(cd "$WORK" && "$WORK/other/bin/python" - "$SRC" <<'EOF'
import json
import sys
from pathlib import Path

import vqx

src = Path(sys.argv[1])
golden = json.loads((src / "tests/data/golden/city_x264_100k_320x180.json").read_text())
want = next(r for r in golden["runs"] if r["name"] == "v061_all")["pooled_mean"]["vmaf"]
r = vqx.score(src / "samples/city_ref_320x180.y4m", src / "samples/city_x264_100k_320x180.y4m")
assert r.pooled["vmaf"]["mean"] == want, (r.pooled["vmaf"], want)
try:
    r.frames
except ImportError as e:
    assert "numpy" in str(e)
else:
    raise AssertionError("Result.frames worked without numpy")
print(f"vqx {vqx.__version__} on Python {sys.version.split()[0]}: vmaf {r.pooled['vmaf']['mean']!r} "
      "equals libvmaf's")
EOF
)
echo "PASS"
