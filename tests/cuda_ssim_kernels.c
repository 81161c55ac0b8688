/*
 * Stage-level checks of the float_ssim and float_ms_ssim CUDA kernels
 * (cuda/ssim_kernels.h) against the CPU's scalar C table entries
 * (feature/ssim_dsp.h) and its streaming SSIM (vqx_ssim_plane), value for
 * value, bits compared: the lumas converted to floats; float_ssim's box
 * decimation at the automatic factor and at factors 2, 3, 4, 5 and 10; the
 * 9x9 low-pass of every pyramid step; per plane (each scale of the
 * pyramid, and the box-decimated plane) the horizontal pass of the five
 * quantities, the vertical pass (the window statistics), every position's
 * l, c and s, and the four running sums, which must be the CPU's chains;
 * the sums of all the pyramid's scales in one launch, with float_ms_ssim's
 * three sums only (the others must stay unwritten); and the means from the
 * device's sums against vqx_ssim_plane's. Each kernel reads the CPU's input
 * of its stage, so a difference points at one kernel. Contents: random full
 * range, extremes (blocks of 0 and of the maximum, a checkerboard, single
 * extreme samples), smooth with noise, equal pictures, and flat blocks
 * equal in both pictures (windows of zero variance and covariance); 8, 10,
 * 12 and 16 bits; odd sizes, the smallest (11x11) and 1920x1080.
 * Exits 77 (meson's skip) without a CUDA device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "cuda_check.h"
#include "picture_content.h"
#include "xorshift.h"
#include "cuda/kernels.h"
#include "cuda/ssim_kernels.h"
#include "feature/float_picture.h"
#include "feature/ssim_core.h"
#include "feature/ssim_dsp.h"

/* Extra samples at the end of each device input row: the kernels take a pitch. */
#define PITCH_PAD 5

static FloatPictureDSPContext cpu_conversion;

/* Differences of two arrays of `size`-byte values (4 or 8), bits compared;
 * reports the first. */
static unsigned differ(const void *gpu, const void *cpu, size_t n, size_t size, size_t w,
                       const char *what, const char *where)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t g = 0, c = 0;
        memcpy(&g, (const char *)gpu + i * size, size);
        memcpy(&c, (const char *)cpu + i * size, size);
        if (g != c && !bad++)
            printf("  %s %s at (%zu, %zu): cuda 0x%llx cpu 0x%llx\n", where, what, i % w, i / w,
                   (unsigned long long)g, (unsigned long long)c);
    }
    return bad;
}

/* A device buffer against the CPU's n values. */
static void expect_equal(const void *dev, const void *cpu, size_t n, size_t size, size_t w,
                         const char *what, const char *where)
{
    void *g = host_copy(dev, n * size);
    const unsigned bad = differ(g, cpu, n, size, w, what, where);
    CHECK(!bad, "%s %s: %u differences", where, what, bad);
    free(g);
}

static float *floats(size_t n)
{
    float *p = malloc((n ? n : 1) * sizeof(float));
    if (!p) exit(1);
    return p;
}

/* The device's conversion of a picture's luma against the CPU's (planes
 * out: the CPU's). */
static void check_conversion(const VqxPicture *pic, float *cpu, const char *where)
{
    const unsigned w = pic->w[0], h = pic->h[0];
    const size_t bps = pic->bpc == 8 ? 1 : 2, pitch = w + PITCH_PAD;
    vqx_float_plane(&cpu_conversion, cpu, w, pic, 0, 0.0f);
    void *d_src = dev_alloc(pitch * bps * h);
    CU(cudaMemcpy2D(d_src, pitch * bps, pic->data[0], (size_t)pic->stride[0], w * bps, h,
                    cudaMemcpyHostToDevice));
    float *d_dst = dev_alloc((size_t)w * h * sizeof(float));
    CU_LAUNCH(vqx_cuda_float_convert(d_src, pitch, (int)w, (int)h, pic->bpc, 0.0f, d_dst, NULL));
    expect_equal(d_dst, cpu, (size_t)w * h, sizeof(float), w, "converted luma", where);
    CU(cudaFree(d_src));
    CU(cudaFree(d_dst));
}

/* float_ssim's box by `factor` of the CPU's plane; the CPU's result in *out
 * (dw x dh), NULL when the factor leaves no plane. */
static void check_box(const float *plane, unsigned w, unsigned h, unsigned factor, float **out,
                      unsigned *dw, unsigned *dh, const char *where)
{
    *dw = vqx_ssim_decimated(w, factor);
    *dh = vqx_ssim_decimated(h, factor);
    *out = NULL;
    if (!*dw || !*dh) return;
    float *cpu = floats((size_t)*dw * *dh);
    const float **rows = malloc(factor * sizeof(*rows));
    if (!rows) exit(1);
    for (unsigned y = 0; y < *dh; y++) {
        for (unsigned v = 0; v < factor; v++)
            rows[v] = plane + (size_t)vqx_ssim_box_row(y, v, factor, h) * w;
        vqx_ssim_box_row_c(rows, w, factor, cpu + (size_t)y * *dw);
    }
    free(rows);
    float *d_src = dev_upload(plane, (size_t)w * h * sizeof(float));
    float *d_dst = dev_alloc((size_t)*dw * *dh * sizeof(float));
    CU_LAUNCH(vqx_cuda_ssim_box(d_src, (int)w, (int)h, factor, d_dst, (int)*dw, (int)*dh, NULL));
    char what[64];
    snprintf(what, sizeof(what), "box by %u", factor);
    expect_equal(d_dst, cpu, (size_t)*dw * *dh, sizeof(float), *dw, what, where);
    CU(cudaFree(d_src));
    CU(cudaFree(d_dst));
    *out = cpu;
}

/* One pyramid step of the CPU's plane; the CPU's result in *out. */
static void check_lpf(const float *plane, unsigned w, unsigned h, float **out, unsigned *dw,
                      unsigned *dh, const char *where)
{
    *dw = vqx_ssim_decimated(w, 2);
    *dh = vqx_ssim_decimated(h, 2);
    float *cpu = floats((size_t)*dw * *dh);
    vqx_ssim_lpf_decimate_c(plane, w, w, h, cpu, *dw);
    float *d_src = dev_upload(plane, (size_t)w * h * sizeof(float));
    float *d_dst = dev_alloc((size_t)*dw * *dh * sizeof(float));
    CU_LAUNCH(vqx_cuda_ssim_lpf(d_src, (int)w, (int)h, d_dst, (int)*dw, (int)*dh, NULL));
    char what[64];
    snprintf(what, sizeof(what), "low-pass of %ux%u", w, h);
    expect_equal(d_dst, cpu, (size_t)*dw * *dh, sizeof(float), *dw, what, where);
    CU(cudaFree(d_src));
    CU(cudaFree(d_dst));
    *out = cpu;
}

/* The device's terms of a plane pair, kept for the sums. */
typedef struct DeviceTerms {
    double *terms;
    size_t positions;
} DeviceTerms;

/* Every stage of the SSIM of the CPU's planes ref, cmp (w x h): the
 * horizontal pass, the statistics, the terms and the four sums against the
 * C entries'; the CPU's sums in cpu_sums; the device's terms stay in *out. */
static void check_plane(const float *ref, const float *cmp, unsigned w, unsigned h,
                        double cpu_sums[VQX_SSIM_N_SUMS], DeviceTerms *out, const char *where)
{
    const unsigned ow = w - (VQX_SSIM_WINDOW - 1), oh = h - (VQX_SSIM_WINDOW - 1);
    const size_t in_plane = (size_t)ow * h, plane = (size_t)ow * oh;
    /* the CPU: the five quantities of each row, filtered along the row ... */
    float *quantity = floats((size_t)VQX_SSIM_N_STATS * w);
    float *horizontal = floats(VQX_SSIM_N_STATS * in_plane);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            float q[VQX_SSIM_N_STATS];
            vqx_ssim_inputs(ref[(size_t)y * w + x], cmp[(size_t)y * w + x], q);
            for (unsigned k = 0; k < VQX_SSIM_N_STATS; k++) quantity[k * w + x] = q[k];
        }
        for (unsigned k = 0; k < VQX_SSIM_N_STATS; k++) {
            const float *shifted[VQX_SSIM_WINDOW];
            for (unsigned t = 0; t < VQX_SSIM_WINDOW; t++) shifted[t] = quantity + k * w + t;
            vqx_ssim_filter_c(shifted, ow, horizontal + k * in_plane + (size_t)y * ow);
        }
    }
    /* ... then down the columns, scored row by row */
    float *stats = floats(VQX_SSIM_N_STATS * plane);
    double *terms = malloc(VQX_SSIM_N_TERMS * plane * sizeof(double));
    if (!terms) exit(1);
    for (unsigned k = 0; k < VQX_SSIM_N_SUMS; k++) cpu_sums[k] = 0.0;
    for (unsigned y = 0; y < oh; y++) {
        const float *st[VQX_SSIM_N_STATS];
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
            const float *rows[VQX_SSIM_WINDOW];
            for (unsigned t = 0; t < VQX_SSIM_WINDOW; t++)
                rows[t] = horizontal + q * in_plane + (size_t)(y + t) * ow;
            float *dst = stats + q * plane + (size_t)y * ow;
            vqx_ssim_filter_c(rows, ow, dst);
            st[q] = dst;
        }
        vqx_ssim_score_c(st, ow, cpu_sums);
        for (unsigned x = 0; x < ow; x++) {
            float s[VQX_SSIM_N_STATS];
            double t[VQX_SSIM_N_TERMS];
            for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) s[q] = st[q][x];
            vqx_ssim_terms(s, t);
            for (unsigned i = 0; i < VQX_SSIM_N_TERMS; i++)
                terms[i * plane + (size_t)y * ow + x] = t[i];
        }
    }

    const VqxCudaSsimPlane job = {
        .ref = dev_upload(ref, (size_t)w * h * sizeof(float)),
        .cmp = dev_upload(cmp, (size_t)w * h * sizeof(float)),
        .w = (int)w, .h = (int)h,
        .horizontal = dev_alloc(VQX_SSIM_N_STATS * in_plane * sizeof(float)),
        .stats = dev_alloc(VQX_SSIM_N_STATS * plane * sizeof(float)),
        .terms = dev_alloc(VQX_SSIM_N_TERMS * plane * sizeof(double)),
    };
    CU_LAUNCH(vqx_cuda_ssim_terms(&job, NULL));
    static const char *const stat_name[VQX_SSIM_N_STATS] = { "mu ref", "mu cmp", "ref^2",
                                                             "cmp^2", "ref cmp" };
    static const char *const term_name[VQX_SSIM_N_TERMS] = { "l", "c", "s" };
    char what[64];
    for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
        snprintf(what, sizeof(what), "%ux%u horizontal %s", w, h, stat_name[q]);
        expect_equal(job.horizontal + q * in_plane, horizontal + q * in_plane, in_plane,
                     sizeof(float), ow, what, where);
        snprintf(what, sizeof(what), "%ux%u statistic %s", w, h, stat_name[q]);
        expect_equal(job.stats + q * plane, stats + q * plane, plane, sizeof(float), ow, what,
                     where);
    }
    for (unsigned i = 0; i < VQX_SSIM_N_TERMS; i++) {
        snprintf(what, sizeof(what), "%ux%u term %s", w, h, term_name[i]);
        expect_equal(job.terms + i * plane, terms + i * plane, plane, sizeof(double), ow, what,
                     where);
    }

    /* the four chains of this plane alone */
    const VqxCudaSsimChains chains = { .terms = { job.terms }, .positions = { plane },
                                       .n_planes = 1, .sums = (1u << VQX_SSIM_N_SUMS) - 1 };
    double(*d_sums)[VQX_SSIM_N_SUMS] = dev_alloc(sizeof(double[VQX_SSIM_N_SUMS]));
    CU_LAUNCH(vqx_cuda_ssim_sums(&chains, d_sums, NULL));
    snprintf(what, sizeof(what), "%ux%u sums", w, h);
    expect_equal(d_sums, cpu_sums, VQX_SSIM_N_SUMS, sizeof(double), VQX_SSIM_N_SUMS, what, where);

    CU(cudaFree((void *)job.ref));
    CU(cudaFree((void *)job.cmp));
    CU(cudaFree(job.horizontal));
    CU(cudaFree(job.stats));
    CU(cudaFree(d_sums));
    *out = (DeviceTerms){ job.terms, plane };
    free(quantity);
    free(horizontal);
    free(stats);
    free(terms);
}

/* The means from sums against the CPU's streaming SSIM of the planes. */
static void check_means(const double sums[VQX_SSIM_N_SUMS], const float *ref, const float *cmp,
                        unsigned w, unsigned h, const char *what, const char *where)
{
    VqxSsimScratch scratch;
    if (vqx_ssim_scratch_init(&scratch, w, 0)) exit(1);
    VqxSsimMeans cpu, gpu;
    vqx_ssim_plane(&scratch, ref, cmp, w, w, h, &cpu);
    vqx_ssim_scratch_free(&scratch);
    vqx_ssim_means(sums, w, h, &gpu);
    CHECK(!memcmp(&cpu, &gpu, sizeof(cpu)), "%s %s: means (%.9g %.9g %.9g %.9g) against the "
          "cpu's (%.9g %.9g %.9g %.9g)", where, what, gpu.ssim, gpu.l, gpu.c, gpu.s, cpu.ssim,
          cpu.l, cpu.c, cpu.s);
}

/* libvmaf's automatic factor as float_ssim computes it. */
static unsigned automatic_factor(unsigned w, unsigned h)
{
    const float q = (float)(w < h ? w : h) / 256.0f;
    const int whole = (int)q;
    const int rounded = q - whole >= 0.5 ? whole + 1 : whole;
    return rounded > 1 ? (unsigned)rounded : 1;
}

static void check_picture(const VqxPicture *ref, const VqxPicture *dis, const char *where)
{
    const unsigned w = ref->w[0], h = ref->h[0];
    float *planes[2] = { floats((size_t)w * h), floats((size_t)w * h) };
    check_conversion(ref, planes[0], where);
    check_conversion(dis, planes[1], where);

    /* float_ssim: each factor's box of both planes, and its SSIM */
    const unsigned factors[] = { automatic_factor(w, h), 2, 3, 4, 5, 10 };
    for (unsigned f = 0; f < sizeof(factors) / sizeof(factors[0]); f++) {
        if (f && factors[f] == factors[0]) continue;
        if (factors[f] == 1) continue; /* no decimation: the pyramid's scale 0 below */
        float *small[2];
        unsigned dw, dh;
        check_box(planes[0], w, h, factors[f], &small[0], &dw, &dh, where);
        check_box(planes[1], w, h, factors[f], &small[1], &dw, &dh, where);
        if (small[0] && dw >= VQX_SSIM_WINDOW && dh >= VQX_SSIM_WINDOW) {
            double sums[VQX_SSIM_N_SUMS];
            DeviceTerms t;
            check_plane(small[0], small[1], dw, dh, sums, &t, where);
            char what[64];
            snprintf(what, sizeof(what), "box by %u", factors[f]);
            check_means(sums, small[0], small[1], dw, dh, what, where);
            CU(cudaFree(t.terms));
        }
        free(small[0]);
        free(small[1]);
    }

    /* float_ms_ssim: the pyramid while its scales have an SSIM window
     * (and the low-pass of the first that has not), each scale's stages,
     * then the sums of every scale in one launch */
    enum { MAX = VQX_CUDA_SSIM_MAX_PLANES };
    float *kept[MAX + 1][2] = { { planes[0], planes[1] } };
    unsigned dims[MAX + 1][2] = { { w, h } };
    DeviceTerms terms[MAX];
    double cpu_sums[MAX][VQX_SSIM_N_SUMS];
    int n = 0; /* scales with an SSIM window */
    for (;;) {
        if (dims[n][0] < VQX_SSIM_WINDOW || dims[n][1] < VQX_SSIM_WINDOW) {
            if (n) {
                free(kept[n][0]);
                free(kept[n][1]);
            }
            break;
        }
        check_plane(kept[n][0], kept[n][1], dims[n][0], dims[n][1], cpu_sums[n], &terms[n],
                    where);
        if (++n == MAX) break;
        for (int i = 0; i < 2; i++)
            check_lpf(kept[n - 1][i], dims[n - 1][0], dims[n - 1][1], &kept[n][i], &dims[n][0],
                      &dims[n][1], where);
    }
    if (n) {
        VqxCudaSsimChains chains = {
            .n_planes = n,
            .sums = 1u << VQX_SSIM_SUM_L | 1u << VQX_SSIM_SUM_C | 1u << VQX_SSIM_SUM_S,
        };
        for (int i = 0; i < n; i++) {
            chains.terms[i] = terms[i].terms;
            chains.positions[i] = terms[i].positions;
        }
        const size_t bytes = (size_t)n * sizeof(double[VQX_SSIM_N_SUMS]);
        double(*d_sums)[VQX_SSIM_N_SUMS] = dev_alloc(bytes);
        CU_LAUNCH(vqx_cuda_ssim_sums(&chains, d_sums, NULL));
        double(*gpu)[VQX_SSIM_N_SUMS] = host_copy(d_sums, bytes);
        double poison;
        memset(&poison, 0xA5, sizeof(poison));
        for (int i = 0; i < n; i++) {
            char what[64];
            snprintf(what, sizeof(what), "pyramid scale %d sums", i);
            const unsigned bad = differ(gpu[i] + VQX_SSIM_SUM_L, cpu_sums[i] + VQX_SSIM_SUM_L, 3,
                                        sizeof(double), 3, what, where);
            CHECK(!bad, "%s %s: %u differences", where, what, bad);
            CHECK(!memcmp(&gpu[i][VQX_SSIM_SUM_SSIM], &poison, sizeof(poison)),
                  "%s %s: the unrequested sum was written", where, what);
            double sums[VQX_SSIM_N_SUMS];
            memcpy(sums, gpu[i], sizeof(sums));
            sums[VQX_SSIM_SUM_SSIM] = cpu_sums[i][VQX_SSIM_SUM_SSIM];
            check_means(sums, kept[i][0], kept[i][1], dims[i][0], dims[i][1], what, where);
        }
        free(gpu);
        CU(cudaFree(d_sums));
    }
    for (int i = 0; i < n; i++) {
        CU(cudaFree(terms[i].terms));
        if (i) {
            free(kept[i][0]);
            free(kept[i][1]);
        }
    }
    free(planes[0]);
    free(planes[1]);
}

int main(void)
{
    vqx_float_picture_dsp_init(&cpu_conversion, 0);
    skip_without_device();
    static const unsigned sizes[][2] = { { 11, 11 }, { 16, 16 }, { 33, 33 }, { 37, 35 },
                                         { 300, 41 }, { 97, 530 }, { 1290, 36 },
                                         { 1920, 1080 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned di = 0; di < 4; di++)
            for (int c = 0; c < N_CONTENTS; c++) {
                const unsigned w = sizes[si][0], h = sizes[si][1], bpc = depths[di];
                /* the large frame: one content a depth */
                if (w == 1920 && c != (int)di % N_CONTENTS) continue;
                VqxPicture ref, dis;
                if (vqx_picture_alloc(&ref, VQX_PIX_400, bpc, w, h) ||
                    vqx_picture_alloc(&dis, VQX_PIX_400, bpc, w, h))
                    return 1;
                rng = 0x9E3779B9u ^ (si * 7919u + di * 104729u + (unsigned)c * 1299709u);
                fill(&ref, &dis, (enum Content)c);
                char where[96];
                snprintf(where, sizeof(where), "%ux%u %u-bit %s", w, h, bpc, content_name[c]);
                check_picture(&ref, &dis, where);
                vqx_picture_free(&ref);
                vqx_picture_free(&dis);
            }
    return check_report();
}
