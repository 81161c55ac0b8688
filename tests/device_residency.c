/*
 * Residency of a device backend (argument: cuda or vulkan): over a run of
 * frames, the backend's counters (device/counters.h) must see one upload
 * and one read-back per frame, one host wait per frame (on the frame sent
 * VQX_DEVICE_BLOCKS before, once every block is in use), one launch per
 * frame (a CUDA graph, a Vulkan submission of the commands recorded once)
 * and no allocation after the first frame; the upload carries only the
 * planes the twins read. The scores must equal the CPU backend's.
 * The chains each backend has every twin of: psnr, motion and adm (chroma
 * too), VMAF v0.6.1 (luma only) and with psnr, on both backends; on Vulkan
 * also cambi (full_ref) and motion; on CUDA also VMAF v0.6.1 plus the
 * float twins (float_psnr, float_moment, float_ansnr, float_motion, float_vif,
 * float_adm, float_ssim, float_ms_ssim), plus ssimulacra2 (chroma too), plus
 * psnr_hvs (chroma too), the vmaf_v1.0.16_3d0h model (cambi, speed_chroma, adm,
 * motion), and that model with every other twin in one chain; each with the
 * caller's pictures (copied into pinned staging) and with pictures from the
 * context's pool (pinned on CUDA: uploaded from where they are).
 * Exits 77 (meson's skip) without a device, or fails where
 * VQX_REQUIRE_VULKAN is set for vulkan.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/counters.h"
#include "device/device.h"
#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond, ...) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
           fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } \
} while (0)

#define FRAMES 24
/* frames before the steady state: every block busy, and the pool grown to
 * the pictures the device holds */
#define WARM_UP (VQX_DEVICE_BLOCKS + 3)

static uint32_t rng = 12345;

static unsigned next_random(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 16;
}

/* pool: from the context's pool, else the caller's own */
static int make_picture(VqxContext *pool, VqxPicture *pic, unsigned w, unsigned h, unsigned frame,
                        int distorted)
{
    int ret = pool ? vqx_picture_alloc_from(pool, pic, VQX_PIX_420, 10, w, h)
                   : vqx_picture_alloc(pic, VQX_PIX_420, 10, w, h);
    if (ret) return ret;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint16_t *row = (uint16_t *)((uint8_t *)pic->data[p] + y * pic->stride[p]);
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const unsigned base = (x * 7 + y * 3 + frame * 5) & 1023;
                row[x] = (uint16_t)(distorted ? (base + next_random() % 9) & 1023 : base);
            }
        }
    return 0;
}

typedef struct Run {
    VqxContext *ctx;
    VqxDeviceCounters after_start, before_last, after_flush;
} Run;

typedef struct Chain {
    const char *name;
    const char *model;             /* or NULL: the features alone */
    const char *features[16][2];   /* name and options; none: the model alone */
    unsigned w, h;
    int chroma;                    /* a twin reads the chroma planes */
    unsigned backends;             /* ON_CUDA, ON_VULKAN: where every feature has a twin */
} Chain;

#define ON_CUDA 1u
#define ON_VULKAN 2u

static const Chain chains[] = {
    { "psnr + motion + adm (luma and chroma)", NULL,
      { { "psnr", "enable_mse=true" }, { "motion", "debug=true" }, { "adm", "debug=true" } },
      96, 64, 1, ON_CUDA | ON_VULKAN },
    /* cambi needs a side of 216 */
    { "cambi + motion (luma only)", NULL,
      { { "cambi", "full_ref=true" }, { "motion", "debug=true" } }, 320, 240, 0, ON_VULKAN },
    { "vmaf (luma only)", "version=vmaf_v0.6.1", { { NULL } }, 96, 64, 0, ON_CUDA | ON_VULKAN },
    { "vmaf + psnr (luma and chroma)", "version=vmaf_v0.6.1", { { "psnr", "enable_mse=true" } },
      96, 64, 1, ON_CUDA | ON_VULKAN },
    { "vmaf + float twins (luma only)", "version=vmaf_v0.6.1",
      { { "float_psnr", "" }, { "float_moment", "" }, { "float_ansnr", "" },
        { "float_motion", "motion_add_scale1=true" }, { "float_vif", "" }, { "float_adm", "" },
        { "float_ssim", "enable_lcs=true" }, { "float_ms_ssim", "" } },
      192, 176, 0, ON_CUDA }, /* float_ms_ssim: sides of 176 */
    { "vmaf + ssimulacra2 (luma and chroma)", "version=vmaf_v0.6.1", { { "ssimulacra2", "" } },
      96, 64, 1, ON_CUDA },
    { "vmaf + psnr_hvs (luma and chroma)", "version=vmaf_v0.6.1", { { "psnr_hvs", "" } },
      96, 64, 1, ON_CUDA },
    /* cambi needs a side of 216, speed_chroma chroma planes of 80x80 */
    { "vmaf_v1.0.16_3d0h (luma and chroma)", "version=vmaf_v1.0.16_3d0h", { { NULL } }, 320, 240,
      1, ON_CUDA },
    { "vmaf_v1.0.16_3d0h + every twin", "version=vmaf_v1.0.16_3d0h",
      { { "psnr", "enable_mse=true" }, { "speed_temporal", "" }, { "float_psnr", "" },
        { "float_moment", "" }, { "float_ansnr", "" }, { "float_motion", "" },
        { "float_vif", "" }, { "float_adm", "" }, { "float_ssim", "enable_lcs=true" },
        { "float_ms_ssim", "enable_lcs=true" }, { "ssimulacra2", "" }, { "psnr_hvs", "" } },
      320, 240, 1, ON_CUDA },
};

static int run(enum VqxBackend backend, const Chain *c, bool pool, Run *r)
{
    VqxSettings s;
    vqx_default_settings(&s);
    s.backend = backend;
    s.strict_backend = 1;
    int ret = vqx_open(&r->ctx, &s);
    if (ret) return ret;
    if (c->model && (ret = vqx_use_model(r->ctx, c->model))) return ret;
    for (unsigned i = 0; i < sizeof c->features / sizeof c->features[0] && c->features[i][0]; i++)
        if ((ret = vqx_use_feature(r->ctx, c->features[i][0], c->features[i][1]))) return ret;
    rng = 12345;
    for (unsigned n = 0; n < FRAMES; n++) {
        VqxPicture ref, dis;
        VqxContext *from = pool ? r->ctx : NULL;
        if ((ret = make_picture(from, &ref, c->w, c->h, n, 0)) ||
            (ret = make_picture(from, &dis, c->w, c->h, n, 1))) return ret;
        if ((ret = vqx_send_pictures(r->ctx, &ref, &dis))) return ret;
        if (n == WARM_UP - 1) vqx_device_counters(backend, &r->after_start);
        if (n == FRAMES - 1) vqx_device_counters(backend, &r->before_last);
    }
    ret = vqx_flush(r->ctx);
    vqx_device_counters(backend, &r->after_flush);
    return ret;
}

static void check_residency(const Run *r, size_t frame_bytes, const char *what)
{
    const VqxDeviceCounters *a = &r->after_start, *b = &r->before_last, *c = &r->after_flush;
    const uint64_t frames = FRAMES - WARM_UP; /* sent between the two readings */
    printf("%s: over %u frames: %llu uploads (%llu bytes), %llu read-backs, %llu syncs, "
           "%llu launches, %llu allocations\n", what, (unsigned)frames,
           (unsigned long long)(b->uploads - a->uploads),
           (unsigned long long)(b->upload_bytes - a->upload_bytes),
           (unsigned long long)(b->readbacks - a->readbacks),
           (unsigned long long)(b->syncs - a->syncs),
           (unsigned long long)(b->launches - a->launches),
           (unsigned long long)(b->allocations - a->allocations));
    CHECK(b->uploads - a->uploads == frames, "%s: uploads", what);
    CHECK(b->upload_bytes - a->upload_bytes == frames * frame_bytes, "%s: upload bytes", what);
    CHECK(b->readbacks - a->readbacks == frames, "%s: read-backs", what);
    CHECK(b->syncs - a->syncs == frames, "%s: one wait per frame", what);
    CHECK(b->launches - a->launches == frames, "%s: one launch per frame", what);
    CHECK(b->allocations == a->allocations && c->allocations == a->allocations,
          "%s: no allocation per frame", what);
    CHECK(c->uploads == b->uploads && c->readbacks == b->readbacks, "%s: flush moves nothing", what);
    CHECK(c->syncs - b->syncs == VQX_DEVICE_BLOCKS, "%s: flush waits for the frames in flight",
          what);
}

static void check_equal(const Run *gpu, const Run *cpu, const char *what)
{
    unsigned compared = 0, differ = 0;
    for (unsigned k = 0; k < vqx_key_count(cpu->ctx); k++) {
        const char *key = vqx_key_name(cpu->ctx, k);
        for (unsigned n = 0; n < FRAMES; n++) {
            double a, b;
            const int ra = vqx_score_at(cpu->ctx, key, n, &a);
            const int rb = vqx_score_at(gpu->ctx, key, n, &b);
            if (ra && rb) continue;
            compared++;
            if (ra != rb || memcmp(&a, &b, sizeof(a))) {
                if (differ++ < 5) fprintf(stderr, "%s: %s[%u]: cpu %.17g device %.17g\n", what, key, n, a, b);
            }
        }
    }
    CHECK(compared > 0 && differ == 0, "%s: %u of %u values differ", what, differ, compared);
}

/* Bytes of one frame pair's upload: 10-bit samples, luma alone or with
 * both chroma planes. */
static size_t upload_bytes(const Chain *c)
{
    const size_t luma = (size_t)c->w * c->h * 2;
    const size_t chroma = (size_t)((c->w + 1) / 2) * ((c->h + 1) / 2) * 2;
    return 2 * (luma + (c->chroma ? 2 * chroma : 0));
}

int main(int argc, char **argv)
{
    const bool vulkan = argc > 1 && !strcmp(argv[1], "vulkan");
    if (argc > 2 || (argc == 2 && !vulkan && strcmp(argv[1], "cuda"))) {
        fprintf(stderr, "usage: device_residency [cuda|vulkan]\n");
        return 2;
    }
    const enum VqxBackend backend = vulkan ? VQX_BACKEND_VULKAN : VQX_BACKEND_CUDA;
    const char *name = vulkan ? "vulkan" : "cuda";
    bool first = true;
    for (size_t i = 0; i < sizeof(chains) / sizeof(chains[0]); i++) {
        const Chain *c = &chains[i];
        if (!(c->backends & (vulkan ? ON_VULKAN : ON_CUDA))) continue;
        Run cpu = { 0 };
        CHECK(!run(VQX_BACKEND_CPU, c, false, &cpu), "%s: cpu run: %s", c->name,
              vqx_last_error(cpu.ctx));
        for (int pool = 0; pool < 2; pool++) {
            char what[128];
            snprintf(what, sizeof(what), "%s, %s pictures", c->name, pool ? "pool" : "caller's");
            Run gpu = { 0 };
            const int ret = run(backend, c, pool, &gpu);
            if (first && (ret == -ENODEV || ret == -ENOTSUP)) {
                const bool required = vulkan && getenv("VQX_REQUIRE_VULKAN");
                printf("%s: no %s device (%s)%s\n", required ? "FAIL" : "SKIP", name,
                       vqx_last_error(gpu.ctx), required ? ", and VQX_REQUIRE_VULKAN is set" : "");
                vqx_close(&gpu.ctx);
                vqx_close(&cpu.ctx);
                return required ? 1 : 77;
            }
            first = false;
            CHECK(!ret, "%s: %s run: %s", what, name, vqx_last_error(gpu.ctx));
            if (!ret) {
                check_residency(&gpu, upload_bytes(c), what);
                check_equal(&gpu, &cpu, what);
            }
            vqx_close(&gpu.ctx);
        }
        vqx_close(&cpu.ctx);
    }
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
