#!/usr/bin/env bash
# Build, test and benchmark the CUDA backend on a GPU machine, in one go.
# Run from the source root; ../shared holds the clips; logs go to $OUT.
#   bench/cuda/device_run.sh [build] [kernels] [residency] [parity] [vulkan] [bench] [bench-v1] [blocks] [cli] [bench-cpu] [ncu]
# BENCH_FEATURES: the features (or version=MODEL) of bench-v1; VULKAN_BENCH: those the vulkan
# stage times on both backends (default psnr,motion). PARITY_ONLY, PARITY_SETS: the
# parity's inputs and feature sets whose names contain them (default all).
# A folder DEPS (default ../deps) may hold .deb files of jansson and
# pkgconf, and a meson wheel, for images that lack them.
# BLOCKS_VARIANTS (e.g. "2 4"): other counts of frames in flight
# (VQX_DEVICE_BLOCKS), built in the background after the build stage; the
# blocks stage checks each (residency, parity on the 48-frame clip) and
# benchmarks it at 4K, then the default build again.
set -u
OUT=${OUT:-/tmp/vqx-out}
DEPS=${DEPS:-../deps}
mkdir -p "$OUT"
stages=" $* "
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

if ! pkg-config --exists jansson 2>/dev/null; then
    d=/tmp/vqx-deps
    for f in "$DEPS"/*.deb; do dpkg -x "$f" "$d"; done
    lib=$d/usr/lib/x86_64-linux-gnu
    for pc in "$lib"/pkgconfig/*.pc; do sed -i "s|^prefix=.*|prefix=$d/usr|" "$pc"; done
    export PATH=$d/usr/bin:$PATH PKG_CONFIG_PATH=$lib/pkgconfig
    export LD_LIBRARY_PATH=$lib:${LD_LIBRARY_PATH:-} LIBRARY_PATH=$lib
fi
MESON=(meson)
if ! command -v meson >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --target /tmp/vqx-site "$DEPS"/meson-*.whl
    export PYTHONPATH=/tmp/vqx-site
    MESON=(python3 -m mesonbuild.mesonmain)
fi

if [[ $stages == *" build "* ]]; then
    log "build: $(nvcc --version | tail -1); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
    "${MESON[@]}" setup build-dev -Dwerror=true > "$OUT/build.log" 2>&1 &&
        ninja -C build-dev >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
    log "build ok"
    for k in ${BLOCKS_VARIANTS:-}; do
        ("${MESON[@]}" setup build-n$k -Dwerror=true -Dc_args=-DVQX_DEVICE_BLOCKS=$k &&
            ninja -C build-n$k tools/vqx tests/device_residency bench/cuda/cuda_bench) \
            > /tmp/build-n$k.log 2>&1 &
    done
fi
if [[ $stages == *" kernels "* ]]; then
    log "kernels"
    for t in ${KERNEL_TESTS:-cuda_kernels cuda_speed_kernels cuda_cambi_kernels cuda_top_mean cuda_ssim_kernels}; do
        [[ -x build-dev/tests/$t ]] || continue
        timeout ${KERNELS_TIMEOUT:-300} ./build-dev/tests/$t > "$OUT/$t.log" 2>&1
        echo "$t exit $?" >> "$OUT/$t.log"
        grep -E "^FAIL|passed|exit|SKIP" "$OUT/$t.log" | head -12
    done
fi
if [[ $stages == *" residency "* ]]; then
    log "residency"
    ./build-dev/tests/device_residency 2>&1 | tee "$OUT/residency.log" | tail -8
fi
if [[ $stages == *" parity "* ]]; then
    log "parity"
    PYTHONUNBUFFERED=1 timeout ${PARITY_TIMEOUT:-400} python3 tests/cuda_parity.py \
        --vqx build-dev/tools/vqx --shared ../shared --cache /tmp/vqx-clips --tmp /dev/shm \
        ${PARITY_ONLY:+--only "$PARITY_ONLY"} ${PARITY_SETS:+--sets "$PARITY_SETS"} \
        > "$OUT/parity.log" 2>&1
    echo "parity exit $?" >> "$OUT/parity.log"
    grep -E "^FAIL|values compared|parity exit|SKIP" "$OUT/parity.log" | head -40
fi
if [[ $stages == *" vulkan "* ]]; then
    # the Vulkan backend on NVIDIA's driver (its loader unpacked beforehand, as
    # DEVELOPERS.md says): kernel checks, residency, parity (every input), speed
    icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    [[ -f $icd ]] && export VK_DRIVER_FILES=$icd
    log "vulkan"
    VQX_REQUIRE_VULKAN=1 timeout 300 ./build-dev/tests/vulkan_kernels > "$OUT/vulkan_kernels.log" 2>&1
    echo "vulkan_kernels exit $?" >> "$OUT/vulkan_kernels.log"
    grep -E "^FAIL|passed|exit|device" "$OUT/vulkan_kernels.log" | head -12
    VQX_REQUIRE_VULKAN=1 PYTHONUNBUFFERED=1 timeout ${PARITY_TIMEOUT:-400} python3 tests/cuda_parity.py \
        --vqx build-dev/tools/vqx --shared ../shared --cache /tmp/vqx-clips --tmp /dev/shm \
        --backend vulkan > "$OUT/vulkan_parity.log" 2>&1
    echo "vulkan parity exit $?" >> "$OUT/vulkan_parity.log"
    grep -E "^FAIL|values compared|parity exit|SKIP" "$OUT/vulkan_parity.log" | head -20
    VQX_REQUIRE_VULKAN=1 ./build-dev/tests/device_residency vulkan > "$OUT/vulkan_residency.log" 2>&1
    echo "vulkan residency exit $?" >> "$OUT/vulkan_residency.log"
    tail -4 "$OUT/vulkan_residency.log"
    # VULKAN_BENCH: the features (comma-separated) or models timed on both backends
    for what in ${VULKAN_BENCH:-psnr,motion}; do
        for geo in "1920 1080" "3840 2160"; do
            for be in vulkan cuda; do
                build-dev/bench/cuda/cuda_bench api $geo 8 1000 $be 0 $what | tee -a "$OUT/bench.log"
            done
        done
    done
fi
B=build-dev/bench/cuda/cuda_bench
wait # the variants' builds: nothing else may load the host while timing
if [[ $stages == *" bench "* ]]; then
    log "bench $(date -u +%FT%TZ) $(nproc) cores"
    $B h2d | tee -a "$OUT/bench.log"
    $B copy 16588800 | tee -a "$OUT/bench.log"   # a 4K 8-bit frame pair's luma
    for geo in "1920 1080" "3840 2160"; do
        for bpc in 8 10; do
            $B api $geo $bpc 2000 cuda 0 | tee -a "$OUT/bench.log"
        done
    done
fi
if [[ $stages == *" bench-v1 "* ]]; then
    # features alone (BENCH_FEATURES; default those of vmaf_v1.0.16 and its model), on the
    # GPU and on the CPU (one thread and every core); frames per size: cuda, cpu
    log "bench-v1 $(date -u +%FT%TZ) $(nproc) cores"
    for what in ${BENCH_FEATURES:-speed_chroma speed_temporal cambi version=vmaf_v1.0.16_3d0h}; do
        for geo in "576 324 1000 24" "1920 1080 500 8" "3840 2160 300 4"; do
            set -- $geo
            $B api $1 $2 8 $3 cuda 0 $what | tee -a "$OUT/bench.log"
            $B api $1 $2 8 $4 cpu 1 $what | tee -a "$OUT/bench.log"
            $B api $1 $2 8 $((4 * $4)) cpu "$(nproc)" $what | tee -a "$OUT/bench.log"
        done
    done
fi
if [[ $stages == *" blocks "* ]]; then
    for k in ${BLOCKS_VARIANTS:-}; do
        log "blocks $k"
        if [[ ! -x build-n$k/bench/cuda/cuda_bench ]]; then
            tail -30 /tmp/build-n$k.log | tee -a "$OUT/blocks.log"
            continue
        fi
        ./build-n$k/tests/device_residency >> "$OUT/blocks.log" 2>&1
        echo "residency (blocks $k) exit $?" | tee -a "$OUT/blocks.log"
        # BLOCKS_PARITY_ONLY: the inputs of that parity (default the 48-frame clip; empty: all)
        only=(--only "${BLOCKS_PARITY_ONLY-nf_src01_q}")
        [[ -n ${BLOCKS_PARITY_ONLY-nf_src01_q} ]] || only=()
        PYTHONUNBUFFERED=1 timeout ${PARITY_TIMEOUT:-400} python3 tests/cuda_parity.py \
            --vqx build-n$k/tools/vqx --shared ../shared --cache /tmp/vqx-clips --tmp /dev/shm \
            "${only[@]}" >> "$OUT/blocks.log" 2>&1
        echo "parity (blocks $k) exit $?" | tee -a "$OUT/blocks.log"
        for bpc in 8 10; do
            build-n$k/bench/cuda/cuda_bench api 3840 2160 $bpc 2000 cuda 0 | tee -a "$OUT/bench.log"
        done
    done
    for bpc in 8 10; do  # the default build beside them
        $B api 3840 2160 $bpc 2000 cuda 0 | tee -a "$OUT/bench.log"
    done
fi
if [[ $stages == *" cli "* ]]; then
    # The CLI end to end from y4m files in the page cache (/dev/shm): the output's fps (first
    # frame read to last score) and the whole process; the per-frame values of the first
    # frames against the CPU backend's; libvmaf's CUDA CLI on the same files when LIBVMAF_CLI
    # names it (built by hand outside the repo). CPU_FRAMES: frames compared (default 16).
    VMAF=${LIBVMAF_CLI:-}
    # CLI_CASES: "W H BPC FRAMES MODEL;..."
    IFS=';' read -ra cases <<< "${CLI_CASES:-1920 1080 8 1200 vmaf_v0.6.1;3840 2160 8 600 vmaf_v0.6.1;3840 2160 10 600 vmaf_v0.6.1;3840 2160 8 600 vmaf_v1.0.16_3d0h}"
    for geo in "${cases[@]}"; do
        set -- $geo
        $B y4m /dev/shm/ref.y4m $1 $2 $3 $4 ref && $B y4m /dev/shm/dis.y4m $1 $2 $3 $4 dis
        t0=$EPOCHREALTIME; cat /dev/shm/ref.y4m /dev/shm/dis.y4m > /dev/null; t1=$EPOCHREALTIME
        build-dev/tools/vqx -r /dev/shm/ref.y4m -d /dev/shm/dis.y4m -m version=$5 --backend cuda \
            --strict_backend -q --json --precision max -o /dev/shm/gpu.json; t2=$EPOCHREALTIME
        build-dev/tools/vqx -r /dev/shm/ref.y4m -d /dev/shm/dis.y4m -m version=$5 --backend cuda \
            --strict_backend -q --frame_cnt 1 -o /dev/null; t3=$EPOCHREALTIME
        build-dev/tools/vqx -r /dev/shm/ref.y4m -d /dev/shm/dis.y4m -m version=$5 --threads "$(nproc)" \
            -q --json --precision max --frame_cnt ${CPU_FRAMES:-16} -o /dev/shm/cpu.json
        lv=""
        if [[ -n $VMAF && -x $VMAF ]]; then
            t4=$EPOCHREALTIME
            $VMAF -r /dev/shm/ref.y4m -d /dev/shm/dis.y4m -m path=models/$5.json --json -o /dev/shm/lv.json --quiet \
                > /dev/null 2>&1 && lv=$(python3 -c "import json,sys; t=float(sys.argv[1]); \
r=json.load(open('/dev/shm/lv.json')); n=len(r['frames']); \
print(f'libvmaf cuda: output fps {r.get(\"fps\", 0):.1f}, whole process {n / (float(sys.argv[2]) - t):.1f} fps ({n} frames)')" $t4 $EPOCHREALTIME)
        fi
        python3 - "$@" $t0 $t1 $t2 $t3 "$lv" <<'PY' | tee -a "$OUT/bench.log"
import json, sys
w, h, bpc, n, model, t0, t1, t2, t3, lv = sys.argv[1:]
gpu, cpu = json.load(open("/dev/shm/gpu.json")), json.load(open("/dev/shm/cpu.json"))
same = all(gpu["frames"][i]["metrics"] == f["metrics"] for i, f in enumerate(cpu["frames"]))
wall = float(t2) - float(t1)
print(f"cli: {w}x{h} {bpc}-bit {model} frames={len(gpu['frames'])} output fps={gpu['fps']:.1f} "
      f"whole process {wall:.3f} s ({int(n) / wall:.1f} fps), start-up and one frame "
      f"{float(t3) - float(t2):.3f} s, cat {float(t1) - float(t0):.3f} s, "
      f"first {len(cpu['frames'])} frames equal to the cpu: {same}; {lv}")
PY
        rm -f /dev/shm/ref.y4m /dev/shm/dis.y4m /dev/shm/*.json
    done
fi
if [[ $stages == *" bench-cpu "* ]]; then
    for geo in "1920 1080" "3840 2160"; do
        for bpc in 8 10; do
            $B api $geo $bpc 12 cpu 0 | tee -a "$OUT/bench.log"
            $B api $geo $bpc 48 cpu "$(nproc)" | tee -a "$OUT/bench.log"
        done
    done
fi
if [[ $stages == *" ncu "* ]]; then
    # time of each kernel of one 4K 8-bit frame's chain (clocks left as they are)
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    timeout 240 "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
        --launch-skip ${NCU_SKIP:-100} --launch-count ${NCU_COUNT:-120} $B api 3840 2160 8 16 cuda 0 > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
    python3 - "$OUT/ncu.csv" <<'PY' | tee -a "$OUT/bench.log"
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
k, v = head.index("Kernel Name"), head.index("Metric Value")
tot = collections.defaultdict(float); cnt = collections.Counter()
for r in rows:
    name = r[k].split("(")[0].split("<")[0]
    tot[name] += float(r[v].replace(",", "")); cnt[name] += 1
s = sum(tot.values())
for name, t in sorted(tot.items(), key=lambda x: -x[1]):
    print(f"ncu: {name:24s} {cnt[name]:4d} launches {t / 1e3:9.1f} us total")
print(f"ncu: {len(rows)} kernels, {s / 1e3:.1f} us")
PY
fi
exit 0
