/*
 * checkasm module of float motion's DSP table (src/feature/float_motion_dsp.h):
 * the blur's passes with the 5 and 3 taps and the identity, and the rows'
 * sums of |a - b| for 1 to 20 rows, widths 1..70 and some large ones, rows
 * offset by a random number of floats from a 64-byte boundary. Content: the
 * samples float motion blurs (8 to 16 bits scaled to [-128, 128), in steps
 * of 2^(8 - bpc)), 0, the extremes, alternating extremes, and values of the
 * blurred range. Floats are compared bit for bit, margins included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/float_motion_dsp.h"

enum Content { SAMPLES, ZERO, LOW, HIGH, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "samples", "zero", "-128", "peak",
                                                     "alternating", "random extremes" };

/* Taps from libvmaf motion_tools.h (Netflix, BSD+Patent), as float_motion.c has them. */
static const float blur5[5] = { 0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f };
static const float blur3[3] = { 0.166378498f, 0.667243004f, 0.166378498f };
static const float identity5[5] = { 0.0f, 0.0f, 1.0f, 0.0f, 0.0f };
static const struct {
    const float *taps;
    int n;
    const char *name;
} filters[] = { { blur5, 5, "5 taps" }, { blur3, 3, "3 taps" }, { identity5, 5, "identity" } };
#define N_FILTERS (sizeof(filters) / sizeof(filters[0]))

/* Canary floats on either side of a row; the blur's margins are within. */
#define MARGIN 12

static float value(enum Content c, unsigned bpc, unsigned x)
{
    const float step = 1.0f / (float)(1u << (bpc - 8)), peak = 128.0f - step;
    switch (c) {
    case ZERO: return 0.0f;
    case LOW: return -128.0f;
    case HIGH: return peak;
    case ALTERNATE: return x & 1 ? peak : -128.0f;
    case EXTREMES: return checkasm_rand() & 1 ? peak : -128.0f;
    default: return (float)(checkasm_rand() & ((1u << bpc) - 1)) * step - 128.0f;
    }
}

static float *row_alloc(CheckasmBuf *b, unsigned w)
{
    return checkasm_row_alloc(b, w, sizeof(float), MARGIN);
}

static bool compare(const char *func, const char *isa, const float *ref, const float *new,
                    unsigned w, const char *where)
{
    return checkasm_compare(func, isa, "floats (bits)", CHECKASM_U32, ref, new, w, MARGIN, where);
}

static bool check_columns_one(FloatMotionBlurColumnsFn ref, FloatMotionBlurColumnsFn new,
                              const char *isa, unsigned f, unsigned bpc, unsigned w,
                              enum Content c)
{
    CheckasmBuf in[FLOAT_MOTION_MAX_TAPS], ba, bb;
    const float *rows[FLOAT_MOTION_MAX_TAPS];
    for (int k = 0; k < filters[f].n; k++) {
        float *r = row_alloc(&in[k], w);
        for (unsigned x = 0; x < w; x++) r[x] = value(c, bpc, x + (unsigned)k);
        rows[k] = r;
    }
    float *a = row_alloc(&ba, w), *b = row_alloc(&bb, w);
    ref(filters[f].taps, filters[f].n, rows, (int)w, a);
    new(filters[f].taps, filters[f].n, rows, (int)w, b);
    char where[96];
    snprintf(where, sizeof(where), "%s, %u-bit, width %u, %s", filters[f].name, bpc, w,
             content_name[c]);
    const bool ok = compare("blur_columns", isa, a, b, w, where);
    for (int k = 0; k < filters[f].n; k++) free(in[k].mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

static bool check_row_one(FloatMotionBlurRowFn ref, FloatMotionBlurRowFn new, const char *isa,
                          unsigned f, unsigned bpc, unsigned w, enum Content c)
{
    CheckasmBuf bm, ba, bb;
    float *mid = row_alloc(&bm, w);
    const int radius = filters[f].n / 2;
    /* mirrored margins, as float_motion.c sets them (w >= 3 there; here
     * narrower rows repeat their ends) */
    for (unsigned x = 0; x < w; x++) mid[x] = value(c, bpc, x) * 0.75f;
    for (int m = 1; m <= radius; m++) {
        mid[-m] = mid[(unsigned)m < w ? m : 0];
        mid[(int)w - 1 + m] = mid[(int)w - 1 - m >= 0 ? (int)w - 1 - m : (int)w - 1];
    }
    float *a = row_alloc(&ba, w), *b = row_alloc(&bb, w);
    ref(filters[f].taps, filters[f].n, mid, (int)w, a);
    new(filters[f].taps, filters[f].n, mid, (int)w, b);
    char where[96];
    snprintf(where, sizeof(where), "%s, %u-bit, width %u, %s", filters[f].name, bpc, w,
             content_name[c]);
    const bool ok = compare("blur_row", isa, a, b, w, where);
    free(bm.mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

static bool check_sads_one(FloatMotionRowSadsFn ref, FloatMotionRowSadsFn new, const char *isa,
                           unsigned bpc, unsigned w, unsigned n, enum Content c)
{
    const ptrdiff_t stride = (ptrdiff_t)w + (ptrdiff_t)(checkasm_rand() % 24);
    const size_t floats = (size_t)stride * n;
    CheckasmBuf pa = checkasm_buf_alloc(floats * sizeof(float), (checkasm_rand() % 16) * 4);
    CheckasmBuf pb = checkasm_buf_alloc(floats * sizeof(float), (checkasm_rand() % 16) * 4);
    float *a = (float *)pa.p, *b = (float *)pb.p;
    for (size_t i = 0; i < floats; i++) {
        a[i] = value(c, bpc, (unsigned)i);
        b[i] = value(c == ALTERNATE ? HIGH : c, bpc, (unsigned)i + 1);
    }
    float la[20], lb[20];
    memset(la, 0xcd, sizeof(la));
    memset(lb, 0xcd, sizeof(lb));
    ref(a, b, stride, (int)w, (int)n, la);
    new(a, b, stride, (int)w, (int)n, lb);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, %u rows of %u, stride %td, %s", bpc, n, w, stride,
             content_name[c]);
    const bool ok = checkasm_compare("row_sads", isa, "line (bits)", CHECKASM_U32, la, lb, 20, 0,
                                     where);
    free(pa.mem);
    free(pb.mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row ---- */

static double bench_one(const FloatMotionDSPContext *d, int stage)
{
    enum { W = 1920, H = 16 };
    CheckasmBuf in[FLOAT_MOTION_MAX_TAPS + 1], bm, bo;
    const float *rows[FLOAT_MOTION_MAX_TAPS];
    for (int k = 0; k <= FLOAT_MOTION_MAX_TAPS; k++) {
        in[k] = checkasm_buf_alloc(sizeof(float) * W * H, 0);
        float *r = (float *)in[k].p;
        for (unsigned i = 0; i < W * H; i++) r[i] = value(SAMPLES, 8, i);
        if (k < FLOAT_MOTION_MAX_TAPS) rows[k] = r;
    }
    float *mid = row_alloc(&bm, W + 4) + 2, *out = row_alloc(&bo, W), line[H];
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        if (stage == 2) {
            d->row_sads((const float *)in[0].p, (const float *)in[1].p, W, W, H, line);
        } else {
            for (unsigned y = 0; y < H; y++) {
                if (stage) d->blur_row(blur5, 5, mid, W, out);
                else d->blur_columns(blur5, 5, rows, W, mid);
            }
        }
        t[run] = (checkasm_now_ns() - t0) / H;
    }
    for (int k = 0; k <= FLOAT_MOTION_MAX_TAPS; k++) free(in[k].mem);
    free(bm.mem);
    free(bo.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_float_motion(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatMotionDSPContext c, below, n;
    vqx_float_motion_dsp_init(&c, 0);
    vqx_float_motion_dsp_init(&below, level->below);
    vqx_float_motion_dsp_init(&n, level->flags);
    static const char *const names[] = { "float_motion blur_columns", "float_motion blur_row",
                                         "float_motion row_sads" };
    const bool changed[3] = { n.blur_columns != below.blur_columns, n.blur_row != below.blur_row,
                              n.row_sads != below.row_sads };
    for (int stage = 0; stage < 3; stage++) {
        if (!changed[stage]) continue;
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++) {
            const unsigned bpc = checkasm_bpc[bi];
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
                const unsigned w = checkasm_width(wi, 1);
                for (int ct = 0; ct < N_CONTENT && ok; ct++) {
                    if (stage == 2) {
                        for (unsigned rows = 1; rows <= 20 && ok; rows += 1 + rows / 4)
                            ok = check_sads_one(c.row_sads, n.row_sads, isa, bpc, w, rows,
                                                (enum Content)ct);
                        continue;
                    }
                    for (unsigned f = 0; f < N_FILTERS && ok; f++)
                        ok = stage ? check_row_one(c.blur_row, n.blur_row, isa, f, bpc, w,
                                                   (enum Content)ct)
                                   : check_columns_one(c.blur_columns, n.blur_columns, isa, f,
                                                       bpc, w, (enum Content)ct);
                }
            }
        }
        checkasm_checked(names[stage], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[stage], isa, "1920 columns", bench_one(&c, stage),
                                  bench_one(&n, stage));
    }
}
