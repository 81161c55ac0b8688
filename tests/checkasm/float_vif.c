/*
 * checkasm module of float VIF's DSP table (src/feature/float_vif_dsp.h): the
 * column passes and the row pass with the four scales' Gaussian filters of
 * kernel scale 1 and a 65-tap one, widths 1..70 and some large ones, rows at
 * random float offsets from a 64-byte boundary; the statistic on moments
 * made from sample rows of every content, on random moments (negative
 * variances and covariances included), with the noise variances 2, 0.5,
 * 0.1 (not a float) and 0, and gain limits 100, 1 and a random one. Content:
 * samples of 8 to 16 bits scaled to [-128, 128), 0, the extremes,
 * alternating extremes. Floats are compared bit for bit, margins included.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/float_vif_dsp.h"
#include "feature/vif_gaussian.h"

enum Content { SAMPLES, ZERO, LOW, HIGH, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "samples", "zero", "-128", "peak",
                                                     "alternating", "random extremes" };

#define MARGIN 72 /* the widest filter's half, and canaries */

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

/* A random float in [lo, hi). */
static float uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)(checkasm_rand() >> 8) / 16777216.0f;
}

typedef struct Filter {
    float taps[FLOAT_VIF_MAX_TAPS];
    unsigned width;
    char name[32];
} Filter;

#define N_FILTERS 5

static void filters_make(Filter *f)
{
    for (unsigned i = 0; i < N_FILTERS; i++) {
        f[i].width = i < 4 ? vqx_vif_filter_size(i, 1.0f) : 65;
        vqx_vif_gaussian(f[i].taps, f[i].width, f[i].width / 5.0f);
        snprintf(f[i].name, sizeof(f[i].name), "%u taps", f[i].width);
    }
}

static float *row_alloc(CheckasmBuf *b, unsigned w)
{
    return checkasm_row_alloc(b, w, sizeof(float), MARGIN);
}

static bool compare(const char *func, const char *isa, const char *array, const float *ref,
                    const float *new, unsigned w, const char *where)
{
    return checkasm_compare(func, isa, array, CHECKASM_U32, ref, new, w, MARGIN, where);
}

/* `n` rows of w values of content c, for the column passes. */
static void rows_make(CheckasmBuf *b, const float **rows, unsigned n, unsigned w, unsigned bpc,
                      enum Content c)
{
    for (unsigned k = 0; k < n; k++) {
        float *r = row_alloc(&b[k], w);
        for (unsigned x = 0; x < w; x++) r[x] = value(c, bpc, x + k);
        rows[k] = r;
    }
}

static bool check_columns_one(const FloatVifDSPContext *c, const FloatVifDSPContext *n,
                              const char *isa, const Filter *f, unsigned bpc, unsigned w,
                              enum Content ct, bool moments)
{
    CheckasmBuf in[2][FLOAT_VIF_MAX_TAPS], out[2][5];
    const float *ref[FLOAT_VIF_MAX_TAPS], *dis[FLOAT_VIF_MAX_TAPS];
    rows_make(in[0], ref, f->width, w, bpc, ct);
    rows_make(in[1], dis, f->width, w, bpc, ct == ALTERNATE ? HIGH : ct);
    float *o[2][5];
    for (unsigned s = 0; s < 2; s++)
        for (unsigned a = 0; a < 5; a++) o[s][a] = row_alloc(&out[s][a], w);
    char where[96];
    snprintf(where, sizeof(where), "%s, %u-bit, width %u, %s", f->name, bpc, w, content_name[ct]);
    bool ok;
    if (moments) {
        c->moment_columns(f->taps, (int)f->width, ref, dis, (int)w, o[0][0], o[0][1], o[0][2],
                          o[0][3], o[0][4]);
        n->moment_columns(f->taps, (int)f->width, ref, dis, (int)w, o[1][0], o[1][1], o[1][2],
                          o[1][3], o[1][4]);
        static const char *const names[5] = { "mu1", "mu2", "xx", "yy", "xy" };
        ok = true;
        for (unsigned a = 0; a < 5 && ok; a++)
            ok = compare("moment_columns", isa, names[a], o[0][a], o[1][a], w, where);
    } else {
        c->filter_columns(f->taps, (int)f->width, ref, (int)w, o[0][0]);
        n->filter_columns(f->taps, (int)f->width, ref, (int)w, o[1][0]);
        ok = compare("filter_columns", isa, "out", o[0][0], o[1][0], w, where);
    }
    for (unsigned k = 0; k < f->width; k++) {
        free(in[0][k].mem);
        free(in[1][k].mem);
    }
    for (unsigned s = 0; s < 2; s++)
        for (unsigned a = 0; a < 5; a++) free(out[s][a].mem);
    return ok;
}

static bool check_row_one(FloatVifFilterRowFn ref, FloatVifFilterRowFn new, const char *isa,
                          const Filter *f, unsigned bpc, unsigned w, enum Content ct)
{
    CheckasmBuf bi, ba, bb;
    float *in = row_alloc(&bi, w);
    const int half = (int)f->width / 2;
    for (int x = -half; x < (int)w + half; x++) in[x] = value(ct, bpc, (unsigned)(x + half)) * 0.5f;
    float *a = row_alloc(&ba, w), *b = row_alloc(&bb, w);
    ref(f->taps, (int)f->width, in, (int)w, a);
    new(f->taps, (int)f->width, in, (int)w, b);
    char where[96];
    snprintf(where, sizeof(where), "%s, %u-bit, width %u, %s", f->name, bpc, w, content_name[ct]);
    const bool ok = compare("filter_row", isa, "out", a, b, w, where);
    free(bi.mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* Moments of content ct as the filters give them (a 3-tap mean of samples
 * and of their products), or random ones (mode RANDOM_MOMENTS). */
enum { FROM_SAMPLES, RANDOM_MOMENTS };

static bool check_stats_one(FloatVifPixelStatsFn ref, FloatVifPixelStatsFn new, const char *isa,
                            const FloatVifStat *st, unsigned bpc, unsigned w, enum Content ct,
                            int mode)
{
    CheckasmBuf bm[5], bo[4];
    float *m[5], *o[4];
    for (unsigned a = 0; a < 5; a++) m[a] = row_alloc(&bm[a], w);
    for (unsigned a = 0; a < 4; a++) o[a] = row_alloc(&bo[a], w);
    for (unsigned x = 0; x < w; x++) {
        if (mode == RANDOM_MOMENTS) {
            m[0][x] = uniform(-128, 128);
            m[1][x] = checkasm_rand() & 3 ? uniform(-128, 128) : m[0][x];
            m[2][x] = m[0][x] * m[0][x] + (checkasm_rand() & 1 ? uniform(-2, 200) : uniform(0, 1e-9f));
            m[3][x] = m[1][x] * m[1][x] + (checkasm_rand() & 1 ? uniform(-2, 200) : uniform(0, 1e-9f));
            m[4][x] = m[0][x] * m[1][x] + uniform(-150, 150);
            continue;
        }
        float r[3], d[3];
        for (unsigned k = 0; k < 3; k++) {
            r[k] = value(ct, bpc, x + k);
            d[k] = value(ct == ALTERNATE ? HIGH : ct, bpc, x + 2 * k);
        }
        m[0][x] = (r[0] + r[1] + r[2]) / 3;
        m[1][x] = (d[0] + d[1] + d[2]) / 3;
        m[2][x] = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) / 3;
        m[3][x] = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / 3;
        m[4][x] = (r[0] * d[0] + r[1] * d[1] + r[2] * d[2]) / 3;
    }
    ref(st, m[0], m[1], m[2], m[3], m[4], (int)w, o[0], o[1]);
    new(st, m[0], m[1], m[2], m[3], m[4], (int)w, o[2], o[3]);
    char where[160];
    snprintf(where, sizeof(where), "%u-bit, width %u, %s, sigma_nsq %g, gain limit %g", bpc, w,
             mode == RANDOM_MOMENTS ? "random moments" : content_name[ct], st->sigma_nsq,
             (double)st->gain_limit);
    const bool ok = compare("pixel_stats", isa, "num", o[0], o[2], w, where) &&
                    compare("pixel_stats", isa, "den", o[1], o[3], w, where);
    for (unsigned a = 0; a < 5; a++) free(bm[a].mem);
    for (unsigned a = 0; a < 4; a++) free(bo[a].mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row, 17 taps ---- */

static double bench_one(const FloatVifDSPContext *d, const Filter *f, int stage)
{
    enum { W = 1920 };
    CheckasmBuf in[2][FLOAT_VIF_MAX_TAPS], out[5];
    const float *ref[FLOAT_VIF_MAX_TAPS], *dis[FLOAT_VIF_MAX_TAPS];
    rows_make(in[0], ref, f->width, W, 8, SAMPLES);
    rows_make(in[1], dis, f->width, W, 8, SAMPLES);
    float *o[5];
    for (unsigned a = 0; a < 5; a++) o[a] = row_alloc(&out[a], W);
    const FloatVifStat st = { 100.0f, 2.0, 4.0f / (255.0f * 255.0f) };
    d->moment_columns(f->taps, (int)f->width, ref, dis, W, o[0], o[1], o[2], o[3], o[4]);
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned y = 0; y < 8; y++) {
            switch (stage) {
            case 0: d->filter_columns(f->taps, (int)f->width, ref, W, o[0]); break;
            case 1: d->moment_columns(f->taps, (int)f->width, ref, dis, W, o[0], o[1], o[2], o[3], o[4]); break;
            case 2: d->filter_row(f->taps, (int)f->width, ref[8], W - 16, o[0] + 8); break;
            default: d->pixel_stats(&st, ref[0], ref[1], o[2], o[3], o[4], W, o[0], o[1]); break;
            }
        }
        t[run] = (checkasm_now_ns() - t0) / 8;
    }
    for (unsigned k = 0; k < f->width; k++) {
        free(in[0][k].mem);
        free(in[1][k].mem);
    }
    for (unsigned a = 0; a < 5; a++) free(out[a].mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_float_vif(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatVifDSPContext c, below, n;
    vqx_float_vif_dsp_init(&c, 0);
    vqx_float_vif_dsp_init(&below, level->below);
    vqx_float_vif_dsp_init(&n, level->flags);
    static Filter filters[N_FILTERS];
    filters_make(filters);
    static const char *const names[] = { "float_vif filter_columns", "float_vif moment_columns",
                                         "float_vif filter_row", "float_vif pixel_stats" };
    const bool changed[4] = {
        n.filter_columns != below.filter_columns, n.moment_columns != below.moment_columns,
        n.filter_row != below.filter_row, n.pixel_stats != below.pixel_stats,
    };
    const double nsq[] = { 2.0, 0.5, 0.1, 0.0 };
    for (int stage = 0; stage < 4; stage++) {
        if (!changed[stage]) continue;
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++) {
            const unsigned bpc = checkasm_bpc[bi];
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
                const unsigned w = checkasm_width(wi, 1);
                for (int ct = 0; ct < N_CONTENT && ok; ct++) {
                    if (stage == 3) {
                        for (unsigned k = 0; k < 4 && ok; k++) {
                            const float limit = k == 1 ? 1.0f : k == 2 ? uniform(1, 100) : 100.0f;
                            const FloatVifStat st = {
                                limit, nsq[k],
                                (float)(powf((float)nsq[k], 2.0f) / (255.0 * 255.0)),
                            };
                            ok = check_stats_one(c.pixel_stats, n.pixel_stats, isa, &st, bpc, w,
                                                 (enum Content)ct, FROM_SAMPLES) &&
                                 check_stats_one(c.pixel_stats, n.pixel_stats, isa, &st, bpc, w,
                                                 (enum Content)ct, RANDOM_MOMENTS);
                        }
                        continue;
                    }
                    for (unsigned f = 0; f < N_FILTERS && ok; f++)
                        ok = stage == 2 ? check_row_one(c.filter_row, n.filter_row, isa,
                                                        &filters[f], bpc, w, (enum Content)ct)
                                        : check_columns_one(&c, &n, isa, &filters[f], bpc, w,
                                                            (enum Content)ct, stage == 1);
                }
            }
        }
        checkasm_checked(names[stage], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[stage], isa, "1920 columns, 17 taps",
                                  bench_one(&c, &filters[0], stage),
                                  bench_one(&n, &filters[0], stage));
    }
}
