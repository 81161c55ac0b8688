/*
 * checkasm module of integer ADM's DSP table (src/feature/adm_dsp.h): the
 * DWT passes with the rounding of every level (level 0 at 8 to 16 bits),
 * widths 1..70 and some large ones, rows offset by random multiples of the
 * element size; values random over the whole 16- or 32-bit range, random
 * within the level's usual range, 0, the largest, the smallest, alternating
 * and random extremes. Outputs are compared with their margins, which both
 * sides start equal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/adm_dsp.h"

enum Content { RANDOM, SMALL, ZERO, MAX, MIN, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "usual range", "zero", "max",
                                                     "min", "alternating", "extremes" };

/* A value of `bits` (16 or 32) bits; `usual` bounds the usual range. */
static int32_t value(enum Content c, unsigned bits, int32_t usual, unsigned x)
{
    const int32_t max = bits == 16 ? 32767 : INT32_MAX, min = -max - 1;
    switch (c) {
    case SMALL: return (int32_t)(checkasm_rand() % (2u * (uint32_t)usual + 1)) - usual;
    case ZERO: return 0;
    case MAX: return max;
    case MIN: return min;
    case ALTERNATE: return x & 1 ? max : min;
    case EXTREMES: return checkasm_rand() & 1 ? max : min;
    default: {
        const uint32_t r = checkasm_rand() ^ checkasm_rand() << 16;
        return bits == 16 ? (int16_t)r : (int32_t)r;
    }
    }
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

/* Canary elements on either side of a row. */
#define MARGIN 20

static void *row_alloc(CheckasmBuf *b, int w, unsigned size)
{
    return checkasm_row_alloc(b, (size_t)w, size, MARGIN);
}

static bool compare(const char *func, const char *isa, const char *array, const void *ref,
                    const void *new, int w, unsigned size, const char *where)
{
    return checkasm_compare(func, isa, array, size == 2 ? CHECKASM_I16 : CHECKASM_I32, ref, new,
                            w, MARGIN, where);
}

/* Rounding of a pass: level 0 at each depth, then levels 1 to 3 (adm.c). */
typedef struct Rounding {
    int64_t add;
    unsigned shift;
} Rounding;

static const Rounding vertical_32_rounding[3] = { { 0, 0 }, { 32768, 16 }, { 32768, 16 } };
static const Rounding horizontal_32_rounding[3] = { { 16384, 15 }, { 32768, 16 }, { 16384, 15 } };

/* Usual magnitude of the input of a pass. */
#define USUAL_16 32767
#define USUAL_32 (1 << 24)

static bool check_vertical(const AdmDSPContext *c, const AdmDSPContext *n, bool wide,
                           const char *func, const char *isa, int w, enum Content ct,
                           Rounding r, const char *what)
{
    const unsigned size = wide ? 4 : 2, bits = 8 * size;
    CheckasmBuf in[4], out[4];
    void *src[4], *o[4];
    for (int k = 0; k < 4; k++) {
        src[k] = row_alloc(&in[k], w, size);
        for (int x = 0; x < w; x++) {
            const int32_t v = value(ct, bits, wide ? USUAL_32 : USUAL_16, (unsigned)(x + k));
            if (wide) ((int32_t *)src[k])[x] = v;
            else ((int16_t *)src[k])[x] = (int16_t)v;
        }
    }
    for (int k = 0; k < 4; k++) o[k] = row_alloc(&out[k], w, size);
    if (wide) {
        c->dwt_vertical_32((const int32_t *const *)src, w, r.add, r.shift, o[0], o[1]);
        n->dwt_vertical_32((const int32_t *const *)src, w, r.add, r.shift, o[2], o[3]);
    } else {
        c->dwt_vertical_16((const int16_t *const *)src, w, (int32_t)r.add, r.shift, o[0], o[1]);
        n->dwt_vertical_16((const int16_t *const *)src, w, (int32_t)r.add, r.shift, o[2], o[3]);
    }
    char where[128];
    snprintf(where, sizeof(where), "%s, width %d, %s", what, w, content_name[ct]);
    const bool ok = compare(func, isa, "lo", o[0], o[2], w, size, where) &&
                    compare(func, isa, "hi", o[1], o[3], w, size, where);
    for (int k = 0; k < 4; k++) {
        free(in[k].mem);
        free(out[k].mem);
    }
    return ok;
}

static bool check_horizontal(const AdmDSPContext *c, const AdmDSPContext *n, bool wide,
                             const char *func, const char *isa, int w, enum Content ct,
                             Rounding r, const char *what)
{
    const unsigned size = wide ? 4 : 2, bits = 8 * size;
    const int n_out = (w + 1) / 2;
    CheckasmBuf in[2], out[8];
    void *src[2], *o[8];
    for (int k = 0; k < 2; k++) {
        src[k] = row_alloc(&in[k], w, size);
        /* entries -1, w and w + 1 too: the mirror is the caller's */
        for (int x = -1; x < w + 2; x++) {
            const int32_t v = value(ct, bits, wide ? USUAL_32 : USUAL_16, (unsigned)(x + 1 + k));
            if (wide) ((int32_t *)src[k])[x] = v;
            else ((int16_t *)src[k])[x] = (int16_t)v;
        }
    }
    for (int k = 0; k < 8; k++) o[k] = row_alloc(&out[k], n_out, 4);
    int32_t *const *q = (int32_t *const *)o;
    if (wide) {
        c->dwt_horizontal_32(src[0], src[1], w, r.add, r.shift, q[0], q[1], q[2], q[3]);
        n->dwt_horizontal_32(src[0], src[1], w, r.add, r.shift, q[4], q[5], q[6], q[7]);
    } else {
        c->dwt_horizontal_16(src[0], src[1], w, (int32_t)r.add, r.shift, q[0], q[1], q[2], q[3]);
        n->dwt_horizontal_16(src[0], src[1], w, (int32_t)r.add, r.shift, q[4], q[5], q[6], q[7]);
    }
    char where[128];
    snprintf(where, sizeof(where), "%s, width %d, %s", what, w, content_name[ct]);
    static const char *const names[4] = { "a", "h", "v", "d" };
    bool ok = true;
    for (int k = 0; k < 4 && ok; k++)
        ok = compare(func, isa, names[k], o[k], o[k + 4], n_out, 4, where);
    for (int k = 0; k < 2; k++) free(in[k].mem);
    for (int k = 0; k < 8; k++) free(out[k].mem);
    return ok;
}

typedef bool (*CheckFn)(const AdmDSPContext *, const AdmDSPContext *, bool, const char *,
                        const char *, int, enum Content, Rounding, const char *);

/* Every width and content at each rounding of the pass. */
static bool check_pass(const AdmDSPContext *c, const AdmDSPContext *n, CheckFn check, bool wide,
                       const char *func, const char *isa, bool vertical)
{
    bool ok = true;
    for (unsigned ri = 0; ri < (wide ? 3 : CHECKASM_N_BPC) && ok; ri++) {
        Rounding r;
        char what[32];
        if (wide) {
            r = (vertical ? vertical_32_rounding : horizontal_32_rounding)[ri];
            snprintf(what, sizeof(what), "level %u", ri + 1);
        } else {
            r = vertical ? (Rounding){ 1 << (checkasm_bpc[ri] - 1), checkasm_bpc[ri] }
                         : (Rounding){ 32768, 16 };
            snprintf(what, sizeof(what), "level 0, %u-bit", checkasm_bpc[ri]);
            if (!vertical && ri) break; /* one rounding */
        }
        for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                ok = check(c, n, wide, func, isa, (int)checkasm_width(wi, 1), (enum Content)ct, r,
                           what);
    }
    return ok;
}

/* ---- bench: median ns per 1920-column row ---- */

static double bench_one(const AdmDSPContext *d, int kind)
{
    const int w = 1920, reps = 32;
    CheckasmBuf in[4], out[4];
    void *src[4], *o[4];
    for (int k = 0; k < 4; k++) {
        src[k] = row_alloc(&in[k], w + 2, 4);
        for (int x = -1; x < w + 2; x++) ((int32_t *)src[k])[x] = (int32_t)(checkasm_rand() & 0x3fff);
        o[k] = row_alloc(&out[k], w, 4);
    }
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (int i = 0; i < reps; i++) {
            switch (kind) {
            case 0: d->dwt_vertical_16((const int16_t *const *)src, w, 128, 8, o[0], o[1]); break;
            case 1: d->dwt_horizontal_16(src[0], src[1], w, 32768, 16, o[0], o[1], o[2], o[3]);
                break;
            case 2: d->dwt_vertical_32((const int32_t *const *)src, w, 32768, 16, o[0], o[1]);
                break;
            default: d->dwt_horizontal_32(src[0], src[1], w, 32768, 16, o[0], o[1], o[2], o[3]);
                break;
            }
        }
        t[run] = (checkasm_now_ns() - t0) / reps;
    }
    for (int k = 0; k < 4; k++) {
        free(in[k].mem);
        free(out[k].mem);
    }
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

void checkasm_check_adm(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    AdmDSPContext c, below, n;
    vqx_adm_dsp_init(&c, 0);
    vqx_adm_dsp_init(&below, level->below);
    vqx_adm_dsp_init(&n, level->flags);
    static const char *const names[4] = { "dwt_vertical_16", "dwt_horizontal_16",
                                          "dwt_vertical_32", "dwt_horizontal_32" };
    const bool changed[4] = { n.dwt_vertical_16 != below.dwt_vertical_16,
                              n.dwt_horizontal_16 != below.dwt_horizontal_16,
                              n.dwt_vertical_32 != below.dwt_vertical_32,
                              n.dwt_horizontal_32 != below.dwt_horizontal_32 };
    for (int k = 0; k < 4; k++) {
        if (!changed[k]) continue;
        const bool vertical = !(k & 1), wide = k >= 2;
        const bool ok = check_pass(&c, &n, vertical ? check_vertical : check_horizontal, wide,
                                   names[k], isa, vertical);
        checkasm_checked(names[k], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[k], isa, "1920 columns", bench_one(&c, k),
                                  bench_one(&n, k));
    }
}
