#!/usr/bin/env python3
"""The CLI's --plot SVG on the bundled sample pair (vmaf_v0.6.1 plus psnr and
cambi, and a subsampled run): one panel per key of the JSON output, in its
order, each captioned with the key and its pooled mean, the lowest (or, for
distortion-type keys, highest) three frames marked and labelled with their
numbers; then the SVG is rendered with rsvg-convert and every panel must show
its curve (pixels of the curve's colour inside the panel's plot area).

usage: plot_test.py VQX SAMPLES_DIR
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
CURVE_RGB = (0x1f, 0x5f, 0xa8)
PANEL_H, TITLE_H, PLOT_TOP, PLOT_H, LEFT, PLOT_W = 170, 40, 28, 110, 90, 840


def higher_is_worse(key):
    return (key.startswith(("mse_", "cambi", "speed_")) or "motion" in key
            or "moment" in key or "aim" in key)


def decode_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour = ihdr[:4]
    assert depth == 8 and colour in (2, 6), f"PNG depth {depth} colour type {colour}"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def check(vqx, ref, dis, args, tmp, failures):
    svg, out = os.path.join(tmp, "plot.svg"), os.path.join(tmp, "out.json")
    subprocess.run([vqx, "-r", ref, "-d", dis, *args, "--json", "--precision", "max", "-o", out,
                    "--plot", svg, "-q"], check=True)
    result = json.load(open(out))
    frames = result["frames"]
    keys = [k for k in frames[0]["metrics"]] if frames else []
    for fr in frames:
        keys += [k for k in fr["metrics"] if k not in keys]
    root = ET.parse(svg).getroot()
    panels = root.findall(f"{NS}g")
    name = " ".join(args)

    def fail(msg):
        failures.append(f"{name}: {msg}")

    if len(panels) != len(keys):
        fail(f"{len(panels)} panels for {len(keys)} keys")
    for key, g in zip(keys, panels):
        texts = [t.text for t in g.findall(f"{NS}text")]
        if texts[0] != key:
            fail(f"panel '{texts[0]}' where '{key}' comes")
            continue
        mean = result["pooled_metrics"][key]["mean"]
        if f"mean {mean:.6g}" not in texts:
            fail(f"{key}: no caption 'mean {mean:.6g}'")
        values = [(fr["metrics"][key], fr["frameNum"]) for fr in frames if key in fr["metrics"]]
        high = higher_is_worse(key)
        worst = sorted(values, key=lambda v: (-v[0] if high else v[0], v[1]))[:3]
        labels = [int(t.text) for t in g.findall(f"{NS}text") if t.get("fill") == "#d35400"
                  and t.text.isdigit()]
        if labels != [f for _, f in worst]:
            fail(f"{key}: worst frames labelled {labels}, expected {[f for _, f in worst]}")
        if len(g.findall(f"{NS}circle")) < len(worst):
            fail(f"{key}: {len(g.findall(f'{NS}circle'))} markers for {len(worst)} frames")

    png = os.path.join(tmp, "plot.png")
    subprocess.run(["rsvg-convert", "-f", "png", "-o", png, svg], check=True)
    w, h, rows = decode_png(png)
    if (w, h) != (int(root.get("width")), int(root.get("height"))):
        fail(f"rendered {w}x{h}, the SVG says {root.get('width')}x{root.get('height')}")
    for p, key in enumerate(keys[:len(panels)]):
        top = TITLE_H + p * PANEL_H + PLOT_TOP
        curve = sum(1 for y in range(top, top + PLOT_H + 1) for px in rows[y][LEFT:LEFT + PLOT_W]
                    if all(abs(px[i] - CURVE_RGB[i]) < 40 for i in range(3)))
        if curve < 3:
            fail(f"{key}: the rendered panel shows no curve ({curve} pixels of its colour)")
    print(f"{'ok' if not failures else 'FAIL'} {name}: {len(panels)} panels, {len(frames)} frames")


def main():
    vqx, samples = sys.argv[1:3]
    ref = os.path.join(samples, "city_ref_320x180.y4m")
    dis = os.path.join(samples, "city_x264_100k_320x180.y4m")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        check(vqx, ref, dis, ["--feature", "psnr", "--feature", "cambi"], tmp, failures)
        check(vqx, ref, dis, ["--feature", "float_ssim", "--subsample", "2"], tmp, failures)
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
