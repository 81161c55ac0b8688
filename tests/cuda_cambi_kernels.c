/*
 * Stage-level checks of CAMBI's CUDA kernels against the CPU extractor's own
 * stage functions (cambi.h): each kernel reads the CPU's input of its stage,
 * so a difference points at one kernel. Stages: the load to 10 bits
 * through the row/column maps, the 2x2 smooth, the spatial mask, and at
 * every scale the halving (image and mask), the mode filter and the
 * contrast values (float bits) with their heatmap samples; the contrast
 * values also with the largest window (65) on the scale-0 picture.
 * Contents: random full-range, flat, banded gradients, banded gradients
 * with noise; 8, 10, 12 and 16 bits; odd sizes; several
 * option sets (steps, EOTF, thresholds, encode size and depth); and
 * 3840x2160 (the 65-pixel window, the high-resolution speed-up).
 * Exits 77 (meson's skip) without a CUDA device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "cuda_check.h"
#include "cambi_content.h"
#include "cuda/cambi_kernels.h"
#include "feature/cambi.h"
#include "feature/registry.h"
#include "options.h"

/* Extra samples at the end of each device input row: the kernels take a pitch. */
#define PITCH_PAD 5

/* Differences of two arrays of `size`-byte values; reports the first. */
static unsigned differ(const void *gpu, const void *cpu, size_t n, size_t size, unsigned w,
                       const char *what, const char *where)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t g = 0, c = 0;
        memcpy(&g, (const char *)gpu + i * size, size);
        memcpy(&c, (const char *)cpu + i * size, size);
        if (g != c && !bad++)
            printf("  %s %s at (%zu, %zu): cuda 0x%x cpu 0x%x\n", where, what, i / w, i % w,
                   g, c);
    }
    return bad;
}

/* The device's check of one stage: its output against the CPU's. */
static void expect_equal(const void *dev, const void *cpu, unsigned w, unsigned h, size_t size,
                         const char *what, const char *where)
{
    void *g = host_copy(dev, (size_t)w * h * size);
    const unsigned bad = differ(g, cpu, (size_t)w * h, size, w, what, where);
    CHECK(!bad, "%s %s: %u differences", where, what, bad);
    free(g);
}

static VqxCudaCambiContrast contrast_params(const CambiState *s, unsigned window,
                                           const float *d_reciprocal)
{
    VqxCudaCambiContrast p = {
        .n_steps = s->n_steps, .band_lo = s->band_lo, .band_size = s->band_size,
        .vlt = s->vlt_luma, .pad = window >> 1, .reciprocal = d_reciprocal,
    };
    for (unsigned d = 0; d < CAMBI_MAX_STEPS; d++) {
        p.tvi[d] = s->tvi[d];
        p.weight[d] = vqx_cambi_step_weights[d];
    }
    return p;
}

/* Contrast values (and heatmap samples) of the CPU's current image and
 * mask (w x h) with the given window. */
static void check_contrast(CambiState *s, unsigned w, unsigned h, unsigned window,
                           const float *d_reciprocal, const char *what, const char *where)
{
    const size_t n = (size_t)w * h;
    uint16_t *d_img = dev_upload(s->image, n * 2);
    uint8_t *d_mask = dev_upload(s->mask, n);
    float *d_out = dev_alloc(n * 4);
    uint16_t *d_heat = dev_alloc(n * 2);
    const VqxCudaCambiContrast p = contrast_params(s, window, d_reciprocal);
    int status = 0;
    const unsigned columns = vqx_cuda_cambi_contrast_columns(s->band_size, p.pad, &status);
    CU((cudaError_t)status);
    const double gain = vqx_cambi_heat_gain(s);
    CU_LAUNCH(vqx_cuda_cambi_contrast(&p, d_img, d_mask, w, h, columns, d_out, gain, d_heat,
                                      NULL));
    vqx_cambi_contrast_values(s, w, h, window);
    uint16_t *heat = malloc(n * 2);
    for (size_t i = 0; i < n; i++) heat[i] = vqx_cambi_heat(gain, s->contrast[i]);
    char name[64];
    snprintf(name, sizeof(name), "%s contrast (window %u)", what, window);
    expect_equal(d_out, s->contrast, w, h, 4, name, where);
    snprintf(name, sizeof(name), "%s heatmap (window %u)", what, window);
    expect_equal(d_heat, heat, w, h, 2, name, where);
    free(heat);
    CU(cudaFree(d_img));
    CU(cudaFree(d_mask));
    CU(cudaFree(d_out));
    CU(cudaFree(d_heat));
}

static void check_picture(const VqxPicture *pic, const char *opts, const char *where)
{
    CambiState *s = cambi_cpu_state(pic, opts, where);
    if (!s) return;
    const CambiGeometry *g = &s->dis;
    const unsigned bps = pic->bpc == 8 ? 1 : 2;
    const size_t pitch = pic->w[0] + PITCH_PAD, n = (size_t)g->w * g->h;
    void *d_plane = dev_alloc(pitch * bps * pic->h[0]);
    CU(cudaMemcpy2D(d_plane, pitch * bps, pic->data[0], (size_t)pic->stride[0],
                    pic->w[0] * bps, pic->h[0], cudaMemcpyHostToDevice));
    unsigned *d_rows = dev_upload(g->rows, g->h * sizeof(unsigned));
    unsigned *d_cols = dev_upload(g->cols, g->w * sizeof(unsigned));
    float *d_reciprocal = dev_upload(s->reciprocal, sizeof(s->reciprocal));
    uint16_t *d_img = dev_alloc(n * 2), *d_out = dev_alloc(n * 2), *d_halved = dev_alloc(n * 2);
    uint8_t *d_mask = dev_alloc(n), *d_out_mask = dev_alloc(n);
    char what[64];

    if (!strcmp(opts, "") || !strcmp(opts, "enc_bitdepth=8")) {
        /* load, then load + smooth, at every depth */
        cambi_cpu_load(s, pic, false);
        CU_LAUNCH(vqx_cuda_cambi_load(d_plane, pitch, pic->bpc, d_rows, d_cols, g->w, g->h, 0,
                                      d_img, NULL));
        expect_equal(d_img, s->image, g->w, g->h, 2, "load", where);
        vqx_cambi_smooth_2x2(s->image, g->w, g->h);
        CU_LAUNCH(vqx_cuda_cambi_load(d_plane, pitch, pic->bpc, d_rows, d_cols, g->w, g->h, 1,
                                      d_img, NULL));
        expect_equal(d_img, s->image, g->w, g->h, 2, "load+smooth", where);
    }
    /* the picture as the extractor scores it */
    cambi_cpu_load(s, pic, s->smooth);

    CU(cudaMemcpy(d_img, s->image, n * 2, cudaMemcpyHostToDevice));
    CU_LAUNCH(vqx_cuda_cambi_mask(d_img, g->w, g->h, g->mask_threshold, d_mask, NULL));
    vqx_cambi_spatial_mask(s, g->w, g->h, g->mask_threshold);
    expect_equal(d_mask, s->mask, g->w, g->h, 1, "mask", where);

    unsigned w = g->w, h = g->h;
    for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
        const int halve = scale || s->halve_first;
        CU(cudaMemcpy(d_img, s->image, (size_t)w * h * 2, cudaMemcpyHostToDevice));
        CU(cudaMemcpy(d_mask, s->mask, (size_t)w * h, cudaMemcpyHostToDevice));
        CU_LAUNCH(vqx_cuda_cambi_scale(d_img, d_mask, w, h, halve, d_out, d_out_mask, d_halved,
                                       NULL));
        if (halve) {
            vqx_cambi_halve(s, w, h);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            snprintf(what, sizeof(what), "scale %u halved image", scale);
            expect_equal(d_halved, s->image, w, h, 2, what, where);
            snprintf(what, sizeof(what), "scale %u halved mask", scale);
            expect_equal(d_out_mask, s->mask, w, h, 1, what, where);
        }
        vqx_cambi_mode_filter(s, w, h);
        snprintf(what, sizeof(what), "scale %u mode filter", scale);
        expect_equal(d_out, s->image, w, h, 2, what, where);
        snprintf(what, sizeof(what), "scale %u", scale);
        check_contrast(s, w, h, g->window, d_reciprocal, what, where);
        if (!scale && g->window != CAMBI_BIG_WINDOW)
            check_contrast(s, w, h, CAMBI_BIG_WINDOW, d_reciprocal, what, where);
    }
    CU(cudaFree(d_plane));
    CU(cudaFree(d_rows));
    CU(cudaFree(d_cols));
    CU(cudaFree(d_reciprocal));
    CU(cudaFree(d_img));
    CU(cudaFree(d_out));
    CU(cudaFree(d_halved));
    CU(cudaFree(d_mask));
    CU(cudaFree(d_out_mask));
    cambi_cpu_free(s);
}

static const char *const option_sets[] = {
    "",
    "enc_bitdepth=8",
    "max_log_contrast=0",
    "max_log_contrast=5:eotf=pq",
    "max_log_contrast=3:cambi_vis_lum_threshold=20:tvi_threshold=0.005",
    "tvi_threshold=0.0001:max_log_contrast=4",
    "enc_width=217:enc_height=180:window_size=127",
};

int main(void)
{
    skip_without_device();
#ifndef CAMBI_CHECK_SIZES
#define CAMBI_CHECK_SIZES { 216, 150 }, { 241, 217 }, { 320, 240 }, { 1283, 219 }
#endif
    static const unsigned sizes[][2] = { CAMBI_CHECK_SIZES };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned di = 0; di < sizeof(depths) / sizeof(depths[0]); di++)
            for (int c = 0; c < CAMBI_CONTENTS; c++) {
                const unsigned w = sizes[si][0], h = sizes[si][1], bpc = depths[di];
                VqxPicture pic;
                if (vqx_picture_alloc(&pic, VQX_PIX_400, bpc, w, h)) return 1;
                rng = 0x9E3779B9u ^ (si * 7919u + di * 104729u + (unsigned)c * 1299709u);
                cambi_fill(&pic, (enum CambiContent)c);
                for (unsigned o = 0; o < sizeof(option_sets) / sizeof(option_sets[0]); o++) {
                    if (strstr(option_sets[o], "enc_width") && (w < 217 || h < 180)) continue;
                    char where[160];
                    snprintf(where, sizeof(where), "%ux%u %u-bit %s [%s]", w, h, bpc,
                             cambi_content_name[c], option_sets[o]);
                    const unsigned before = (unsigned)check_failed;
                    check_picture(&pic, option_sets[o], where);
                    printf("%s %s\n", (unsigned)check_failed == before ? "ok  " : "FAIL", where);
                    fflush(stdout);
                }
                vqx_picture_free(&pic);
            }
#ifndef CAMBI_CHECK_4K
#define CAMBI_CHECK_4K 1
#endif
    /* 4K: the full 65-pixel window, and the high-resolution speed-up */
    static const char *const options_4k[] = { "", "cambi_high_res_speedup=2160",
                                              "max_log_contrast=5:eotf=pq" };
    for (unsigned bpc = 8; CAMBI_CHECK_4K && bpc <= 10; bpc += 2) {
        VqxPicture pic;
        if (vqx_picture_alloc(&pic, VQX_PIX_400, bpc, 3840, 2160)) return 1;
        cambi_fill(&pic, CAMBI_NOISY_BANDS);
        for (unsigned o = 0; o < sizeof(options_4k) / sizeof(options_4k[0]); o++) {
            char where[160];
            snprintf(where, sizeof(where), "3840x2160 %u-bit noisy bands [%s]", bpc, options_4k[o]);
            const unsigned before = (unsigned)check_failed;
            check_picture(&pic, options_4k[o], where);
            printf("%s %s\n", (unsigned)check_failed == before ? "ok  " : "FAIL", where);
            fflush(stdout);
        }
        vqx_picture_free(&pic);
    }
    return check_report();
}
