/*
 * checkasm module of float ANSNR's DSP table (src/feature/float_ansnr_dsp.h):
 * the row filter with libvmaf's 3x3 and 5x5 filters and the identity, and
 * the rows' energies for 1 to 20 rows, widths 1..70 and some large ones,
 * rows offset by a random number of floats from a 64-byte boundary.
 * Content: the samples float_ansnr filters (8 to 16 bits scaled to
 * [-128, 128), in steps of 2^(8 - bpc)), 0, the extremes, alternating
 * extremes, and random extremes. Floats are compared bit for bit, margins
 * included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/float_ansnr_dsp.h"

enum Content { SAMPLES, ZERO, LOW, HIGH, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "samples", "zero", "-128", "peak",
                                                     "alternating", "random extremes" };

/* Filters from libvmaf ansnr_tools.c (Netflix, BSD+Patent), as float_ansnr.c has them. */
#define F16(n) ((float)((n) / 16.0))
static const float ref_filter[9] = {
    F16(1.0), F16(2.0), F16(1.0), F16(2.0), F16(4.0), F16(2.0), F16(1.0), F16(2.0), F16(1.0),
};
#define F571(n) ((float)((n) / 571.0))
static const float dis_filter[25] = {
    F571(2.0),  F571(7.0),  F571(12.0),  F571(7.0),  F571(2.0),
    F571(7.0),  F571(31.0), F571(52.0),  F571(31.0), F571(7.0),
    F571(12.0), F571(52.0), F571(127.0), F571(52.0), F571(12.0),
    F571(7.0),  F571(31.0), F571(52.0),  F571(31.0), F571(7.0),
    F571(2.0),  F571(7.0),  F571(12.0),  F571(7.0),  F571(2.0),
};
static const float identity3[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
static const struct {
    const float *filter;
    int n;
    const char *name;
} filters[] = { { dis_filter, 5, "5x5" }, { ref_filter, 3, "3x3" }, { identity3, 3, "identity" } };
#define N_FILTERS (sizeof(filters) / sizeof(filters[0]))

/* Canary floats on either side of a row; the filter's margins are within. */
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

static bool check_filter_one(FloatAnsnrFilterRowFn ref, FloatAnsnrFilterRowFn new,
                             const char *isa, unsigned f, unsigned bpc, unsigned w, enum Content c)
{
    const int n = filters[f].n, radius = n / 2;
    CheckasmBuf in[FLOAT_ANSNR_MAX_TAPS], ba, bb;
    const float *rows[FLOAT_ANSNR_MAX_TAPS];
    for (int i = 0; i < n; i++) {
        float *r = row_alloc(&in[i], w);
        for (unsigned x = 0; x < w; x++) r[x] = value(c, bpc, x + (unsigned)i);
        /* mirrored margins, as float_ansnr.c sets them (w >= 3 there; here
         * narrower rows repeat their ends) */
        for (int m = 1; m <= radius; m++) {
            r[-m] = r[(unsigned)m < w ? m : 0];
            r[(int)w - 1 + m] = r[(int)w - 1 - m >= 0 ? (int)w - 1 - m : (int)w - 1];
        }
        rows[i] = r;
    }
    float *a = row_alloc(&ba, w), *b = row_alloc(&bb, w);
    ref(filters[f].filter, n, rows, (int)w, a);
    new(filters[f].filter, n, rows, (int)w, b);
    char where[96];
    snprintf(where, sizeof(where), "%s, %u-bit, width %u, %s", filters[f].name, bpc, w,
             content_name[c]);
    const bool ok = checkasm_compare("filter_row", isa, "floats (bits)", CHECKASM_U32, a, b, w,
                                     MARGIN, where);
    for (int i = 0; i < n; i++) free(in[i].mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

static bool check_energies_one(FloatAnsnrRowEnergiesFn ref, FloatAnsnrRowEnergiesFn new,
                               const char *isa, unsigned bpc, unsigned w, unsigned n,
                               enum Content c)
{
    const ptrdiff_t stride = (ptrdiff_t)w + (ptrdiff_t)(checkasm_rand() % 24);
    const size_t floats = (size_t)stride * n;
    CheckasmBuf pa = checkasm_buf_alloc(floats * sizeof(float), (checkasm_rand() % 16) * 4);
    CheckasmBuf pb = checkasm_buf_alloc(floats * sizeof(float), (checkasm_rand() % 16) * 4);
    float *a = (float *)pa.p, *b = (float *)pb.p;
    /* filtered values keep the samples' range; 0.75 gives them other bits */
    for (size_t i = 0; i < floats; i++) {
        a[i] = value(c, bpc, (unsigned)i) * 0.75f;
        b[i] = value(c == ALTERNATE ? HIGH : c, bpc, (unsigned)i + 1);
    }
    float sr[2][20], sn[2][20];
    memset(sr, 0xcd, sizeof(sr));
    memset(sn, 0xcd, sizeof(sn));
    ref(a, b, stride, (int)w, (int)n, sr[0], sr[1]);
    new(a, b, stride, (int)w, (int)n, sn[0], sn[1]);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, %u rows of %u, stride %td, %s", bpc, n, w, stride,
             content_name[c]);
    const bool ok = checkasm_compare("row_energies", isa, "signal (bits)", CHECKASM_U32, sr[0],
                                     sn[0], 20, 0, where) &&
                    checkasm_compare("row_energies", isa, "noise (bits)", CHECKASM_U32, sr[1],
                                     sn[1], 20, 0, where);
    free(pa.mem);
    free(pb.mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row ---- */

static double bench_one(const FloatAnsnrDSPContext *d, int stage)
{
    enum { W = 1920, H = 16 };
    CheckasmBuf in[2];
    for (int k = 0; k < 2; k++) {
        in[k] = checkasm_buf_alloc(sizeof(float) * (W + 4) * H, 0);
        float *r = (float *)in[k].p;
        for (unsigned i = 0; i < (W + 4) * H; i++) r[i] = value(SAMPLES, 8, i);
    }
    const float *rows[FLOAT_ANSNR_MAX_TAPS];
    for (int i = 0; i < FLOAT_ANSNR_MAX_TAPS; i++)
        rows[i] = (const float *)in[0].p + i * (W + 4) + 2;
    CheckasmBuf bo;
    float *out = row_alloc(&bo, W), signal[H], noise[H];
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        if (stage) {
            d->row_energies((const float *)in[0].p, (const float *)in[1].p, W + 4, W, H, signal,
                            noise);
        } else {
            for (unsigned y = 0; y < H; y++) d->filter_row(dis_filter, 5, rows, W, out);
        }
        t[run] = (checkasm_now_ns() - t0) / H;
    }
    for (int k = 0; k < 2; k++) free(in[k].mem);
    free(bo.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_float_ansnr(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatAnsnrDSPContext c, below, n;
    vqx_float_ansnr_dsp_init(&c, 0);
    vqx_float_ansnr_dsp_init(&below, level->below);
    vqx_float_ansnr_dsp_init(&n, level->flags);
    static const char *const names[] = { "float_ansnr filter_row", "float_ansnr row_energies" };
    const bool changed[2] = { n.filter_row != below.filter_row,
                              n.row_energies != below.row_energies };
    for (int stage = 0; stage < 2; stage++) {
        if (!changed[stage]) continue;
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++) {
            const unsigned bpc = checkasm_bpc[bi];
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
                const unsigned w = checkasm_width(wi, 1);
                for (int ct = 0; ct < N_CONTENT && ok; ct++) {
                    if (stage) {
                        for (unsigned rows = 1; rows <= 20 && ok; rows += 1 + rows / 4)
                            ok = check_energies_one(c.row_energies, n.row_energies, isa, bpc, w,
                                                    rows, (enum Content)ct);
                        continue;
                    }
                    for (unsigned f = 0; f < N_FILTERS && ok; f++)
                        ok = check_filter_one(c.filter_row, n.filter_row, isa, f, bpc, w,
                                              (enum Content)ct);
                }
            }
        }
        checkasm_checked(names[stage], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[stage], isa, "1920 columns", bench_one(&c, stage),
                                  bench_one(&n, stage));
    }
}
