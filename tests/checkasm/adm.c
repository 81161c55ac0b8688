/*
 * checkasm module of integer ADM's DSP table (src/feature/adm_dsp.h), every
 * entry at widths 1..70 and some large ones, rows offset by random
 * multiples of the element size; values random over the whole 16- or
 * 32-bit range, random within the stage's usual range (at level 0 and at
 * levels 1 to 3), that range with one value in 8 from the whole range, 0,
 * the largest, the smallest, alternating and random extremes.
 *   picture rows: 8, 9, 10, 12 and 16 bits, samples from 0 to the peak;
 *   DWT passes: the rounding of every level (level 0 at each depth);
 *   decoupling: distorted bands related to the reference as in pictures
 *     (scaled, scaled and negated, nearby, unrelated), gain limits 1, 2.7
 *     and 100;
 *   masking terms, threshold, masked and reference cubes: random, libvmaf's
 *     and out-of-range weights, every shift the levels use and others.
 * Row outputs are compared with their margins, which both sides start
 * equal; a differing row sum is reported at the first prefix of the row
 * whose sums differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/adm_dsp.h"

enum Content { RANDOM, SMALL, MIXED, ZERO, MAX, MIN, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "usual range", "usual and wide",
                                                     "zero", "max", "min", "alternating",
                                                     "extremes" };

/* A value of `bits` (16 or 32) bits; `usual` bounds the usual range. */
static int32_t value(enum Content c, unsigned bits, int32_t usual, unsigned x)
{
    const int32_t max = bits == 16 ? 32767 : INT32_MAX, min = -max - 1;
    switch (c) {
    case MIXED:
        if (checkasm_rand() % 8 == 0) return value(RANDOM, bits, usual, x);
        /* fall through */
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

/* ---- picture rows ---- */

static bool check_row_to_int(const AdmDSPContext *c, const AdmDSPContext *n, const char *func,
                             const char *isa, unsigned bpc, int w, enum Content ct)
{
    const unsigned size = bpc == 8 ? 1 : 2, peak = (1u << bpc) - 1;
    CheckasmBuf in, out[2];
    uint8_t *src = checkasm_row_alloc(&in, (size_t)w, size, MARGIN);
    for (int x = 0; x < w; x++) {
        const uint32_t r = checkasm_rand();
        unsigned v = ct == ZERO ? 0 : ct == MAX ? peak : ct == ALTERNATE ? (x & 1) * peak
                   : ct == EXTREMES ? (r & 1) * peak : r % (peak + 1);
        if (size == 1) src[x] = (uint8_t)v;
        else ((uint16_t *)src)[x] = (uint16_t)v;
    }
    int16_t *o[2];
    for (int k = 0; k < 2; k++) o[k] = row_alloc(&out[k], w, 2);
    (bpc == 8 ? c->row_to_int_8 : c->row_to_int_16)(src, o[0], w, bpc);
    (bpc == 8 ? n->row_to_int_8 : n->row_to_int_16)(src, o[1], w, bpc);
    char where[64];
    snprintf(where, sizeof(where), "%u-bit, width %d, %s", bpc, w, content_name[ct]);
    const bool ok = compare(func, isa, "dst", o[0], o[1], w, 2, where);
    free(in.mem);
    for (int k = 0; k < 2; k++) free(out[k].mem);
    return ok;
}

/* ---- decoupling ---- */

typedef struct Decoupling {
    const int32_t *recip;
    float cos_1deg_sq;
    double gain_limit;
} Decoupling;

/* A distorted value whose gain against o is a rounding tie: the C's
 * quotient recip t (negated where o < 0) is 2^(14 + shift) modulo
 * 2^(15 + shift), t from the inverse of recip's odd part, then moved by a
 * multiple of the modulus to within 2 |o| of 0 and the int32 range. */
static int32_t gain_tie(int32_t o, const int32_t *recip)
{
    const uint32_t mag = o < 0 ? 0u - (uint32_t)o : (uint32_t)o;
    if (!mag) return 0;
    const unsigned bits = 32 - (unsigned)__builtin_clz(mag), shift = bits > 15 ? bits - 15 : 0;
    const uint32_t r = (uint32_t)recip[(mag + ((1u << shift) >> 1)) >> shift];
    const unsigned zeros = (unsigned)__builtin_ctz(r), m = 15 + shift - zeros;
    if (zeros >= 15 + shift) return 0;
    uint64_t inv = r >> zeros; /* odd: x = x (2 - r x) doubles its correct bits */
    for (int i = 0; i < 5; i++) inv *= 2 - (r >> zeros) * inv;
    const int64_t mod = (int64_t)1 << m, reach = 2 * (int64_t)mag / mod;
    int64_t t = (int64_t)(((uint64_t)(mod >> 1) * inv) & (uint64_t)(mod - 1)) +
                mod * ((int64_t)(checkasm_rand() % (uint32_t)(2 * reach + 1)) - reach);
    while (t > INT32_MAX) t -= mod;
    while (t < INT32_MIN) t += mod;
    return (int32_t)t;
}

/* Reference bands of content ct and distorted bands related to them per
 * position, the same way in every band (so that angles agree): scaled by 0
 * to 3 halves, scaled and negated, nearby, a rounding tie of the gain, or
 * unrelated. */
static void fill_decoupling(int32_t *const o[3], int32_t *const t[3], int w, enum Content ct,
                            int32_t usual, const int32_t *recip)
{
    for (int x = 0; x < w; x++) {
        const uint32_t how = checkasm_rand() % 6, scale = checkasm_rand() % 7;
        for (int b = 0; b < 3; b++) {
            const int32_t ob = value(ct, 32, usual, (unsigned)(x + b));
            int64_t tb;
            switch (how) {
            case 0: tb = (int64_t)ob * scale / 2; break;
            case 1: tb = -(int64_t)ob * scale / 2; break;
            case 2: tb = (int64_t)ob + (int32_t)(checkasm_rand() % 9) - 4; break;
            case 3: tb = gain_tie(ob, recip); break;
            default: tb = value(ct, 32, usual, (unsigned)(x + b + 1)); break;
            }
            o[b][x] = ob;
            t[b][x] = tb > INT32_MAX ? INT32_MAX : tb < INT32_MIN ? INT32_MIN : (int32_t)tb;
        }
    }
}

static bool check_decouple(const AdmDSPContext *c, const AdmDSPContext *n, const char *isa,
                           const Decoupling *p, int w, enum Content ct, int32_t usual,
                           const char *what)
{
    CheckasmBuf in[6], out[12];
    int32_t *o[3], *t[3], *r[4][3];
    for (int b = 0; b < 3; b++) {
        o[b] = row_alloc(&in[b], w, 4);
        t[b] = row_alloc(&in[3 + b], w, 4);
        for (int k = 0; k < 4; k++) r[k][b] = row_alloc(&out[3 * k + b], w, 4);
    }
    fill_decoupling(o, t, w, ct, usual, p->recip);
    const int32_t *const *oc = (const int32_t *const *)o, *const *tc = (const int32_t *const *)t;
    c->decouple(oc, tc, w, p->recip, p->cos_1deg_sq, p->gain_limit, r[0], r[1]);
    n->decouple(oc, tc, w, p->recip, p->cos_1deg_sq, p->gain_limit, r[2], r[3]);
    char where[128];
    snprintf(where, sizeof(where), "%s, gain limit %g, width %d, %s", what, p->gain_limit, w,
             content_name[ct]);
    static const char *const names[2][3] = { { "r_h", "r_v", "r_d" }, { "a_h", "a_v", "a_d" } };
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++)
        for (int b = 0; b < 3 && ok; b++)
            ok = compare("decouple", isa, names[k][b], r[k][b], r[k + 2][b], w, 4, where);
    for (int k = 0; k < 6; k++) free(in[k].mem);
    for (int k = 0; k < 12; k++) free(out[k].mem);
    return ok;
}

/* ---- masking ---- */

/* Level 0's weights are 16-bit (libvmaf's Watson ones, Barten's wrapped),
 * levels 1 to 3's 32-bit (below and above 2^31). */
static uint32_t weight(bool level0, unsigned i)
{
    static const uint32_t w16[4] = { 36453, 49417, 65535, 0 };
    static const uint32_t w32[4] = { 1492943506u, 2863311531u, 0xffffffffu, 0 };
    if (i < 4) return (level0 ? w16 : w32)[i];
    return level0 ? checkasm_rand() & 0xffff : checkasm_rand() ^ checkasm_rand() << 16;
}

static bool check_mask_terms(const AdmDSPContext *c, const AdmDSPContext *n, bool level0,
                             const char *func, const char *isa, int w, enum Content ct,
                             unsigned wi)
{
    CheckasmBuf in[3], out[4];
    int32_t *x[3];
    uint32_t q[3], *o[4];
    for (int b = 0; b < 3; b++) {
        x[b] = row_alloc(&in[b], w, 4);
        for (int j = 0; j < w; j++)
            x[b][j] = value(ct, 32, level0 ? 1 << 16 : 1 << 28, (unsigned)(j + b));
        q[b] = weight(level0, wi + (unsigned)b);
    }
    for (int k = 0; k < 4; k++) o[k] = row_alloc(&out[k], w, 4);
    const int32_t *const *xc = (const int32_t *const *)x;
    (level0 ? c->mask_terms_16 : c->mask_terms_32)(xc, w, q, o[0], o[1]);
    (level0 ? n->mask_terms_16 : n->mask_terms_32)(xc, w, q, o[2], o[3]);
    char where[128];
    snprintf(where, sizeof(where), "weights %u %u %u, width %d, %s", q[0], q[1], q[2], w,
             content_name[ct]);
    const bool ok = compare(func, isa, "sum", o[0], o[2], w, 4, where) &&
                    compare(func, isa, "centre", o[1], o[3], w, 4, where);
    for (int k = 0; k < 3; k++) free(in[k].mem);
    for (int k = 0; k < 4; k++) free(out[k].mem);
    return ok;
}

static bool check_mask_threshold(const AdmDSPContext *c, const AdmDSPContext *n,
                                 const char *isa, int w, enum Content ct)
{
    CheckasmBuf in[4], out[2];
    uint32_t *sum[3], *centre, *o[2];
    for (int k = 0; k < 3; k++) {
        sum[k] = row_alloc(&in[k], w + 2, 4);
        sum[k]++; /* entries -1 and w are the caller's mirror */
        for (int j = -1; j <= w; j++)
            sum[k][j] = (uint32_t)value(ct, 32, 1 << 20, (unsigned)(j + 1 + k));
    }
    centre = row_alloc(&in[3], w, 4);
    for (int j = 0; j < w; j++) centre[j] = (uint32_t)value(ct, 32, 1 << 20, (unsigned)j);
    for (int k = 0; k < 2; k++) o[k] = row_alloc(&out[k], w, 4);
    const uint32_t *const *sc = (const uint32_t *const *)sum;
    c->mask_threshold(sc, centre, w, o[0]);
    n->mask_threshold(sc, centre, w, o[1]);
    char where[64];
    snprintf(where, sizeof(where), "width %d, %s", w, content_name[ct]);
    const bool ok = compare("mask_threshold", isa, "thr", o[0], o[1], w, 4, where);
    for (int k = 0; k < 4; k++) free(in[k].mem);
    for (int k = 0; k < 2; k++) free(out[k].mem);
    return ok;
}

/* ---- row sums: masked and reference cubes ---- */

enum SumKind { MASKED_16, MASKED_32, REFERENCE_16, REFERENCE_32, N_SUMS };
static const char *const sum_name[N_SUMS] = { "masked_cubes_16", "masked_cubes_32",
                                              "reference_cubes_16", "reference_cubes_32" };

typedef struct SumCase {
    enum SumKind kind;
    const int32_t *x;
    const uint32_t *thr;
    uint32_t q;
    unsigned thr_shift, sq_shift, cube_shift;
} SumCase;

static uint64_t row_sum(const AdmDSPContext *d, const SumCase *s, int w)
{
    switch (s->kind) {
    case MASKED_16:
        return (uint64_t)d->masked_cubes_16(s->x, s->thr, w, s->q, s->thr_shift, s->sq_shift,
                                            s->cube_shift);
    case MASKED_32:
        return (uint64_t)d->masked_cubes_32(s->x, s->thr, w, s->q, s->thr_shift, s->sq_shift,
                                            s->cube_shift);
    case REFERENCE_16: return d->reference_cubes_16(s->x, w);
    default: return d->reference_cubes_32(s->x, w, s->sq_shift, s->cube_shift);
    }
}

static bool compare_sum(const AdmDSPContext *c, const AdmDSPContext *n, const char *isa,
                        const SumCase *s, int w, const char *where)
{
    const uint64_t ref = row_sum(c, s, w), new = row_sum(n, s, w);
    if (ref == new) return true;
    int first = 1;
    while (first < w && row_sum(c, s, first) == row_sum(n, s, first)) first++;
    checkasm_fail(sum_name[s->kind], isa, "%s: sum of the row %llu, simd %llu; first differing "
                  "prefix ends at x[%d] = %d", where, (unsigned long long)ref,
                  (unsigned long long)new, first - 1, s->x[first - 1]);
    return false;
}

/* Shifts of the levels and others: level 0's thresholds by 10 and 12,
 * squares by 29 and 30, cubes by 0 to 8; levels 1 to 3: 0, 30 and 0 to 12;
 * the reference's squares by 30 and 31. */
static const unsigned thr_shifts[3] = { 0, 10, 12 }, sq_shifts[3] = { 29, 30, 31 };

static bool check_sum(const AdmDSPContext *c, const AdmDSPContext *n, const char *isa,
                      enum SumKind kind, int w, enum Content ct, unsigned variant)
{
    const bool level0 = kind == MASKED_16 || kind == REFERENCE_16;
    CheckasmBuf in[2];
    int32_t *x = row_alloc(&in[0], w, 4);
    uint32_t *thr = row_alloc(&in[1], w, 4);
    const int32_t usual = level0 ? 1 << 17 : 1 << 29;
    for (int j = 0; j < w; j++) {
        x[j] = value(ct, 32, usual, (unsigned)j);
        /* thresholds below the values, or anything */
        thr[j] = variant & 1 ? (uint32_t)value(ct, 32, usual, (unsigned)j + 1)
                             : checkasm_rand() % (level0 ? 1u << 8 : 1u << 20);
    }
    const SumCase s = {
        .kind = kind, .x = x, .thr = thr, .q = weight(level0, variant % 6),
        .thr_shift = thr_shifts[variant % 3], .sq_shift = sq_shifts[(variant / 3) % 3],
        .cube_shift = (variant * 5) % 13,
    };
    char where[128];
    snprintf(where, sizeof(where), "weight %u, shifts %u %u %u, width %d, %s", s.q, s.thr_shift,
             s.sq_shift, s.cube_shift, w, content_name[ct]);
    const bool ok = compare_sum(c, n, isa, &s, w, where);
    free(in[0].mem);
    free(in[1].mem);
    return ok;
}

/* ---- bench: median ns per row ---- */

enum Entry {
    ROW_TO_INT_8, ROW_TO_INT_16, DWT_V16, DWT_H16, DWT_V32, DWT_H32, DECOUPLE_0, DECOUPLE_1,
    MASK_TERMS_16, MASK_TERMS_32, MASK_THRESHOLD, SUM_M16, SUM_M32, SUM_R16, SUM_R32, N_ENTRIES
};

static const char *const entry_name[N_ENTRIES] = {
    "row_to_int_8", "row_to_int_16", "dwt_vertical_16", "dwt_horizontal_16", "dwt_vertical_32",
    "dwt_horizontal_32", "decouple", "decouple", "mask_terms_16", "mask_terms_32",
    "mask_threshold", "masked_cubes_16", "masked_cubes_32", "reference_cubes_16",
    "reference_cubes_32",
};

/* What a row of 1080p holds: 1920 samples, 960 band positions; the
 * decoupling at level 0's and levels 1 to 3's magnitudes. */
static const char *const bench_what[N_ENTRIES] = {
    "1920 columns", "1920 columns", "1920 columns", "1920 columns", "1920 columns",
    "1920 columns", "960, level 0", "960, levels 1-3", "960 positions", "960 positions",
    "960 positions", "960 positions", "960 positions", "960 positions", "960 positions",
};

typedef struct BenchRows {
    CheckasmBuf buf[22];
    void *row[22];
    const int32_t *recip;
} BenchRows;

static void bench_call(const AdmDSPContext *d, enum Entry e, BenchRows *b)
{
    void *const *p = b->row;
    const int32_t *const *in = (const int32_t *const *)p;
    int32_t *const *out = (int32_t *const *)(p + 16);
    static const uint32_t q[3] = { 36453, 36453, 49417 };
    const int w = 960;
    switch (e) {
    case ROW_TO_INT_8: d->row_to_int_8(p[0], p[16], 1920, 8); break;
    case ROW_TO_INT_16: d->row_to_int_16(p[0], p[16], 1920, 10); break;
    case DWT_V16: d->dwt_vertical_16((const int16_t *const *)p, 1920, 128, 8, p[16], p[17]); break;
    case DWT_H16: d->dwt_horizontal_16(p[0], p[1], 1920, 32768, 16, p[16], p[17], p[18], p[19]);
        break;
    case DWT_V32: d->dwt_vertical_32(in, 1920, 32768, 16, p[16], p[17]); break;
    case DWT_H32: d->dwt_horizontal_32(p[0], p[1], 1920, 32768, 16, p[16], p[17], p[18], p[19]);
        break;
    case DECOUPLE_0: d->decouple(in, in + 3, w, b->recip, 0.99969541f, 100.0, out, out + 3); break;
    case DECOUPLE_1:
        d->decouple(in + 6, in + 9, w, b->recip, 0.99969541f, 100.0, out, out + 3);
        break;
    case MASK_TERMS_16: d->mask_terms_16(in, w, q, p[16], p[17]); break;
    case MASK_TERMS_32: d->mask_terms_32(in + 6, w, q, p[16], p[17]); break;
    case MASK_THRESHOLD:
        d->mask_threshold((const uint32_t *const *)p + 12, p[15], w, p[16]);
        break;
    case SUM_M16: d->masked_cubes_16(in[0], p[12], w, q[0], 10, 29, 6); break;
    case SUM_M32: d->masked_cubes_32(in[6], p[12], w, 1492943506u, 0, 30, 10); break;
    case SUM_R16: d->reference_cubes_16(in[0], w); break;
    default: d->reference_cubes_32(in[6], w, 30, 10); break;
    }
}

/* Rows 0-5 of level 0's magnitudes, 6-11 of the deeper levels', 12-15
 * masking sums, 16-21 outputs. */
static double bench_entry(const AdmDSPContext *d, enum Entry e, const int32_t *recip)
{
    BenchRows b = { .recip = recip };
    for (int k = 0; k < 22; k++) {
        int32_t *r = row_alloc(&b.buf[k], 1920 + 2, 4);
        for (int x = -1; x < 1920 + 2; x++) {
            const int32_t v = (int32_t)(checkasm_rand() % 8192) - 4096;
            r[x] = k < 6 ? v : k < 12 ? v << 12 : (int32_t)(checkasm_rand() & 0xfff);
        }
        b.row[k] = r;
    }
    const int reps = 32;
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (int i = 0; i < reps; i++) bench_call(d, e, &b);
        t[run] = (checkasm_now_ns() - t0) / reps;
    }
    for (int k = 0; k < 22; k++) free(b.buf[k].mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

/* ---- the module ---- */

static const void *entry_of(const AdmDSPContext *d, enum Entry e)
{
    switch (e) {
    case ROW_TO_INT_8: return (const void *)d->row_to_int_8;
    case ROW_TO_INT_16: return (const void *)d->row_to_int_16;
    case DWT_V16: return (const void *)d->dwt_vertical_16;
    case DWT_H16: return (const void *)d->dwt_horizontal_16;
    case DWT_V32: return (const void *)d->dwt_vertical_32;
    case DWT_H32: return (const void *)d->dwt_horizontal_32;
    case DECOUPLE_0:
    case DECOUPLE_1: return (const void *)d->decouple;
    case MASK_TERMS_16: return (const void *)d->mask_terms_16;
    case MASK_TERMS_32: return (const void *)d->mask_terms_32;
    case MASK_THRESHOLD: return (const void *)d->mask_threshold;
    case SUM_M16: return (const void *)d->masked_cubes_16;
    case SUM_M32: return (const void *)d->masked_cubes_32;
    case SUM_R16: return (const void *)d->reference_cubes_16;
    default: return (const void *)d->reference_cubes_32;
    }
}

/* Every width and content of one entry (and every depth, rounding, gain
 * limit or weight and shift it takes). */
static bool check_entry(const AdmDSPContext *c, const AdmDSPContext *n, enum Entry e,
                        const char *isa, const int32_t *recip)
{
    static const double gains[3] = { 100.0, 1.0, 2.7 };
    const float cos_1deg_sq = (float)(0.99984769515639126 * 0.99984769515639126);
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        const int w = (int)checkasm_width(wi, 1);
        for (int ct = 0; ct < N_CONTENT && ok; ct++) {
            const enum Content k = (enum Content)ct;
            switch (e) {
            case ROW_TO_INT_8: ok = check_row_to_int(c, n, entry_name[e], isa, 8, w, k); break;
            case ROW_TO_INT_16:
                for (unsigned bi = 1; bi < CHECKASM_N_BPC && ok; bi++)
                    ok = check_row_to_int(c, n, entry_name[e], isa, checkasm_bpc[bi], w, k);
                break;
            case DWT_V16:
            case DWT_H16:
            case DWT_V32:
            case DWT_H32: break; /* check_pass */
            case DECOUPLE_0:
            case DECOUPLE_1:
                for (int g = 0; g < 3 && ok; g++) {
                    const Decoupling p = { recip, cos_1deg_sq, gains[g] };
                    ok = e == DECOUPLE_0 ? check_decouple(c, n, isa, &p, w, k, 32767, "level 0")
                                         : check_decouple(c, n, isa, &p, w, k, 1 << 27,
                                                          "levels 1-3");
                }
                break;
            case MASK_TERMS_16:
            case MASK_TERMS_32:
                for (unsigned v = 0; v < 6 && ok; v++)
                    ok = check_mask_terms(c, n, e == MASK_TERMS_16, entry_name[e], isa, w, k,
                                          v * 2);
                break;
            case MASK_THRESHOLD: ok = check_mask_threshold(c, n, isa, w, k); break;
            default:
                for (unsigned v = 0; v < 18 && ok; v++)
                    ok = check_sum(c, n, isa, (enum SumKind)(e - SUM_M16), w, k, v);
                break;
            }
        }
    }
    return ok;
}

void checkasm_check_adm(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    AdmDSPContext c, below, n;
    vqx_adm_dsp_init(&c, 0);
    vqx_adm_dsp_init(&below, level->below);
    vqx_adm_dsp_init(&n, level->flags);
    int32_t *recip = checkasm_malloc(32769 * sizeof(int32_t));
    recip[0] = 0;
    for (int i = 1; i <= 32768; i++) recip[i] = (1 << 30) / i;
    for (int e = 0; e < N_ENTRIES; e++) {
        if (entry_of(&n, e) == entry_of(&below, e) || e == DECOUPLE_1) continue;
        bool ok;
        if (e >= DWT_V16 && e <= DWT_H32) {
            const bool vertical = !((e - DWT_V16) & 1), wide = e >= DWT_V32;
            ok = check_pass(&c, &n, vertical ? check_vertical : check_horizontal, wide,
                            entry_name[e], isa, vertical);
        } else {
            ok = check_entry(&c, &n, e, isa, recip);
            if (ok && e == DECOUPLE_0) ok = check_entry(&c, &n, DECOUPLE_1, isa, recip);
        }
        checkasm_checked(entry_name[e], isa, ok);
        if (!ok || !checkasm_benching()) continue;
        for (int k = e; k <= (e == DECOUPLE_0 ? DECOUPLE_1 : e); k++)
            checkasm_report_bench(entry_name[k], isa, bench_what[k], bench_entry(&c, k, recip),
                                  bench_entry(&n, k, recip));
    }
    free(recip);
}
