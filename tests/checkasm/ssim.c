/*
 * checkasm module of the SSIM DSP table (src/feature/ssim_dsp.h). Inputs
 * are float planes as float_ssim and float_ms_ssim see them: samples of 8
 * to 16 bits over 2^(bpc - 8), content random, 0, the peak, alternating
 * 0/peak and random extremes, and the squares and products the SSIM pass
 * filters. The filter in both shapes (shifted pointers into one row, and
 * eleven separate rows), widths 1..70 and some large ones; the scores on
 * statistics filtered from such planes, on flat windows (variances that
 * round below 0) and on arbitrary floats, added to running sums that do
 * not start at 0; the box row for factors 1..10 and 17, widths from the
 * factor up; the low-pass on planes 5..70 and some large widths wide, 5 to
 * 24 rows high. Rows start at random float offsets, plane strides are
 * random; outputs carry canary margins (and stride padding), which both
 * sides start equal. Floats and doubles are compared bit for bit; a
 * difference is reported at its first position.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/ssim_dsp.h"

enum Content { RANDOM, ZERO, PEAK, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "zero", "peak", "alternating",
                                                     "extremes" };

/* Sample (x, y) of a bpc-bit plane as float_picture converts it. */
static float sample(enum Content c, unsigned bpc, unsigned x, unsigned y)
{
    const unsigned peak = (1u << bpc) - 1;
    unsigned v;
    switch (c) {
    case ZERO: v = 0; break;
    case PEAK: v = peak; break;
    case ALTERNATE: v = (x + y) & 1 ? peak : 0; break;
    case EXTREMES: v = checkasm_rand() & 1 ? peak : 0; break;
    default: v = checkasm_rand() & peak; break;
    }
    return (float)v * (1.0f / (float)(1u << (bpc - 8)));
}

/* Random float in [lo, hi). */
static float uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)(checkasm_rand() >> 8) * (1.0f / 16777216.0f);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)
#define MARGIN 19

static float *row_alloc(CheckasmBuf *b, unsigned w)
{
    return checkasm_row_alloc(b, w, sizeof(float), MARGIN);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

/* Elements -MARGIN .. w + MARGIN - 1 of two float rows, bit for bit. */
static bool compare_floats(const char *func, const char *isa, const float *ref, const float *new,
                           long w, const char *where)
{
    for (long i = -MARGIN; i < w + MARGIN; i++) {
        if (float_bits(ref[i]) == float_bits(new[i])) continue;
        checkasm_fail(func, isa, "%s, x %ld: c %.9g (0x%08" PRIx32 "), simd %.9g (0x%08" PRIx32
                      ")%s", where, i, ref[i], float_bits(ref[i]), new[i], float_bits(new[i]),
                      i < 0 || i >= w ? " (outside the row)" : "");
        return false;
    }
    return true;
}

/* ---- filter ---- */

enum Shape { HORIZONTAL, VERTICAL };

static bool check_filter_one(SsimFilterFn ref, SsimFilterFn new, const char *isa, unsigned bpc,
                             unsigned n, enum Content c, enum Shape shape, bool squares)
{
    CheckasmBuf in[VQX_SSIM_WINDOW], ba, bb;
    const float *rows[VQX_SSIM_WINDOW];
    const unsigned n_in = shape == HORIZONTAL ? 1 : VQX_SSIM_WINDOW;
    const unsigned len = shape == HORIZONTAL ? n + VQX_SSIM_WINDOW - 1 : n;
    for (unsigned k = 0; k < n_in; k++) {
        float *p = row_alloc(&in[k], len);
        for (unsigned x = 0; x < len; x++) {
            const float a = sample(c, bpc, x, k), b = sample(c, bpc, x + 1, k);
            p[x] = squares ? a * b : a;
        }
        rows[k] = p;
    }
    if (shape == HORIZONTAL)
        for (unsigned k = 1; k < VQX_SSIM_WINDOW; k++) rows[k] = rows[0] + k;
    float *a = row_alloc(&ba, n), *b = row_alloc(&bb, n);
    ref(rows, n, a);
    new(rows, n, b);
    char where[128];
    snprintf(where, sizeof(where), "%u-bit, %s, %s%s, %u outputs", bpc, content_name[c],
             shape == HORIZONTAL ? "one row" : "eleven rows", squares ? ", products" : "", n);
    const bool ok = compare_floats("filter", isa, a, b, n, where);
    for (unsigned k = 0; k < n_in; k++) free(in[k].mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* ---- score ---- */

enum StatsKind { FILTERED, FLAT, ARBITRARY, N_STATS_KIND };
static const char *const stats_name[N_STATS_KIND] = { "filtered", "flat", "arbitrary" };

/* Statistics of n positions: filtered from planes of `c` (as the SSIM pass
 * computes them), flat windows (the squares' mean rounded near mu^2, so
 * that variances round below 0 and covariances to tiny negatives), or
 * arbitrary floats of the range. */
static void make_stats(float *st[VQX_SSIM_N_STATS], unsigned n, unsigned bpc, enum Content c,
                       enum StatsKind kind)
{
    if (kind == FILTERED) {
        /* the vertical pass of 11 horizontally filtered rows */
        const unsigned len = n + VQX_SSIM_WINDOW - 1;
        float *plane[2], *sq[VQX_SSIM_N_STATS], *mid[VQX_SSIM_N_STATS][VQX_SSIM_WINDOW];
        for (unsigned i = 0; i < 2; i++) plane[i] = checkasm_malloc(len * sizeof(float));
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
            sq[q] = checkasm_malloc(len * sizeof(float));
            for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++)
                mid[q][k] = checkasm_malloc(n * sizeof(float));
        }
        for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) {
            for (unsigned x = 0; x < len; x++) {
                plane[0][x] = sample(c, bpc, x, k);
                /* the distorted plane: the reference or a mix */
                plane[1][x] = checkasm_rand() % 4 ? plane[0][x] : sample(c, bpc, x + 1, k);
                sq[0][x] = plane[0][x];
                sq[1][x] = plane[1][x];
                sq[2][x] = plane[0][x] * plane[0][x];
                sq[3][x] = plane[1][x] * plane[1][x];
                sq[4][x] = plane[0][x] * plane[1][x];
            }
            for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
                const float *shifted[VQX_SSIM_WINDOW];
                for (unsigned i = 0; i < VQX_SSIM_WINDOW; i++) shifted[i] = sq[q] + i;
                vqx_ssim_filter_c(shifted, n, mid[q][k]);
            }
        }
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
            vqx_ssim_filter_c((const float *const *)mid[q], n, st[q]);
            for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) free(mid[q][k]);
            free(sq[q]);
        }
        free(plane[0]);
        free(plane[1]);
        return;
    }
    const float top = (float)((1u << bpc) - 1) / (float)(1u << (bpc - 8));
    for (unsigned x = 0; x < n; x++) {
        if (kind == FLAT) {
            const float mu = uniform(0.0f, top), mu2 = checkasm_rand() & 1 ? mu : uniform(0, top);
            const int nudge = (int)(checkasm_rand() % 5) - 2;
            st[VQX_SSIM_MU_REF][x] = mu;
            st[VQX_SSIM_MU_CMP][x] = mu2;
            st[VQX_SSIM_SQ_REF][x] = mu * mu * (1.0f + (float)nudge * 1e-7f);
            st[VQX_SSIM_SQ_CMP][x] = mu2 * mu2 * (1.0f - (float)nudge * 1e-7f);
            st[VQX_SSIM_CROSS][x] = mu * mu2 * (1.0f + (float)(nudge - 1) * 1e-7f);
        } else {
            for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++)
                st[q][x] = q < VQX_SSIM_SQ_REF ? uniform(0.0f, top) : uniform(-10.0f, top * top);
        }
    }
}

static bool check_score_one(SsimScoreFn ref, SsimScoreFn new, const char *isa, unsigned bpc,
                            unsigned n, enum Content c, enum StatsKind kind)
{
    CheckasmBuf b[VQX_SSIM_N_STATS];
    float *st[VQX_SSIM_N_STATS];
    for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) st[q] = row_alloc(&b[q], n);
    make_stats(st, n, bpc, c, kind);
    double sa[VQX_SSIM_N_SUMS], sb[VQX_SSIM_N_SUMS];
    for (unsigned i = 0; i < VQX_SSIM_N_SUMS; i++)
        sa[i] = sb[i] = checkasm_rand() & 1 ? 0.0 : (double)uniform(0.0f, 1000.0f);
    ref((const float *const *)st, n, sa);
    new((const float *const *)st, n, sb);
    bool ok = true;
    static const char *const sum_name[VQX_SSIM_N_SUMS] = { "ssim", "l", "c", "s" };
    for (unsigned i = 0; i < VQX_SSIM_N_SUMS && ok; i++) {
        if (double_bits(sa[i]) == double_bits(sb[i])) continue;
        /* the first position whose terms differ: each position alone, in
         * every lane of a vector (a short call would be the C's) */
        unsigned at = n;
        for (unsigned x = 0; x < n && at == n; x++) {
            enum { COPIES = 16 };
            float one[VQX_SSIM_N_STATS][COPIES];
            const float *rows[VQX_SSIM_N_STATS];
            for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
                for (unsigned i = 0; i < COPIES; i++) one[q][i] = st[q][x];
                rows[q] = one[q];
            }
            double ta[VQX_SSIM_N_SUMS] = { 0 }, tb[VQX_SSIM_N_SUMS] = { 0 };
            ref(rows, COPIES, ta);
            new(rows, COPIES, tb);
            if (memcmp(ta, tb, sizeof(ta))) at = x;
        }
        checkasm_fail("score", isa, "%u-bit, %s, %s stats, %u positions: sum %s c %.17g, simd "
                      "%.17g; first differing position %u (%u: none alone)", bpc, content_name[c],
                      stats_name[kind], n, sum_name[i], sa[i], sb[i], at, n);
        ok = false;
    }
    for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) free(b[q].mem);
    return ok;
}

/* ---- box row ---- */

static bool check_box_one(SsimBoxRowFn ref, SsimBoxRowFn new, const char *isa, unsigned bpc,
                          unsigned w, unsigned factor, enum Content c)
{
    CheckasmBuf in[17], ba, bb;
    const float *rows[17];
    for (unsigned v = 0; v < factor; v++) {
        float *p = row_alloc(&in[v], w);
        for (unsigned x = 0; x < w; x++) p[x] = sample(c, bpc, x, v);
        rows[v] = p;
    }
    const unsigned dw = vqx_ssim_decimated(w, factor);
    float *a = row_alloc(&ba, dw), *b = row_alloc(&bb, dw);
    ref(rows, w, factor, a);
    new(rows, w, factor, b);
    char where[128];
    snprintf(where, sizeof(where), "%u-bit, %s, factor %u, width %u", bpc, content_name[c],
             factor, w);
    const bool ok = compare_floats("box_row", isa, a, b, dw, where);
    for (unsigned v = 0; v < factor; v++) free(in[v].mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* ---- low-pass decimation ---- */

typedef struct Plane {
    CheckasmBuf b;
    float *p;
    ptrdiff_t stride;
    size_t n; /* floats from p - MARGIN to the end */
} Plane;

/* h rows of `stride` floats at a random float offset, all canaries (0xcd
 * bytes), with MARGIN more before and after. */
static Plane plane_alloc(ptrdiff_t stride, unsigned h, unsigned offset)
{
    Plane pl;
    pl.stride = stride;
    pl.n = (size_t)stride * h + 2 * MARGIN;
    pl.b = checkasm_buf_alloc(pl.n * sizeof(float), (unsigned)sizeof(float) * offset);
    memset(pl.b.p, 0xcd, pl.n * sizeof(float));
    pl.p = (float *)(void *)pl.b.p + MARGIN;
    return pl;
}

static ptrdiff_t random_stride(unsigned w)
{
    return (ptrdiff_t)(w + checkasm_rand() % 24);
}

static bool check_lpf_one(SsimLpfDecimateFn ref, SsimLpfDecimateFn new, const char *isa,
                          unsigned bpc, unsigned w, enum Content c)
{
    const unsigned h = 5 + checkasm_rand() % 20;
    Plane src = plane_alloc(random_stride(w), h, checkasm_rand() % 16);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) src.p[y * src.stride + x] = sample(c, bpc, x, y);
    const unsigned dw = vqx_ssim_decimated(w, 2), dh = vqx_ssim_decimated(h, 2);
    const ptrdiff_t stride = random_stride(dw);
    const unsigned offset = checkasm_rand() % 16;
    Plane a = plane_alloc(stride, dh, offset), b = plane_alloc(stride, dh, offset);
    ref(src.p, src.stride, w, h, a.p, a.stride);
    new(src.p, src.stride, w, h, b.p, b.stride);
    /* the whole buffer: rows, their padding and the margins */
    bool ok = true;
    const float *pa = a.p - MARGIN, *pb = b.p - MARGIN;
    for (size_t i = 0; i < a.n && ok; i++) {
        if (float_bits(pa[i]) == float_bits(pb[i])) continue;
        const long at = (long)i - MARGIN;
        const long y = at < 0 ? -1 : at / stride, x = at < 0 ? at : at % stride;
        checkasm_fail("lpf_decimate", isa, "%u-bit, %s, %ux%u, strides %td/%td: (%ld, %ld): c "
                      "%.9g (0x%08" PRIx32 "), simd %.9g (0x%08" PRIx32 ")%s", bpc,
                      content_name[c], w, h, src.stride, stride, x, y, pa[i], float_bits(pa[i]),
                      pb[i], float_bits(pb[i]),
                      at < 0 || y >= (long)dh || x >= (long)dw ? " (outside the plane)" : "");
        ok = false;
    }
    free(src.b.mem);
    free(a.b.mem);
    free(b.b.mem);
    return ok;
}

/* ---- bench: median ns per call ---- */

typedef enum BenchWhat { BENCH_FILTER, BENCH_SCORE, BENCH_BOX, BENCH_LPF } BenchWhat;

static double bench_one(const SsimDSPContext *d, BenchWhat what)
{
    const unsigned w = 1920, h = 64, factor = 4;
    Plane src = plane_alloc(w, h, 0), dst = plane_alloc(w, h, 0);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) src.p[y * src.stride + x] = sample(RANDOM, 8, x, y);
    const float *rows[VQX_SSIM_WINDOW];
    for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) rows[k] = src.p + k * src.stride;
    float *st[VQX_SSIM_N_STATS];
    for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) st[q] = dst.p + q * dst.stride;
    make_stats(st, w - 10, 8, RANDOM, FILTERED);
    double sums[VQX_SSIM_N_SUMS] = { 0 };
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        switch (what) {
        case BENCH_FILTER: d->filter(rows, w - 10, dst.p + 8 * dst.stride); break;
        case BENCH_SCORE: d->score((const float *const *)st, w - 10, sums); break;
        case BENCH_BOX: d->box_row(rows, w, factor, dst.p + 8 * dst.stride); break;
        case BENCH_LPF: d->lpf_decimate(src.p, src.stride, w, h, dst.p, dst.stride); break;
        }
        t[run] = checkasm_now_ns() - t0;
    }
    free(src.b.mem);
    free(dst.b.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

void checkasm_check_ssim(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    SsimDSPContext c, below, n;
    vqx_ssim_dsp_init(&c, 0);
    vqx_ssim_dsp_init(&below, level->below);
    vqx_ssim_dsp_init(&n, level->flags);

    if (n.filter != below.filter) {
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    for (unsigned sh = 0; sh < 4 && ok; sh++)
                        ok = check_filter_one(c.filter, n.filter, isa, checkasm_bpc[bi],
                                              checkasm_width(wi, 1), (enum Content)ct,
                                              (enum Shape)(sh & 1), sh >= 2);
        checkasm_checked("filter", isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench("filter", isa, "1910 outputs", bench_one(&c, BENCH_FILTER),
                                  bench_one(&n, BENCH_FILTER));
    }
    if (n.score != below.score) {
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    for (int k = 0; k < N_STATS_KIND && ok; k++)
                        ok = check_score_one(c.score, n.score, isa, checkasm_bpc[bi],
                                             checkasm_width(wi, 1), (enum Content)ct,
                                             (enum StatsKind)k);
        checkasm_checked("score", isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench("score", isa, "1910 positions", bench_one(&c, BENCH_SCORE),
                                  bench_one(&n, BENCH_SCORE));
    }
    if (n.box_row != below.box_row) {
        static const unsigned factors[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17 };
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
            for (unsigned fi = 0; fi < sizeof(factors) / sizeof(factors[0]) && ok; fi++)
                for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++) {
                        const unsigned f = factors[fi], w = checkasm_width(wi, 1);
                        if (w >= f)
                            ok = check_box_one(c.box_row, n.box_row, isa, checkasm_bpc[bi], w,
                                               f, (enum Content)ct);
                    }
        checkasm_checked("box_row", isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench("box_row", isa, "1920, factor 4", bench_one(&c, BENCH_BOX),
                                  bench_one(&n, BENCH_BOX));
    }
    if (n.lpf_decimate != below.lpf_decimate) {
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
            for (unsigned wi = 0; wi < CHECKASM_N_WIDTHS(5) && ok; wi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++) {
                    const unsigned w = checkasm_width(wi, 5);
                    ok = check_lpf_one(c.lpf_decimate, n.lpf_decimate, isa, checkasm_bpc[bi], w,
                                       (enum Content)ct);
                }
        checkasm_checked("lpf_decimate", isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench("lpf_decimate", isa, "1920x64", bench_one(&c, BENCH_LPF),
                                  bench_one(&n, BENCH_LPF));
    }
}
