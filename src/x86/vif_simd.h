/*
 * Integer VIF's stages at one vector width, with the C's integer results
 * and, per lane, its double steps in its order: included by vif_avx2.c,
 * vif_avx512.c and vif_avx512icl.c, which first define
 *   VEC, LANES           the integer vector type, its 32-bit lanes
 *   VI(op), VSET64(x), VZERO(), VAND, VANDNOT, VXOR, VLOAD(p), VSTORE(p, v)
 *   HALF, HI(op), HZERO()   the integer vector of LANES / 2 32-bit lanes
 *   VECD, VD(op), VCASTPD(d), VTRUNC(d)   LANES / 2 doubles, their bits, d
 *                        rounded toward zero
 *   NAME(f)              f with the ISA's suffix
 *   load_bytes(p)        2 LANES bytes as 16-bit lanes
 *   cmp_gt(a, b)         signed 32-bit a > b as all-ones lanes
 *   lo_half(v), hi_half(v), join(lo, hi), narrow64(v) (the low dwords of
 *                        the 64-bit lanes), high_dwords(a, b) (the high
 *                        dwords of the 64-bit lanes of a in the even 32-bit
 *                        lanes, of b in the odd), clz32(x) (the leading
 *                        zeros of x in [2^8, 2^31)), gather_dwords(t, off)
 *                        (the dwords of t at byte offsets off)
 *   store_cols(p, lo, hi)    2 LANES dwords in unpack order (lo: the 32-bit
 *                        lanes of unpacklo_epi16) to p in column order
 *   pack_cols(a, b)      the 2 LANES dwords of a then b (each below 2^16) as
 *                        words in column order
 *   store_means(p, v)    LANES dwords (below 2^16) as 16-bit stores
 *   window(cur, next, d) the LANES dwords of the pair (cur, next) from its
 *                        dword d, 0 <= d <= VIF_MAX_HALF (<= LANES; d
 *                        constant: an immediate shift)
 * and, optionally, VIF_LOG2_POLY with log2_poly(j) (the log2 table's entry
 * 2^15 + j, computed), which adds the entries NAME(..._poly) that use it,
 * and VIF_DPWSSD(acc, a, b) (VNNI's acc + madd(a, b), vif_avx512icl.c).
 *
 * The filters multiply 16-bit words with madd (pmaddwd: exact signed 16 x
 * 16-bit products, pairs summed in 32 bits). Words above 2^15 (squares and
 * their halves, 16-bit means) are taken as w - 2^15 (xor 0x8000): taps sum
 * to 65536, so every sum comes out short by 2^15 * 65536 = 2^31, added
 * back mod 2^32; no tap reaches 2^15 but scale 3's centre, which is split
 * over two words. Integer sums do not depend on the order of their terms,
 * and the C's wrap mod 2^32 where the vector sums do, so each 32-bit value
 * equals the C's; where the C sums in 64 bits the value is rebuilt from
 * the sums of the high and low 16 bits of each term, both below 2^32.
 * Column passes work on 2 LANES columns a step and go to the C below that;
 * their last step overlaps the previous one and rewrites its values
 * unchanged. row_stats keeps its columns as biased 16-bit words of its
 * own (the scratch) and masks the lanes past the row.
 */
#ifndef VQX_X86_VIF_SIMD_H
#define VQX_X86_VIF_SIMD_H

#include <stdint.h>

#include "x86/vif.h"

#define COLS (2 * LANES)
#define MAX_TAPS (2 * VIF_MAX_HALF + 1)
/* 32-bit lanes of 2^31, the bias of the madd sums */
#define BIAS31 VI(set1_epi32)(INT32_MIN)

static void tap_rows(const VifPlane *p, unsigned row, const VifFilter *f,
                     const uint8_t **r, const uint8_t **d)
{
    const int top = (int)row - (int)(f->width / 2);
    for (unsigned k = 0; k < f->width; k++) {
        const unsigned y = vif_mirror(top + (int)k, p->h);
        r[k] = (const uint8_t *)p->ref + (ptrdiff_t)y * p->ref_stride;
        d[k] = (const uint8_t *)p->dis + (ptrdiff_t)y * p->dis_stride;
    }
}

/* The words (lo, hi) in every 32-bit lane. */
ALWAYS_INLINE VEC word_pair(unsigned lo, unsigned hi)
{
    return VI(set1_epi32)((int32_t)(lo | hi << 16));
}

/* acc + madd(a, b), mod 2^32: one vpdpwssd where the ISA has VNNI
 * (VIF_DPWSSD; it wraps as the add does), else madd and add. */
ALWAYS_INLINE VEC madd_add(VEC acc, VEC a, VEC b)
{
#ifdef VIF_DPWSSD
    return VIF_DPWSSD(acc, a, b);
#else
    return VI(add_epi32)(acc, VI(madd_epi16)(a, b));
#endif
}

/* acc += madd of the words of a and b interleaved (unpack order) with t. */
ALWAYS_INLINE void madd_rows(VEC acc[2], VEC a, VEC b, VEC t)
{
    acc[0] = madd_add(acc[0], VI(unpacklo_epi16)(a, b), t);
    acc[1] = madd_add(acc[1], VI(unpackhi_epi16)(a, b), t);
}

/* (v + round) >> shift, then the C's (uint16_t) cast. */
ALWAYS_INLINE VEC round_mean(VEC v, VEC round, __m128i shift)
{
    return VAND(VI(srl_epi32)(VI(add_epi32)(v, round), shift), VI(set1_epi32)(0xffff));
}

/* ---- vertical passes ---- */

/* row_stats' columns: 8 arrays of ROW_WORDS(w) biased words (mu1, mu2,
 * then the low and high words of ref_sq, dis_sq and ref_dis), column x at
 * word VIF_MAX_HALF + x; the horizontal pass reads from column -half on,
 * and the last steps read (and ignore) words past the row's margin. */
#define ROW_WORDS(w) ((((size_t)(w) + 2 * VIF_MAX_HALF + 2 + 2 * COLS) + 31) & ~(size_t)31)
_Static_assert(8 * 2 * (2 * VIF_MAX_HALF + 2 + 2 * COLS + 31) <= 32 * 128,
               "VIF_ROW_SCRATCH holds the 8 arrays");

typedef struct Words {
    uint16_t *q[8];
} Words;

static Words words_of(void *scratch, unsigned w)
{
    Words c;
    for (int i = 0; i < 8; i++) c.q[i] = (uint16_t *)scratch + i * ROW_WORDS(w) + VIF_MAX_HALF;
    return c;
}

/* The dwords a, b (unpack order, below 2^16) as biased words in column
 * order: packus takes 4 dwords of each per 128-bit lane, as unpack left
 * them, and saturates nothing. */
ALWAYS_INLINE void store_words(uint16_t *p, VEC a, VEC b)
{
    VSTORE(p, VXOR(VI(packus_epi32)(a, b), VI(set1_epi16)((short)0x8000)));
}

/* A 32-bit moment as its low and high words. */
ALWAYS_INLINE void store_moment(uint16_t *lo, uint16_t *hi, VEC a, VEC b)
{
    const VEC m = VI(set1_epi32)(0xffff);
    store_words(lo, VAND(a, m), VAND(b, m));
    store_words(hi, VI(srli_epi32)(a, 16), VI(srli_epi32)(b, 16));
}

/* The vertical taps of the row pairs (k, n - 1 - k), k <= n / 2, as dwords
 * that the steps broadcast from memory: `pair` the words (ca, cb) for madd,
 * `tap` the tap itself. With 16-bit samples the centre pairs with itself,
 * its tap split in two; with bytes it pairs with a zero row, (c, c). */
typedef struct ColumnTaps {
    int32_t pair[VIF_MAX_HALF + 1], tap[VIF_MAX_HALF + 1];
} ColumnTaps;

static void column_taps(const VifFilter *f, int bytes, ColumnTaps *t)
{
    const unsigned n = f->width, half = n / 2;
    for (unsigned k = 0; k <= half; k++) {
        const unsigned c = f->taps[k];
        const int split = k == half && !bytes;
        const unsigned ca = split ? c - c / 2 : c, cb = split ? c / 2 : f->taps[n - 1 - k];
        t->pair[k] = (int32_t)(ca | cb << 16);
        t->tap[k] = (int32_t)c;
    }
}

/* 8 bits: squares (below 2^16) and their sums over a pair of rows (below
 * 2^17) fit madd's products, and tap * sum fits 32 bits, as the C's 32-bit
 * sums of squares; with symmetric taps each row pair (k, n - 1 - k) shares
 * one multiply, the centre goes with a zero row. */
typedef struct Stats8 {
    VEC mu1[2], mu2[2], rr[2], dd[2], rd[2];
} Stats8;

ALWAYS_INLINE void stats8_rows(Stats8 *s, VEC ra, VEC rb, VEC da, VEC db, const ColumnTaps *t,
                               unsigned k)
{
    const VEC cc = VI(set1_epi32)(t->pair[k]), c32 = VI(set1_epi32)(t->tap[k]);
    const VEC p[2] = { VI(unpacklo_epi16)(ra, rb), VI(unpackhi_epi16)(ra, rb) };
    const VEC q[2] = { VI(unpacklo_epi16)(da, db), VI(unpackhi_epi16)(da, db) };
    for (int h = 0; h < 2; h++) {
        s->mu1[h] = madd_add(s->mu1[h], p[h], cc);
        s->mu2[h] = madd_add(s->mu2[h], q[h], cc);
        s->rr[h] = VI(add_epi32)(s->rr[h], VI(mullo_epi32)(VI(madd_epi16)(p[h], p[h]), c32));
        s->dd[h] = VI(add_epi32)(s->dd[h], VI(mullo_epi32)(VI(madd_epi16)(q[h], q[h]), c32));
        s->rd[h] = VI(add_epi32)(s->rd[h], VI(mullo_epi32)(VI(madd_epi16)(p[h], q[h]), c32));
    }
}

ALWAYS_INLINE void stats8_step(const uint8_t *const *r, const uint8_t *const *d, unsigned n,
                               const ColumnTaps *t, const VifShifts *sh, const Words *out,
                               unsigned x)
{
    const unsigned half = n / 2;
    Stats8 s;
    s.mu1[0] = s.mu1[1] = s.mu2[0] = s.mu2[1] = VZERO();
    s.rr[0] = s.rr[1] = s.dd[0] = s.dd[1] = s.rd[0] = s.rd[1] = VZERO();
    for (unsigned k = 0; k < half; k++)
        stats8_rows(&s, load_bytes(r[k] + x), load_bytes(r[n - 1 - k] + x),
                    load_bytes(d[k] + x), load_bytes(d[n - 1 - k] + x), t, k);
    stats8_rows(&s, load_bytes(r[half] + x), VZERO(), load_bytes(d[half] + x), VZERO(), t,
                half);
    const VEC mround = VI(set1_epi32)((int32_t)sh->mean_round);
    const __m128i mshift = _mm_cvtsi32_si128((int)sh->mean);
    /* the 8-bit C sums squares in 32 bits: its round is taken to 32 bits */
    const VEC sround = VI(set1_epi32)((int32_t)(uint32_t)sh->sq_round);
    const __m128i sshift = _mm_cvtsi32_si128((int)sh->sq);
#define SQ(v) VI(srl_epi32)(VI(add_epi32)(v, sround), sshift)
    store_words(out->q[0] + x, round_mean(s.mu1[0], mround, mshift),
                round_mean(s.mu1[1], mround, mshift));
    store_words(out->q[1] + x, round_mean(s.mu2[0], mround, mshift),
                round_mean(s.mu2[1], mround, mshift));
    store_moment(out->q[2] + x, out->q[3] + x, SQ(s.rr[0]), SQ(s.rr[1]));
    store_moment(out->q[4] + x, out->q[5] + x, SQ(s.dd[0]), SQ(s.dd[1]));
    store_moment(out->q[6] + x, out->q[7] + x, SQ(s.rd[0]), SQ(s.rd[1]));
#undef SQ
}

/* 16-bit samples: the means by biased madd; the squares and products
 * (below 2^32) as their high and low words (mulhi/mullo), each summed by
 * biased madd into H and L below 65536 * 65535; the C's
 * (sum + round) >> shift of the 48-bit sum 2^16 H + L, for shifts up to
 * 16, is (H << (16 - shift)) + ((L + round) >> shift), taken mod 2^32 as
 * the C's cast. Rows pair as (k, n - 1 - k), the centre with itself, its
 * tap split in two. Two parts, to keep 8 sums in registers: ref and dis
 * means with ref squares, then dis squares and products. */
ALWAYS_INLINE void stats16_rows(VEC acc[4][2], int part, VEC ra, VEC rb, VEC da, VEC db, VEC t)
{
    const VEC bias = VI(set1_epi16)((short)0x8000);
#define LO(x, y) VXOR(VI(mullo_epi16)(x, y), bias)
#define HI16(x, y) VXOR(VI(mulhi_epu16)(x, y), bias)
    if (part == 0) {
        madd_rows(acc[0], VXOR(ra, bias), VXOR(rb, bias), t);
        madd_rows(acc[1], VXOR(da, bias), VXOR(db, bias), t);
        madd_rows(acc[2], LO(ra, ra), LO(rb, rb), t);
        madd_rows(acc[3], HI16(ra, ra), HI16(rb, rb), t);
    } else {
        madd_rows(acc[0], LO(da, da), LO(db, db), t);
        madd_rows(acc[1], HI16(da, da), HI16(db, db), t);
        madd_rows(acc[2], LO(ra, da), LO(rb, db), t);
        madd_rows(acc[3], HI16(ra, da), HI16(rb, db), t);
    }
#undef LO
#undef HI16
}

/* The rounded, shifted moment of the biased sums of its low and high words. */
ALWAYS_INLINE VEC moment16(VEC lo, VEC hi, VEC round, __m128i shift, __m128i up)
{
    const VEC h = VI(add_epi32)(hi, BIAS31), l = VI(add_epi32)(lo, round);
    return VI(add_epi32)(VI(sll_epi32)(h, up), VI(srl_epi32)(l, shift));
}

ALWAYS_INLINE void stats16_step(const uint8_t *const *r, const uint8_t *const *d, unsigned n,
                                const ColumnTaps *t, const VifShifts *sh, const Words *out,
                                unsigned x, int part)
{
    const unsigned half = n / 2;
    VEC acc[4][2];
    for (int i = 0; i < 4; i++) acc[i][0] = acc[i][1] = VZERO();
    for (unsigned k = 0; k <= half; k++) {
        const unsigned kb = n - 1 - k;
        stats16_rows(acc, part, VLOAD((const uint16_t *)r[k] + x),
                     VLOAD((const uint16_t *)r[kb] + x), VLOAD((const uint16_t *)d[k] + x),
                     VLOAD((const uint16_t *)d[kb] + x), VI(set1_epi32)(t->pair[k]));
    }
    const VEC sround = VI(set1_epi32)((int32_t)((uint32_t)sh->sq_round + 0x80000000u));
    const __m128i sshift = _mm_cvtsi32_si128((int)sh->sq);
    const __m128i up = _mm_cvtsi32_si128(16 - (int)sh->sq);
    if (part == 0) {
        const VEC mround = VI(set1_epi32)((int32_t)(sh->mean_round + 0x80000000u));
        const __m128i mshift = _mm_cvtsi32_si128((int)sh->mean);
        store_words(out->q[0] + x, round_mean(acc[0][0], mround, mshift),
                    round_mean(acc[0][1], mround, mshift));
        store_words(out->q[1] + x, round_mean(acc[1][0], mround, mshift),
                    round_mean(acc[1][1], mround, mshift));
        store_moment(out->q[2] + x, out->q[3] + x,
                     moment16(acc[2][0], acc[3][0], sround, sshift, up),
                     moment16(acc[2][1], acc[3][1], sround, sshift, up));
    } else {
        store_moment(out->q[4] + x, out->q[5] + x,
                     moment16(acc[0][0], acc[1][0], sround, sshift, up),
                     moment16(acc[0][1], acc[1][1], sround, sshift, up));
        store_moment(out->q[6] + x, out->q[7] + x,
                     moment16(acc[2][0], acc[3][0], sround, sshift, up),
                     moment16(acc[2][1], acc[3][1], sround, sshift, up));
    }
}

/* The vertical low-pass of bytes: the filters are symmetric, so rows k and
 * n - 1 - k are added first (words below 2^9), and madd pairs two such
 * sums, (k, k + 1), with their taps; the centre goes with the last sum, or
 * with itself, its tap split in two. */
ALWAYS_INLINE void means_bytes(const uint8_t *const *r, const VifFilter *f, unsigned x,
                               VEC acc[2])
{
    const unsigned n = f->width, half = n / 2;
    VEC u[VIF_MAX_HALF + 1];
    for (unsigned k = 0; k < half; k++)
        u[k] = VI(add_epi16)(load_bytes(r[k] + x), load_bytes(r[n - 1 - k] + x));
    u[half] = load_bytes(r[half] + x);
    unsigned k = 0;
    for (; k + 1 <= half; k += 2)
        madd_rows(acc, u[k], u[k + 1], word_pair(f->taps[k], f->taps[k + 1]));
    if (k == half) {
        const unsigned c = f->taps[half];
        madd_rows(acc, u[half], u[half], word_pair(c - c / 2, c / 2));
    }
}

/* The vertical low-pass: madd over row pairs (k, n - 1 - k) and the centre
 * with itself (its tap split in two) of 16-bit samples, biased; bytes by
 * means_bytes. */
ALWAYS_INLINE void means_step(const uint8_t *const *r, const uint8_t *const *d,
                              const VifFilter *f, VEC round, __m128i shift, uint32_t *ref_out,
                              uint32_t *dis_out, unsigned x, int bytes)
{
    const unsigned n = f->width, half = n / 2;
    const VEC bias = VI(set1_epi16)((short)0x8000);
    VEC a[2] = { VZERO(), VZERO() }, b[2] = { VZERO(), VZERO() };
    if (bytes) {
        means_bytes(r, f, x, a);
        means_bytes(d, f, x, b);
    } else {
        for (unsigned k = 0; k <= half; k++) {
            const unsigned kb = n - 1 - k;
            const unsigned ca = k < half ? f->taps[k] : f->taps[k] - f->taps[k] / 2;
            const unsigned cb = k < half ? f->taps[kb] : f->taps[k] / 2;
            const VEC t = word_pair(ca, cb);
            madd_rows(a, VXOR(VLOAD((const uint16_t *)r[k] + x), bias),
                      VXOR(VLOAD((const uint16_t *)r[kb] + x), bias), t);
            madd_rows(b, VXOR(VLOAD((const uint16_t *)d[k] + x), bias),
                      VXOR(VLOAD((const uint16_t *)d[kb] + x), bias), t);
        }
    }
    store_cols(ref_out + x, round_mean(a[0], round, shift), round_mean(a[1], round, shift));
    store_cols(dis_out + x, round_mean(b[0], round, shift), round_mean(b[1], round, shift));
}

ALWAYS_INLINE void columns_means(const VifPlane *p, unsigned row, const VifFilter *f,
                                 unsigned shift, uint32_t round, uint32_t *ref_out,
                                 uint32_t *dis_out, int bytes)
{
    const uint8_t *r[MAX_TAPS], *d[MAX_TAPS];
    tap_rows(p, row, f, r, d);
    const VEC rnd = VI(set1_epi32)((int32_t)(bytes ? round : round + 0x80000000u));
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (unsigned x = 0;; x += COLS) {
        if (x > p->w - COLS) x = p->w - COLS;
        means_step(r, d, f, rnd, sh, ref_out, dis_out, x, bytes);
        if (x == p->w - COLS) break;
    }
}

VIF_COLUMNS_MEANS(NAME(vqx_vif_columns_means_8bpc))
{
    if (p->w < COLS) vqx_vif_columns_means_8bpc(p, row, f, shift, round, ref_out, dis_out);
    else columns_means(p, row, f, shift, round, ref_out, dis_out, 1);
}

VIF_COLUMNS_MEANS(NAME(vqx_vif_columns_means_16bpc))
{
    if (p->w < COLS) vqx_vif_columns_means_16bpc(p, row, f, shift, round, ref_out, dis_out);
    else columns_means(p, row, f, shift, round, ref_out, dis_out, 0);
}

/* ---- decimation ---- */

/* Outputs of a chunk of the decimation: its columns as words (4 KiB a
 * plane) stay in L1 */
#define DEC_OUTPUTS 1024
#define DEC_WORDS (2 * DEC_OUTPUTS + 2 * VIF_MAX_HALF)
#define DEC_PAIRS (VIF_MAX_HALF + 2)

/* Columns [x0, x0 + n) of a (means below 2^16: packus saturates nothing)
 * as biased words, w - 2^15, in column order (pack_cols); n >= COLS, the
 * last step overlapping the previous one. */
ALWAYS_INLINE void column_words(const uint32_t *a, ptrdiff_t x0, unsigned n, uint16_t *w)
{
    const VEC bias = VI(set1_epi16)((short)0x8000);
    for (unsigned i = 0;; i += COLS) {
        if (i > n - COLS) i = n - COLS;
        VSTORE(w + i, VXOR(pack_cols(VLOAD(a + x0 + i), VLOAD(a + x0 + i + LANES)), bias));
        if (i == n - COLS) break;
    }
}

/* The filter's taps as madd pairs over the words from column 2 j - half:
 * the dword at word 2 t holds columns 2 j - half + 2 t and + 2 t + 1 of
 * output j, taps (t[2 t], t[2 t + 1]) (0 past the filter); a tap above
 * 32767 (scale 3's centre) is split over two entries of the same window.
 * Returns the entries, their words in `word`. */
static unsigned decimate_pairs(const VifFilter *f, unsigned *word, VEC *pair)
{
    const unsigned n = f->width;
    unsigned np = 0;
    for (unsigned k = 0; k < n; k += 2) {
        unsigned rem[2] = { f->taps[k], k + 1 < n ? f->taps[k + 1] : 0 };
        while (rem[0] | rem[1]) {
            const unsigned a = rem[0] < 32767 ? rem[0] : 32767;
            const unsigned b = rem[1] < 32767 ? rem[1] : 32767;
            rem[0] -= a;
            rem[1] -= b;
            word[np] = k;
            pair[np++] = word_pair(a, b);
        }
    }
    return np;
}

/* LANES outputs from the words of their columns: the taps sum to 65536,
 * so the biased sum is short by 2^31 = 2^15 * 65536, added back mod 2^32
 * with the C's round; below 2^16 after the shift, as the C's 32-bit
 * (sum + 32768) >> 16 (sum < 2^32 - 2^15), whose (uint16_t) cast changes
 * nothing. */
ALWAYS_INLINE VEC decimate_words(const uint16_t *w, const unsigned *word, const VEC *pair,
                                 unsigned np)
{
    VEC s = VI(set1_epi32)((int32_t)(0x80000000u + 32768));
    for (unsigned e = 0; e < np; e++) s = madd_add(s, VLOAD(w + word[e]), pair[e]);
    return VI(srli_epi32)(s, 16);
}

/* Outputs c0 .. j1 - 1 from the words of their columns from 2 c0 - half. */
ALWAYS_INLINE void decimate_chunk(const uint16_t *wr, const uint16_t *wd, unsigned c0,
                                  unsigned j1, const unsigned *word, const VEC *pair,
                                  unsigned np, uint16_t *ref_out, uint16_t *dis_out)
{
    for (unsigned j = c0;; j += LANES) {
        if (j > j1 - LANES) j = j1 - LANES;
        const size_t o = 2 * (size_t)(j - c0);
        store_means(ref_out + j, decimate_words(wr + o, word, pair, np));
        store_means(dis_out + j, decimate_words(wd + o, word, pair, np));
        if (j == j1 - LANES) break;
    }
}

VIF_DECIMATE(NAME(vqx_vif_decimate))
{
    if (dst_w < LANES) {
        vqx_vif_decimate_c(ref, dis, dst_w, f, ref_out, dis_out);
        return;
    }
    const unsigned half = f->width / 2;
    unsigned word[DEC_PAIRS];
    VEC pair[DEC_PAIRS];
    const unsigned np = decimate_pairs(f, word, pair);
    _Alignas(64) uint16_t wr[DEC_WORDS], wd[DEC_WORDS];
    for (unsigned j0 = 0; j0 < dst_w; j0 += DEC_OUTPUTS) {
        const unsigned j1 = dst_w - j0 < DEC_OUTPUTS ? dst_w : j0 + DEC_OUTPUTS;
        /* a last chunk narrower than a step starts earlier, its outputs
         * rewritten unchanged */
        const unsigned c0 = j1 - j0 < LANES ? j1 - LANES : j0;
        /* columns 2 c0 - half .. 2 j1 - 1 + half: the last entry's second
         * column, tap 0, is the last one VIF_DECIMATE may read */
        const ptrdiff_t x0 = 2 * (ptrdiff_t)c0 - half;
        const unsigned n = 2 * (j1 - c0) + 2 * half;
        column_words(ref, x0, n, wr);
        column_words(dis, x0, n, wd);
        /* 5 entries at scale 1, 3 at scales 2 and 3: constants, the loop
         * unrolled */
        switch (np) {
        case 5: decimate_chunk(wr, wd, c0, j1, word, pair, 5, ref_out, dis_out); break;
        case 3: decimate_chunk(wr, wd, c0, j1, word, pair, 3, ref_out, dis_out); break;
        default: decimate_chunk(wr, wd, c0, j1, word, pair, np, ref_out, dis_out); break;
        }
    }
}

/* ---- horizontal pass and information terms ---- */

/* Mirrors `half` columns beyond either end of each array (w > half). */
static void mirror_words(const Words *c, unsigned w, unsigned half)
{
    for (int i = 0; i < 8; i++) {
        uint16_t *q = c->q[i];
        for (unsigned f = 1; f <= half; f++) {
            q[-(int)f] = q[f];
            q[w - 1 + f] = q[w - 1 - f];
        }
    }
}

/* Tap pairs of the horizontal pass over the columns P from column -half:
 * the words b + s .. b + s + COLS - 1 (s even) hold columns b + s + 2 i and
 * b + s + 2 i + 1 in dword i, the pair (t[s], t[s + 1]) of output b + 2 i
 * and (t[s - 1], t[s]) of output b + 2 i + 1 (taps outside the filter are
 * 0), so that both parities share each window: `per` entries for each
 * window d = s / 2, entry d * per + j with the pairs even[], odd[]
 * (a | b << 16). per is 1, or 2 where a tap reaches 2^15 (scale 3's
 * centre): such a tap is spread over the two (taps below 65535, as the
 * filters of 3 taps or more). Returns per. */
static unsigned tap_pairs(const VifFilter *f, uint32_t *even, uint32_t *odd)
{
    const unsigned n = f->width;
    unsigned per = 1;
    for (unsigned k = 0; k < n; k++)
        if (f->taps[k] > 32767) per = 2;
#define TAP(k) ((k) >= 0 && (k) < (int)n ? (uint32_t)f->taps[k] : 0)
    for (int s = 0; s < (int)n; s += 2) {
        uint32_t rem[4] = { TAP(s), TAP(s + 1), TAP(s - 1), TAP(s) };
        for (unsigned j = 0; j < per; j++) {
            uint32_t t[4];
            for (int i = 0; i < 4; i++) {
                t[i] = rem[i] < 32767 ? rem[i] : 32767;
                rem[i] -= t[i];
            }
            even[s / 2 * per + j] = t[0] | t[1] << 16;
            odd[s / 2 * per + j] = t[2] | t[3] << 16;
        }
    }
#undef TAP
    return per;
}

/* (uint32_t)((a * b + 2^31) >> 32) + 2^31 of each 32-bit lane (the bias
 * of moment's results, taken off with the difference): the products of
 * the even lanes, then of the odd ones, 2^63 added to the round. */
ALWAYS_INLINE VEC mean_product(VEC a, VEC b)
{
    const VEC round = VSET64(INT64_MIN + INT64_C(2147483648));
    const VEC even = VI(add_epi64)(VI(mul_epu32)(a, b), round);
    const VEC odd = VI(add_epi64)(
        VI(mul_epu32)(VI(srli_epi64)(a, 32), VI(srli_epi64)(b, 32)), round);
    return high_dwords(even, odd);
}

/* The C's (uint32_t)((sum + 2^15) >> 16) of a 48-bit sum 2^16 H + L from
 * the biased sums of its high and low words, less 2^31 (H's bias, which
 * mean_product's cancels): H + ((L + 2^15) >> 16), the carry exact as
 * L + 2^15 < 2^32. */
ALWAYS_INLINE VEC moment(VEC lo, VEC hi)
{
    const VEC l = VI(add_epi32)(lo, VI(set1_epi32)((int32_t)0x80008000u));
    return VI(add_epi32)(hi, VI(srli_epi32)(l, 16));
}

/* The log2 table's entry i = 2^15 + j for j in [0, 2^15), j the low 15
 * bits of v (those above are ignored): from the ISA's in-register formula
 * (log2_poly, where it has one) if `poly`, else from the dword at byte
 * offset 2 i - 2, which holds table[i] in its high half; masked to j, the
 * index stays in the table on every lane. */
ALWAYS_INLINE VEC log2_entry(const uint16_t *table, VEC v, int poly)
{
#ifdef VIF_LOG2_POLY
    if (poly) return log2_poly(v);
#else
    (void)poly;
#endif
    const VEC j = VAND(v, VI(set1_epi32)(0x7fff));
    const VEC off = VI(add_epi32)(VI(add_epi32)(j, j), VI(set1_epi32)(0xfffe));
    return VI(srli_epi32)(gather_dwords(table, off), 16);
}

/* vif_log2_q11_32 of x in [2^17, 2^31): the C's k = 16 - clz32(x), the
 * index x >> k = 2^15 + j. */
ALWAYS_INLINE VEC log2_q11_32(const uint16_t *table, VEC x, int poly)
{
    const VEC k = VI(sub_epi32)(VI(set1_epi32)(16), clz32(x));
    return VI(add_epi32)(log2_entry(table, VI(srlv_epi32)(x, k), poly), VI(slli_epi32)(k, 11));
}

/* For vif_log2_q11_64 of x in [2^17, 2^53), held exactly as a double:
 * its biased exponent E gives floor(log2 x) = E - 1023, so the C's clz
 * gives k = E - 1038, and x >> k = 2^15 + the top 15 bits of the mantissa.
 * Returns, in 32-bit lanes, bits 37..63 of x: those 15 bits, then E (the
 * sign bit is 0). */
ALWAYS_INLINE HALF log2_index_64(VECD x)
{
    return narrow64(VI(srli_epi64)(VCASTPD(x), 37));
}

/* The double steps of LANES / 2 pixels: sets sv (the clamped residual)
 * and the table index and exponent (log2_index_64) of
 * total = trunc(g^2 sigma1) + noise
 * (the int64 cast of a value in [0, 2^46]: g <= the limit <= 100, sigma1 <
 * 2^31; all exact integers in doubles). */
ALWAYS_INLINE void gain_steps(VECD limit, HALF sigma1, HALF sigma2, HALF sigma12, HALF *sv,
                              HALF *idx)
{
    const VECD s1 = VD(cvtepi32_pd)(sigma1), s12 = VD(cvtepi32_pd)(sigma12);
    VECD g = VD(div_pd)(s12, VD(add_pd)(s1, VD(set1_pd)(65536 * 1.0e-10)));
    *sv = HI(max_epi32)(
        VD(cvttpd_epi32)(VD(sub_pd)(VD(cvtepi32_pd)(sigma2), VD(mul_pd)(g, s12))), HZERO());
    /* minpd(g, limit) is g < limit ? g : limit, as the C's !(g < limit) */
    g = VD(min_pd)(g, limit);
    const VECD noise = VD(add_pd)(VD(cvtepi32_pd)(*sv), VD(set1_pd)(VIF_SIGMA_NSQ));
    *idx = log2_index_64(VD(add_pd)(VTRUNC(VD(mul_pd)(VD(mul_pd)(g, g), s1)), noise));
}

/* Sums of the terms: the log terms (each below 2^18 in magnitude) and the
 * count of linear pixels in 32-bit lanes over a block of at most
 * TERM_BLOCK columns, the linear sigma2 terms in 64-bit lanes. */
#define TERM_BLOCK 16384
typedef struct Terms {
    VEC num_log, den_log, minus_den_non_log, num_non_log;
} Terms;

/* vif_add_pixel on LANES pixels a lane each from the horizontal sums acc
 * (biased: mu1, mu2, then the low and high words of ref_sq, dis_sq,
 * ref_dis), of the lanes in `valid`: the C's integer steps at its widths,
 * its branches as masks (integer sums: their order is free), its double
 * steps per lane in order. */
ALWAYS_INLINE void add_terms(Terms *t, const VEC acc[8], VEC valid, const uint16_t *table,
                             VECD limit, int poly)
{
    const VEC mu1 = VI(add_epi32)(acc[0], BIAS31), mu2 = VI(add_epi32)(acc[1], BIAS31);
    const VEC xx = moment(acc[2], acc[3]), yy = moment(acc[4], acc[5]);
    const VEC xy = moment(acc[6], acc[7]);
    const VEC sigma1 = VI(sub_epi32)(xx, mean_product(mu1, mu1));
    const VEC sigma2 = VI(max_epi32)(VI(sub_epi32)(yy, mean_product(mu2, mu2)), VZERO());
    const VEC sigma12 = VI(sub_epi32)(xy, mean_product(mu1, mu2));

    const VEC lg = VAND(valid, cmp_gt(sigma1, VI(set1_epi32)(VIF_SIGMA_NSQ - 1)));
    const VEC lin = VANDNOT(lg, valid);
    t->minus_den_non_log = VI(add_epi32)(t->minus_den_non_log, lin);
    const VEC s2 = VAND(sigma2, lin); /* below 2^31 */
    t->num_non_log = VI(add_epi64)(t->num_non_log, VAND(s2, VSET64(0xffffffff)));
    t->num_non_log = VI(add_epi64)(t->num_non_log, VI(srli_epi64)(s2, 32));

    const VEC nm = VAND(lg, VAND(cmp_gt(sigma12, VZERO()), cmp_gt(sigma2, VZERO())));
    const VEC nsq = VI(set1_epi32)(VIF_SIGMA_NSQ);
    /* the den term on every lane, the num term where nm (others: any value) */
    const VEC den = VI(sub_epi32)(log2_q11_32(table, VI(add_epi32)(sigma1, nsq), poly),
                                  VI(set1_epi32)(2048 * 17));
    HALF sv[2], idx[2];
    gain_steps(limit, lo_half(sigma1), lo_half(sigma2), lo_half(sigma12), &sv[0], &idx[0]);
    gain_steps(limit, hi_half(sigma1), hi_half(sigma2), hi_half(sigma12), &sv[1], &idx[1]);
    const VEC total = join(idx[0], idx[1]);
    const VEC k = VI(sub_epi32)(VI(srli_epi32)(total, 15), VI(set1_epi32)(1023 + 15));
    const VEC total_log = VI(add_epi32)(log2_entry(table, total, poly), VI(slli_epi32)(k, 11));
    const VEC num = VI(sub_epi32)(total_log,
                                  log2_q11_32(table, VI(add_epi32)(join(sv[0], sv[1]), nsq), poly));
    t->den_log = VI(add_epi32)(t->den_log, VAND(lg, den));
    t->num_log = VI(add_epi32)(t->num_log, VAND(nm, num));
}

/* The horizontal pass of `steps` steps of COLS outputs from column b0
 * into h: per step the even outputs (lane i: b + 2 i) then the odd ones
 * (b + 2 i + 1) of the 8 arrays, both parities from the same windows
 * (tap_pairs), each cut from two loads (window): the windows' unaligned
 * loads, nearly all across cache lines, cost more than the shifts. Its own
 * loop, apart from the terms, so that the tap pairs stay in registers; nd
 * (windows) and per are constants where it is inlined, and so are the
 * windows' shifts once the taps' loop is unrolled. */
ALWAYS_INLINE void horizontal(const uint16_t *const q[8], unsigned b0, unsigned steps,
                              unsigned nd, unsigned per, const VEC *te, const VEC *to,
                              VEC (*h)[2][8])
{
    for (unsigned k = 0; k < steps; k++) {
        const size_t b = b0 + (size_t)k * COLS;
        for (int i = 0; i < 8; i++) {
            const VEC cur = VLOAD(q[i] + b), next = VLOAD(q[i] + b + COLS);
            VEC e = VZERO(), o = VZERO();
            for (unsigned m = 0; m < nd * per; m++) {
                const VEC v = window(cur, next, m / per);
                e = madd_add(e, v, te[m]);
                o = madd_add(o, v, to[m]);
            }
            h[k][0][i] = e;
            h[k][1][i] = o;
        }
    }
}

/* Steps of the horizontal pass a block: its sums stay in L1 */
#define H_STEPS 16
_Static_assert(TERM_BLOCK % (H_STEPS * COLS) == 0, "blocks of terms hold whole steps");

/* The horizontal pass over the biased 16-bit columns and the terms of its
 * outputs, H_STEPS steps at a time; the terms do not care about the order
 * of the pixels. poly: log2_entry's. */
ALWAYS_INLINE void row_terms(const Words *c, unsigned w, const VifFilter *f,
                             const uint16_t *log2_table, double gain_limit, VifSums *sums,
                             int poly)
{
    const unsigned half = f->width / 2;
    const uint16_t *q[8];
    for (int i = 0; i < 8; i++) q[i] = c->q[i] - half;
    uint32_t even[2 * VIF_MAX_HALF + 2], odd[2 * VIF_MAX_HALF + 2];
    const unsigned per = tap_pairs(f, even, odd), nd = (f->width + 1) / 2;
    VEC te[2 * VIF_MAX_HALF + 2], to[2 * VIF_MAX_HALF + 2];
    for (unsigned m = 0; m < nd * per; m++) {
        te[m] = VI(set1_epi32)((int32_t)even[m]);
        to[m] = VI(set1_epi32)((int32_t)odd[m]);
    }
    static const int32_t even_lanes[16] = { 0, 2, 4, 6, 8, 10, 12, 14,
                                            16, 18, 20, 22, 24, 26, 28, 30 };
    const VEC lane2 = VLOAD(even_lanes);
    const VECD limit = VD(set1_pd)(gain_limit);
    VEC h[H_STEPS][2][8];
    Terms t;
    t.num_non_log = VZERO();
    for (unsigned b0 = 0; b0 < w; b0 += TERM_BLOCK) {
        const unsigned b1 = w - b0 < TERM_BLOCK ? w : b0 + TERM_BLOCK;
        t.num_log = t.den_log = t.minus_den_non_log = VZERO();
        for (unsigned bb = b0; bb < b1; bb += H_STEPS * COLS) {
            const unsigned left = (b1 - bb + COLS - 1) / COLS;
            const unsigned steps = left < H_STEPS ? left : H_STEPS;
            /* the filters' windows: 9, 5, 3 and 2 (scale 3, its centre split);
             * 2 nd + per tells the (nd, per) apart */
            switch (2 * nd + per) {
            case 19: horizontal(q, bb, steps, 9, 1, te, to, h); break;
            case 11: horizontal(q, bb, steps, 5, 1, te, to, h); break;
            case 7: horizontal(q, bb, steps, 3, 1, te, to, h); break;
            case 6: horizontal(q, bb, steps, 2, 2, te, to, h); break;
            default: horizontal(q, bb, steps, nd, per, te, to, h); break;
            }
            for (unsigned k = 0; k < steps; k++) {
                const unsigned b = bb + k * COLS;
                add_terms(&t, h[k][0], cmp_gt(VI(set1_epi32)((int32_t)(w - b)), lane2),
                          log2_table, limit, poly);
                add_terms(&t, h[k][1], cmp_gt(VI(set1_epi32)((int32_t)(w - b - 1)), lane2),
                          log2_table, limit, poly);
            }
        }
        int32_t lanes[3][LANES];
        VSTORE(lanes[0], t.num_log);
        VSTORE(lanes[1], t.den_log);
        VSTORE(lanes[2], t.minus_den_non_log);
        for (int i = 0; i < LANES; i++) {
            sums->num_log += lanes[0][i];
            sums->den_log += lanes[1][i];
            sums->den_non_log -= lanes[2][i];
        }
    }
    int64_t lin[LANES / 2];
    VSTORE(lin, t.num_non_log);
    for (int i = 0; i < LANES / 2; i++) sums->num_non_log += lin[i];
}

/* The vertical pass of row_stats over w columns; `wide`: 16-bit samples
 * (or means), whose columns take two steps of words. */
ALWAYS_INLINE void columns(const uint8_t *const *r, const uint8_t *const *d, unsigned n,
                           const ColumnTaps *t, const VifShifts *sh, const Words *c, unsigned w,
                           int wide)
{
    for (unsigned x = 0;; x += COLS) {
        if (x > w - COLS) x = w - COLS;
        if (wide) {
            stats16_step(r, d, n, t, sh, c, x, 0);
            stats16_step(r, d, n, t, sh, c, x, 1);
        } else {
            stats8_step(r, d, n, t, sh, c, x);
        }
        if (x == w - COLS) break;
    }
}

/* One output row; `wide` as for columns. */
ALWAYS_INLINE void row_stats(const VifPlane *p, unsigned row, const VifFilter *f,
                             const VifShifts *sh, const VifColumns *cols, void *scratch,
                             const uint16_t *log2_table, double gain_limit, VifSums *sums,
                             int wide, int poly)
{
    if (p->w < COLS) {
        (wide ? vqx_vif_row_stats_16bpc : vqx_vif_row_stats_8bpc)(p, row, f, sh, cols, scratch,
                                                                  log2_table, gain_limit, sums);
        return;
    }
    const uint8_t *r[MAX_TAPS], *d[MAX_TAPS];
    tap_rows(p, row, f, r, d);
    ColumnTaps t;
    column_taps(f, !wide, &t);
    const Words c = words_of(scratch, p->w);
    /* 16 bits: the filters' widths as constants, the tap loops unrolled;
     * 8 bits keep the loop, whose 10 sums and their terms fill the
     * registers (unrolled, the compiler spills) */
    switch (wide ? f->width : 0) {
    case 17: columns(r, d, 17, &t, sh, &c, p->w, wide); break;
    case 9: columns(r, d, 9, &t, sh, &c, p->w, wide); break;
    case 5: columns(r, d, 5, &t, sh, &c, p->w, wide); break;
    case 3: columns(r, d, 3, &t, sh, &c, p->w, wide); break;
    default: columns(r, d, f->width, &t, sh, &c, p->w, wide); break;
    }
    mirror_words(&c, p->w, f->width / 2);
    row_terms(&c, p->w, f, log2_table, gain_limit, sums, poly);
}

#define ROW_STATS_ENTRIES(sfx, poly)                                                      \
    VIF_ROW_STATS(NAME(vqx_vif_row_stats_8bpc##sfx))                                     \
    {                                                                                     \
        row_stats(p, row, f, sh, cols, scratch, log2_table, gain_limit, sums, 0, poly);  \
    }                                                                                     \
    VIF_ROW_STATS(NAME(vqx_vif_row_stats_16bpc##sfx))                                    \
    {                                                                                     \
        row_stats(p, row, f, sh, cols, scratch, log2_table, gain_limit, sums, 1, poly);  \
    }

ROW_STATS_ENTRIES(, 0)
#ifdef VIF_LOG2_POLY
ROW_STATS_ENTRIES(_poly, 1)
#endif

#endif
