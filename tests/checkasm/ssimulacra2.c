/*
 * checkasm module of SSIMULACRA 2's DSP table (src/feature/ssimulacra2_dsp.h):
 * XYB and products on rows of widths 0..70 and some large ones, the blurs,
 * the 2x2 means (also in place) and the error maps' sums on planes of 1..70
 * (1..80) columns and 1..40 rows, with strides past the width and
 * planes offset by a random number of floats from a 64-byte boundary.
 * Inputs: linear-light values in [0, 1], values outside it (negative light,
 * which the XYB clamps), zeros and ones, tiny and large magnitudes. Outputs
 * are compared bit for bit over the whole strided plane, so a write between
 * rows or past the last one fails as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/ssimulacra2_dsp.h"

enum Content { UNIT, WIDE, ZERO_ONE, MAGNITUDES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "[0,1]", "[-0.5,1.5]", "0 and 1",
                                                     "tiny to large" };

static float unit(void)
{
    return (float)(checkasm_rand() >> 8) * (1.0f / 16777216.0f);
}

static float value(enum Content c)
{
    switch (c) {
    case UNIT:
        return unit();
    case WIDE:
        return 2.0f * unit() - 0.5f;
    case ZERO_ONE:
        return (float)(checkasm_rand() & 1);
    default: {
        static const float m[] = { 1e-30f, 1e-6f, 0.25f, 3.0f, 1e4f };
        return m[checkasm_rand() % 5] * unit();
    }
    }
}

/* A plane of h rows of `stride` floats, the first w of each filled, the rest
 * canaries (copied alike into the outputs before a call). */
static float *plane_alloc(CheckasmBuf *b, ptrdiff_t stride, int h)
{
    *b = checkasm_buf_alloc(sizeof(float) * (size_t)(stride * (h ? h : 1)),
                            4 * (checkasm_rand() % 16));
    memset(b->p, 0xcd, sizeof(float) * (size_t)(stride * (h ? h : 1)));
    return (float *)b->p;
}

static void fill(float *p, ptrdiff_t stride, int w, int h, enum Content c)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) p[y * stride + x] = value(c);
}

static bool same_plane(const char *func, const char *isa, const float *ref, const float *new,
                       ptrdiff_t stride, int w, int h, enum Content c)
{
    char where[96];
    snprintf(where, sizeof(where), "%dx%d, stride %td, %s", w, h, stride, content_name[c]);
    return checkasm_compare(func, isa, "plane (bits)", CHECKASM_U32, ref, new,
                            (long)(stride * (h ? h : 1)), 0, where);
}

static bool check_xyb(Ssimu2XybRowFn ref, Ssimu2XybRowFn new, const char *isa, int w,
                      enum Content c)
{
    CheckasmBuf bi[3], bo[2][3];
    float *in[3], *out[2][3];
    for (int i = 0; i < 3; i++) {
        in[i] = plane_alloc(&bi[i], w + 1, 1);
        fill(in[i], w + 1, w, 1, c);
        for (int k = 0; k < 2; k++) out[k][i] = plane_alloc(&bo[k][i], w + 1, 1);
    }
    ref(in[0], in[1], in[2], out[0][0], out[0][1], out[0][2], w);
    new(in[0], in[1], in[2], out[1][0], out[1][1], out[1][2], w);
    bool ok = true;
    for (int i = 0; i < 3 && ok; i++)
        ok = same_plane("xyb_row", isa, out[0][i], out[1][i], w + 1, w, 1, c);
    for (int i = 0; i < 3; i++) {
        free(bi[i].mem);
        free(bo[0][i].mem);
        free(bo[1][i].mem);
    }
    return ok;
}

static bool check_multiply(Ssimu2MultiplyRowFn ref, Ssimu2MultiplyRowFn new, const char *isa,
                           int w, enum Content c)
{
    CheckasmBuf ba, bb, br, bn;
    float *a = plane_alloc(&ba, w + 1, 1), *b = plane_alloc(&bb, w + 1, 1);
    float *r = plane_alloc(&br, w + 1, 1), *n = plane_alloc(&bn, w + 1, 1);
    fill(a, w + 1, w, 1, c);
    fill(b, w + 1, w, 1, c);
    ref(a, b, r, w);
    new(a, b, n, w);
    const bool ok = same_plane("multiply_row", isa, r, n, w + 1, w, 1, c);
    free(ba.mem);
    free(bb.mem);
    free(br.mem);
    free(bn.mem);
    return ok;
}

typedef SSIMU2_BLUR_H((*BlurFn));

static bool check_blur(const char *func, BlurFn ref, BlurFn new, const char *isa,
                       const Ssimu2Gauss *g, int w, int h, enum Content c)
{
    const ptrdiff_t stride = w + (ptrdiff_t)(checkasm_rand() % 18);
    CheckasmBuf bi, br, bn;
    float *in = plane_alloc(&bi, stride, h), *r = plane_alloc(&br, stride, h);
    float *n = plane_alloc(&bn, stride, h);
    fill(in, stride, w, h, c);
    ref(g, in, r, stride, w, h);
    new(g, in, n, stride, w, h);
    const bool ok = same_plane(func, isa, r, n, stride, w, h, c);
    free(bi.mem);
    free(br.mem);
    free(bn.mem);
    return ok;
}

/* The 2x2 means in place (as the extractor runs them) and into another
 * plane. */
static bool check_downsample(Ssimu2DownsampleFn ref, Ssimu2DownsampleFn new, const char *isa,
                             int w, int h, enum Content c)
{
    const ptrdiff_t stride = w + (ptrdiff_t)(checkasm_rand() % 18);
    CheckasmBuf bi, br, bn;
    float *in = plane_alloc(&bi, stride, h), *r = plane_alloc(&br, stride, h);
    float *n = plane_alloc(&bn, stride, h);
    fill(in, stride, w, h, c);
    ref(in, r, stride, w, h);
    new(in, n, stride, w, h);
    bool ok = same_plane("downsample", isa, r, n, stride, w, h, c);
    memcpy(r, in, sizeof(float) * (size_t)(stride * h));
    memcpy(n, in, sizeof(float) * (size_t)(stride * h));
    ref(r, r, stride, w, h);
    new(n, n, stride, w, h);
    ok = ok && same_plane("downsample in place", isa, r, n, stride, w, h, c);
    free(bi.mem);
    free(br.mem);
    free(bn.mem);
    return ok;
}

typedef SSIMU2_SSIM_SUMS((*SsimSumsFn));
typedef SSIMU2_EDGE_SUMS((*EdgeSumsFn));

/* The error maps' sums over a w x h plane set, from running sums that are
 * not zero (the C adds to them in order). */
static bool check_sums(SsimSumsFn ssim_ref, SsimSumsFn ssim_new, EdgeSumsFn edge_ref,
                       EdgeSumsFn edge_new, const char *isa, int w, int h, enum Content c)
{
    const ptrdiff_t stride = w + (ptrdiff_t)(checkasm_rand() % 18);
    CheckasmBuf b[5];
    float *p[5];
    for (int i = 0; i < 5; i++) {
        p[i] = plane_alloc(&b[i], stride, h);
        fill(p[i], stride, w, h, c);
    }
    double sr[4], sn[4];
    for (int i = 0; i < 4; i++) sr[i] = sn[i] = (double)value(UNIT) * 100.0;
    char where[96];
    snprintf(where, sizeof(where), "%dx%d, stride %td, %s", w, h, stride, content_name[c]);
    bool ok = true;
    if (ssim_new) {
        ssim_ref(p[0], p[1], p[2], p[3], p[4], stride, w, h, sr);
        ssim_new(p[0], p[1], p[2], p[3], p[4], stride, w, h, sn);
        ok = checkasm_compare("ssim_sums", isa, "sums (bits)", CHECKASM_U64, sr, sn, 2, 0, where);
    } else {
        edge_ref(p[0], p[1], p[2], p[3], stride, w, h, sr);
        edge_new(p[0], p[1], p[2], p[3], stride, w, h, sn);
        ok = checkasm_compare("edge_sums", isa, "sums (bits)", CHECKASM_U64, sr, sn, 4, 0, where);
    }
    for (int i = 0; i < 5; i++) free(b[i].mem);
    return ok;
}

/* ---- bench: median ns per call on a 1920x1080 plane (rows: one row) ---- */

enum { BW = 1920, BH = 1080 };

static double bench_blur(BlurFn f, const Ssimu2Gauss *g)
{
    float *in = checkasm_malloc(sizeof(float) * BW * BH);
    float *out = checkasm_malloc(sizeof(float) * BW * BH);
    fill(in, BW, BW, BH, UNIT);
    double t[5];
    for (unsigned run = 0; run < 5; run++) {
        const double t0 = checkasm_now_ns();
        f(g, in, out, BW, BW, BH);
        t[run] = checkasm_now_ns() - t0;
    }
    free(in);
    free(out);
    return checkasm_median(t, 5);
}

static double bench_xyb(Ssimu2XybRowFn f)
{
    float *p = checkasm_malloc(sizeof(float) * 6 * BW);
    fill(p, 6 * BW, 3 * BW, 1, UNIT);
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        f(p, p + BW, p + 2 * BW, p + 3 * BW, p + 4 * BW, p + 5 * BW, BW);
        t[run] = checkasm_now_ns() - t0;
    }
    free(p);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(0)

void checkasm_check_ssimulacra2(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    Ssimu2DSPContext c, below, n;
    vqx_ssimu2_dsp_init(&c, 0);
    vqx_ssimu2_dsp_init(&below, level->below);
    vqx_ssimu2_dsp_init(&n, level->flags);
    Ssimu2Gauss g;
    vqx_ssimu2_gauss_init(&g);
    static const int heights[] = { 1, 2, 3, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 33, 40 };
    const unsigned n_heights = sizeof(heights) / sizeof(heights[0]);

    if (n.xyb_row != below.xyb_row) {
        bool ok = true;
        for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                ok = check_xyb(c.xyb_row, n.xyb_row, isa, (int)checkasm_width(wi, 0),
                               (enum Content)ct);
        checkasm_checked("ssimulacra2 xyb_row", isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench("ssimulacra2 xyb_row", isa, "1920 samples",
                                  bench_xyb(c.xyb_row), bench_xyb(n.xyb_row));
    }
    if (n.multiply_row != below.multiply_row) {
        bool ok = true;
        for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                ok = check_multiply(c.multiply_row, n.multiply_row, isa,
                                    (int)checkasm_width(wi, 0), (enum Content)ct);
        checkasm_checked("ssimulacra2 multiply_row", isa, ok);
    }
    if (n.downsample != below.downsample) {
        bool ok = true;
        for (int w = 1; w <= 80 && ok; w++)
            for (unsigned hi = 0; hi < n_heights && ok; hi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    ok = check_downsample(c.downsample, n.downsample, isa, w, heights[hi],
                                          (enum Content)ct);
        checkasm_checked("ssimulacra2 downsample", isa, ok);
    }
    const struct { const char *name; BlurFn ref, new, below; } blurs[] = {
        { "ssimulacra2 blur_h", c.blur_h, n.blur_h, below.blur_h },
        { "ssimulacra2 blur_v", c.blur_v, n.blur_v, below.blur_v },
    };
    for (unsigned b = 0; b < 2; b++) {
        if (blurs[b].new == blurs[b].below) continue;
        bool ok = true;
        for (int w = 1; w <= 70 && ok; w++)
            for (unsigned hi = 0; hi < n_heights && ok; hi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    ok = check_blur(blurs[b].name, blurs[b].ref, blurs[b].new, isa, &g, w,
                                    heights[hi], (enum Content)ct);
        checkasm_checked(blurs[b].name, isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(blurs[b].name, isa, "1920x1080", bench_blur(blurs[b].ref, &g),
                                  bench_blur(blurs[b].new, &g));
    }
    for (int m = 0; m < 2; m++) {
        if (m == 0 ? n.ssim_sums == below.ssim_sums : n.edge_sums == below.edge_sums) continue;
        bool ok = true;
        for (int w = 1; w <= 70 && ok; w++)
            for (unsigned hi = 0; hi < n_heights && ok; hi += 3)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    ok = check_sums(m == 0 ? c.ssim_sums : NULL, m == 0 ? n.ssim_sums : NULL,
                                    c.edge_sums, n.edge_sums, isa, w, heights[hi],
                                    (enum Content)ct);
        checkasm_checked(m == 0 ? "ssimulacra2 ssim_sums" : "ssimulacra2 edge_sums", isa, ok);
    }
}
