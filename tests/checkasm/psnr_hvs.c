/*
 * checkasm module of psnr_hvs's DSP table (src/feature/psnr_hvs_dsp.h):
 * block_terms at every depth that has a SIMD entry, on rows of 1..40
 * blocks and some long ones, starting at random rows and columns of planes
 * that end where the last block does or a few samples later (odd widths),
 * random strides, buffers offset by 1..63 bytes (even for 16-bit samples)
 * and ending with the plane, so that a read past it is out of bounds;
 * content random, near-equal (most terms masked to 0), equal, 0 against
 * the peak and the peak against 0, alternating, random extremes, flat
 * blocks (variance 0) on one or both sides, and the CSF weights of luma
 * and chroma. The terms are compared bit for bit with canaries on either
 * side. accumulate on runs of terms with zeros (+0 and -0) in any share,
 * tiny and huge terms, infinities and NaN, from totals +0, -0, small and
 * large.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/psnr_hvs_dsp.h"

#define TERMS PSNR_HVS_TERMS
/* canary floats on either side of the terms */
#define MARGIN 16

enum Content { RANDOM, NEAR, EQUAL, ZERO_PEAK, PEAK_ZERO, ALTERNATE, EXTREMES, FLAT, FLAT_REF,
               N_CONTENT };
static const char *const content_name[N_CONTENT] = {
    "random", "near-equal", "equal", "0 - peak", "peak - 0", "alternating", "extremes",
    "flat", "flat reference",
};

/* Weights of the shape and range of psnr_hvs.c's, luma-like (which 0) or
 * chroma-like, randomly scaled, in the transposed layout. */
static void weights(unsigned which, float weight_t[TERMS], float mask_t[TERMS])
{
    const double scale = 0.5 + (checkasm_rand() % 1000) / 666.;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            const double csf = scale * (which ? 2.5 : 2.3) / (1 + 0.35 * (i + j)) + 0.1 * ((i * j) & 1);
            weight_t[j * 8 + i] = (float)csf;
            mask_t[j * 8 + i] = (float)((csf * 0.3885746225901003) * (csf * 0.3885746225901003));
        }
}

typedef struct Plane {
    void *mem;
    uint8_t *p;
} Plane;

/* A plane of w x h samples at a random offset past malloc's alignment,
 * ending with its last sample. */
static Plane plane_alloc(unsigned w, unsigned h, ptrdiff_t stride, unsigned size)
{
    const size_t bytes = (size_t)stride * (h - 1) + (size_t)w * size;
    const unsigned offset = (1 + checkasm_rand() % 63) & ~(size - 1);
    Plane pl = { checkasm_malloc(offset + bytes), NULL };
    pl.p = (uint8_t *)pl.mem + offset;
    return pl;
}

static void put(Plane *pl, ptrdiff_t stride, unsigned size, unsigned x, unsigned y, unsigned v)
{
    uint8_t *row = pl->p + (ptrdiff_t)y * stride;
    if (size == 1) row[x] = (uint8_t)v;
    else memcpy(row + 2 * x, &(uint16_t){ (uint16_t)v }, 2);
}

/* The pair's samples at (x, y): ref in v[0], dis in v[1]. */
static void values(enum Content c, unsigned peak, unsigned x, unsigned y, unsigned flat[2],
                   unsigned v[2])
{
    const unsigned r = checkasm_rand() & peak;
    switch (c) {
    case NEAR: {
        const int d = (int)(checkasm_rand() % 5) - 2, s = (int)r + d;
        v[0] = r, v[1] = s < 0 ? 0 : s > (int)peak ? peak : (unsigned)s;
        return;
    }
    case EQUAL: v[0] = v[1] = r; return;
    case ZERO_PEAK: v[0] = 0, v[1] = peak; return;
    case PEAK_ZERO: v[0] = peak, v[1] = 0; return;
    case ALTERNATE: v[0] = (x + y) & 1 ? peak : 0, v[1] = (x + y) & 1 ? 0 : peak; return;
    case EXTREMES: v[0] = checkasm_rand() & 1 ? peak : 0, v[1] = checkasm_rand() & 1 ? peak : 0; return;
    case FLAT: v[0] = flat[0], v[1] = flat[1]; return;
    case FLAT_REF: v[0] = flat[0], v[1] = r; return;
    default: v[0] = r, v[1] = checkasm_rand() & peak; return;
    }
}

static bool check_terms_one(PsnrHvsBlockTermsFn ref, PsnrHvsBlockTermsFn new, const char *func,
                            const char *isa, unsigned bpc, unsigned n, enum Content c)
{
    const unsigned size = bpc > 8 ? 2 : 1, peak = (1u << bpc) - 1;
    const unsigned x0 = checkasm_rand() % 9, y0 = checkasm_rand() % 3;
    const unsigned w = x0 + PSNR_HVS_STEP * (n - 1) + 8 + (checkasm_rand() & 1 ? 0 : checkasm_rand() % 5);
    const unsigned h = y0 + 8 + checkasm_rand() % 3;
    Plane pl[2];
    ptrdiff_t stride[2];
    for (int k = 0; k < 2; k++) {
        stride[k] = (ptrdiff_t)(w + (checkasm_rand() & 1 ? 0 : checkasm_rand() % 40)) * size;
        pl[k] = plane_alloc(w, h, stride[k], size);
    }
    unsigned flat[2] = { checkasm_rand() & peak, checkasm_rand() & peak };
    if (checkasm_rand() & 1) flat[checkasm_rand() & 1] = checkasm_rand() & 1 ? peak : 0;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned v[2];
            values(c, peak, x, y, flat, v);
            put(&pl[0], stride[0], size, x, y, v[0]);
            put(&pl[1], stride[1], size, x, y, v[1]);
        }
    float weight_t[TERMS], mask_t[TERMS];
    weights(checkasm_rand() & 1, weight_t, mask_t);
    CheckasmBuf ba, bb;
    float *a = checkasm_row_alloc(&ba, (size_t)n * TERMS, 4, MARGIN);
    float *b = checkasm_row_alloc(&bb, (size_t)n * TERMS, 4, MARGIN);
    const uint8_t *r = pl[0].p + y0 * stride[0] + x0 * size;
    const uint8_t *d = pl[1].p + y0 * stride[1] + x0 * size;
    ref(r, stride[0], d, stride[1], n, bpc, weight_t, mask_t, a);
    new(r, stride[0], d, stride[1], n, bpc, weight_t, mask_t, b);
    char where[160];
    snprintf(where, sizeof(where),
             "%u-bit, %u blocks from (%u, %u) of %ux%u, strides %td %td, %s (64 terms a block)",
             bpc, n, x0, y0, w, h, stride[0], stride[1], content_name[c]);
    const bool ok = checkasm_compare(func, isa, "terms", CHECKASM_U32, a, b,
                                     (long)n * TERMS, MARGIN, where);
    free(ba.mem);
    free(bb.mem);
    free(pl[0].mem);
    free(pl[1].mem);
    return ok;
}

enum Run { RUN_ZEROS, RUN_DENSE, RUN_HALF, RUN_SPARSE, RUN_TINY, RUN_SPECIAL, N_RUN };
static const char *const run_name[N_RUN] = { "+0 and -0", "no zero", "half zero",
                                             "95% zero", "tiny and huge", "inf and NaN" };

static float random_float(float lo_exp, float hi_exp)
{
    const float e = lo_exp + (hi_exp - lo_exp) * (float)(checkasm_rand() % 10000) / 10000.f;
    return ldexpf(1 + (float)(checkasm_rand() % 1000000) / 1000000.f, (int)e);
}

static float run_value(enum Run c)
{
    const unsigned r = checkasm_rand() % 100;
    switch (c) {
    case RUN_ZEROS: return r & 1 ? -0.f : 0.f;
    case RUN_HALF: return r < 50 ? 0.f : random_float(-10, 10);
    case RUN_SPARSE: return r < 95 ? (r & 1 ? -0.f : 0.f) : random_float(-10, 10);
    case RUN_TINY: return r < 30 ? 0.f : r < 65 ? random_float(-140, -100) : random_float(20, 40);
    case RUN_SPECIAL: return r < 50 ? 0.f : r < 52 ? INFINITY : r < 53 ? NAN : random_float(0, 4);
    default: return random_float(-10, 10);
    }
}

static bool check_accumulate_one(PsnrHvsAccumulateFn ref, PsnrHvsAccumulateFn new,
                                 const char *isa, size_t n, enum Run c)
{
    static const float totals[] = { 0.f, -0.f, 1e-3f, 12345.678f, 3e30f };
    CheckasmBuf bt;
    float *t = checkasm_row_alloc(&bt, n ? n : 1, 4, 0);
    for (size_t k = 0; k < n; k++) t[k] = run_value(c);
    bool ok = true;
    for (unsigned i = 0; i < sizeof(totals) / sizeof(totals[0]) && ok; i++) {
        const float ra = ref(totals[i], t, n), rb = new(totals[i], t, n);
        char where[96];
        snprintf(where, sizeof(where), "%zu terms, %s, from %g", n, run_name[c], totals[i]);
        ok = checkasm_compare("accumulate", isa, "total", CHECKASM_U32, &ra, &rb, 1, 0, where);
    }
    free(bt.mem);
    return ok;
}

/* ---- bench: a row of 1080p luma, 274 blocks ---- */

#define BENCH_BLOCKS 274

static double bench_terms(PsnrHvsBlockTermsFn fn, unsigned bpc)
{
    const unsigned size = bpc > 8 ? 2 : 1, peak = (1u << bpc) - 1;
    const unsigned w = PSNR_HVS_STEP * (BENCH_BLOCKS - 1) + 8;
    Plane pl[2] = { plane_alloc(w, 8, w * size, size), plane_alloc(w, 8, w * size, size) };
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned v[2];
            values(NEAR, peak, x, y, NULL, v);
            put(&pl[0], w * size, size, x, y, v[0]);
            put(&pl[1], w * size, size, x, y, v[1]);
        }
    float weight_t[TERMS], mask_t[TERMS];
    weights(0, weight_t, mask_t);
    float *terms = checkasm_malloc(sizeof(float) * BENCH_BLOCKS * TERMS);
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        fn(pl[0].p, w * size, pl[1].p, w * size, BENCH_BLOCKS, bpc, weight_t, mask_t, terms);
        t[run] = checkasm_now_ns() - t0;
    }
    free(terms);
    free(pl[0].mem);
    free(pl[1].mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

static double bench_accumulate(PsnrHvsAccumulateFn fn, enum Run c)
{
    const size_t n = (size_t)BENCH_BLOCKS * TERMS;
    float *terms = checkasm_malloc(sizeof(float) * n);
    for (size_t k = 0; k < n; k++) terms[k] = run_value(c);
    double t[CHECKASM_BENCH_RUNS];
    volatile float sink = 0;
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        sink += fn(0, terms, n);
        t[run] = checkasm_now_ns() - t0;
    }
    (void)sink;
    free(terms);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

static unsigned n_blocks(unsigned i)
{
    static const unsigned big[] = { 47, 63, 64, 65, 100, 137, 274 };
    return i < 40 ? i + 1 : big[i - 40];
}

#define N_BLOCK_COUNTS (40 + 7)

void checkasm_check_psnr_hvs(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC; bi++) {
        const unsigned bpc = checkasm_bpc[bi];
        PsnrHvsDSPContext c, below, n;
        vqx_psnr_hvs_dsp_init(&c, bpc, 0);
        vqx_psnr_hvs_dsp_init(&below, bpc, level->below);
        vqx_psnr_hvs_dsp_init(&n, bpc, level->flags);
        if (n.block_terms != below.block_terms) {
            char func[64];
            snprintf(func, sizeof(func), "block_terms %u-bit", bpc);
            bool ok = true;
            for (unsigned i = 0; i < N_BLOCK_COUNTS && ok; i++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    ok = check_terms_one(c.block_terms, n.block_terms, func, isa, bpc,
                                         n_blocks(i), (enum Content)ct);
            checkasm_checked(func, isa, ok);
            if (ok && checkasm_benching()) {
                char what[32];
                snprintf(what, sizeof(what), "%u-bit, %u blocks", bpc, BENCH_BLOCKS);
                checkasm_report_bench("block_terms", isa, what, bench_terms(c.block_terms, bpc),
                                      bench_terms(n.block_terms, bpc));
            }
        }
        /* the sum does not depend on bpc */
        if (bpc == 8 && n.accumulate != below.accumulate) {
            bool ok = true;
            for (size_t len = 0; len <= 300 && ok; len += len < 40 ? 1 : 37)
                for (int ct = 0; ct < N_RUN && ok; ct++)
                    ok = check_accumulate_one(c.accumulate, n.accumulate, isa, len, (enum Run)ct);
            for (int ct = 0; ct < N_RUN && ok; ct++)
                ok = check_accumulate_one(c.accumulate, n.accumulate, isa, 5000 + checkasm_rand() % 64,
                                          (enum Run)ct);
            checkasm_checked("accumulate", isa, ok);
            if (ok && checkasm_benching()) {
                static const enum Run runs[] = { RUN_DENSE, RUN_SPARSE };
                for (int k = 0; k < 2; k++) {
                    char what[32];
                    snprintf(what, sizeof(what), "%u terms, %s", BENCH_BLOCKS * TERMS,
                             run_name[runs[k]]);
                    checkasm_report_bench("accumulate", isa, what,
                                          bench_accumulate(c.accumulate, runs[k]),
                                          bench_accumulate(n.accumulate, runs[k]));
                }
            }
        }
    }
}
