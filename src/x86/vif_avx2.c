/*
 * Integer VIF's stages in AVX2, 8 columns at a time: the C's integer
 * arithmetic at the C's widths (32-bit means, 32-bit squares at 8 bits,
 * 64-bit products of a tap and a 32-bit square otherwise), so that every
 * value equals the C's, wraparound included. Taps are innermost here (the
 * column sums stay in registers); integer sums do not depend on the order.
 * A row narrower than 8 columns goes to the C; a wider one ends with a
 * chunk that overlaps the previous one and rewrites its values unchanged.
 */
#include <immintrin.h>

#include "x86/vif.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Rows of the taps of output row `row`, mirrored at the plane's ends. */
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

/* The low 32 bits of the 64-bit lanes of lo (columns 0-3) and hi (4-7), as
 * the C's (uint32_t) casts take them. */
ALWAYS_INLINE __m256i low32(__m256i lo, __m256i hi)
{
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(lo, idx),
                              _mm256_permutevar8x32_epi32(hi, idx), 0xf0);
}

/* (v + round) >> shift, then the C's (uint16_t) cast. */
ALWAYS_INLINE __m256i round_mean(__m256i v, __m256i round, __m128i shift)
{
    return _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(v, round), shift),
                            _mm256_set1_epi32(0xffff));
}

ALWAYS_INLINE void stats8_chunk(const uint8_t **r, const uint8_t **d, const VifFilter *f,
                                const VifShifts *sh, const VifColumns *out, unsigned x)
{
    __m256i mu1 = _mm256_setzero_si256(), mu2 = mu1, rr = mu1, dd = mu1, rd = mu1;
    for (unsigned k = 0; k < f->width; k++) {
        const __m256i c = _mm256_set1_epi32(f->taps[k]);
        const __m256i a = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(r[k] + x)));
        const __m256i b = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(d[k] + x)));
        mu1 = _mm256_add_epi32(mu1, _mm256_mullo_epi32(a, c));
        mu2 = _mm256_add_epi32(mu2, _mm256_mullo_epi32(b, c));
        /* samples below 256 in the low half of each lane: madd is a*b exactly */
        rr = _mm256_add_epi32(rr, _mm256_mullo_epi32(_mm256_madd_epi16(a, a), c));
        dd = _mm256_add_epi32(dd, _mm256_mullo_epi32(_mm256_madd_epi16(b, b), c));
        rd = _mm256_add_epi32(rd, _mm256_mullo_epi32(_mm256_madd_epi16(a, b), c));
    }
    const __m256i mround = _mm256_set1_epi32((int)sh->mean_round);
    const __m128i mshift = _mm_cvtsi32_si128((int)sh->mean);
    /* the 8-bit C sums squares in 32 bits: its round is taken to 32 bits */
    const __m256i sround = _mm256_set1_epi32((int)(uint32_t)sh->sq_round);
    const __m128i sshift = _mm_cvtsi32_si128((int)sh->sq);
    _mm256_storeu_si256((__m256i *)(out->mu1 + x), round_mean(mu1, mround, mshift));
    _mm256_storeu_si256((__m256i *)(out->mu2 + x), round_mean(mu2, mround, mshift));
    _mm256_storeu_si256((__m256i *)(out->ref_sq + x),
                        _mm256_srl_epi32(_mm256_add_epi32(rr, sround), sshift));
    _mm256_storeu_si256((__m256i *)(out->dis_sq + x),
                        _mm256_srl_epi32(_mm256_add_epi32(dd, sround), sshift));
    _mm256_storeu_si256((__m256i *)(out->ref_dis + x),
                        _mm256_srl_epi32(_mm256_add_epi32(rd, sround), sshift));
}

VIF_COLUMNS_STATS(vqx_vif_columns_stats_8bpc_avx2)
{
    if (p->w < 8) {
        vqx_vif_columns_stats_8bpc(p, row, f, sh, out);
        return;
    }
    const uint8_t *r[VIF_MAX_HALF * 2 + 1], *d[VIF_MAX_HALF * 2 + 1];
    tap_rows(p, row, f, r, d);
    unsigned x = 0;
    for (; x + 8 <= p->w; x += 8) stats8_chunk(r, d, f, sh, out, x);
    if (x < p->w) stats8_chunk(r, d, f, sh, out, p->w - 8);
}

/* One tap's 64-bit products c * (a * b) of 4 columns of 16-bit samples. */
ALWAYS_INLINE __m256i sq_tap(__m256i a, __m256i b, __m256i c)
{
    return _mm256_mul_epu32(_mm256_mul_epu32(a, b), c);
}

ALWAYS_INLINE __m256i shift64(__m256i v, __m256i round, __m128i shift)
{
    return _mm256_srl_epi64(_mm256_add_epi64(v, round), shift);
}

ALWAYS_INLINE void stats16_chunk(const uint8_t **r, const uint8_t **d, const VifFilter *f,
                                 const VifShifts *sh, const VifColumns *out, unsigned x)
{
    __m256i mu1 = _mm256_setzero_si256(), mu2 = mu1;
    __m256i rr0 = mu1, rr1 = mu1, dd0 = mu1, dd1 = mu1, rd0 = mu1, rd1 = mu1;
    for (unsigned k = 0; k < f->width; k++) {
        const uint16_t *rp = (const uint16_t *)r[k] + x, *dp = (const uint16_t *)d[k] + x;
        const __m256i c = _mm256_set1_epi32(f->taps[k]);
        const __m256i c64 = _mm256_set1_epi64x(f->taps[k]);
        mu1 = _mm256_add_epi32(
            mu1, _mm256_mullo_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)rp)), c));
        mu2 = _mm256_add_epi32(
            mu2, _mm256_mullo_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)dp)), c));
        const __m256i a0 = _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)rp));
        const __m256i a1 = _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(rp + 4)));
        const __m256i b0 = _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)dp));
        const __m256i b1 = _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(dp + 4)));
        rr0 = _mm256_add_epi64(rr0, sq_tap(a0, a0, c64));
        rr1 = _mm256_add_epi64(rr1, sq_tap(a1, a1, c64));
        dd0 = _mm256_add_epi64(dd0, sq_tap(b0, b0, c64));
        dd1 = _mm256_add_epi64(dd1, sq_tap(b1, b1, c64));
        rd0 = _mm256_add_epi64(rd0, sq_tap(a0, b0, c64));
        rd1 = _mm256_add_epi64(rd1, sq_tap(a1, b1, c64));
    }
    const __m256i mround = _mm256_set1_epi32((int)sh->mean_round);
    const __m128i mshift = _mm_cvtsi32_si128((int)sh->mean);
    const __m256i sround = _mm256_set1_epi64x((long long)sh->sq_round);
    const __m128i sshift = _mm_cvtsi32_si128((int)sh->sq);
    _mm256_storeu_si256((__m256i *)(out->mu1 + x), round_mean(mu1, mround, mshift));
    _mm256_storeu_si256((__m256i *)(out->mu2 + x), round_mean(mu2, mround, mshift));
    _mm256_storeu_si256((__m256i *)(out->ref_sq + x),
                        low32(shift64(rr0, sround, sshift), shift64(rr1, sround, sshift)));
    _mm256_storeu_si256((__m256i *)(out->dis_sq + x),
                        low32(shift64(dd0, sround, sshift), shift64(dd1, sround, sshift)));
    _mm256_storeu_si256((__m256i *)(out->ref_dis + x),
                        low32(shift64(rd0, sround, sshift), shift64(rd1, sround, sshift)));
}

VIF_COLUMNS_STATS(vqx_vif_columns_stats_16bpc_avx2)
{
    if (p->w < 8) {
        vqx_vif_columns_stats_16bpc(p, row, f, sh, out);
        return;
    }
    const uint8_t *r[VIF_MAX_HALF * 2 + 1], *d[VIF_MAX_HALF * 2 + 1];
    tap_rows(p, row, f, r, d);
    unsigned x = 0;
    for (; x + 8 <= p->w; x += 8) stats16_chunk(r, d, f, sh, out, x);
    if (x < p->w) stats16_chunk(r, d, f, sh, out, p->w - 8);
}

/* The vertical low-pass: 32-bit sums as in the C, 8 columns. */
ALWAYS_INLINE void means_chunk(const uint8_t **r, const uint8_t **d, const VifFilter *f,
                               __m256i round, __m128i shift, uint32_t *ref_out,
                               uint32_t *dis_out, unsigned x, int bytes)
{
    __m256i a = _mm256_setzero_si256(), b = a;
    for (unsigned k = 0; k < f->width; k++) {
        const __m256i c = _mm256_set1_epi32(f->taps[k]);
        __m256i ra, da;
        if (bytes) {
            ra = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(r[k] + x)));
            da = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(d[k] + x)));
        } else {
            ra = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)((const uint16_t *)r[k] + x)));
            da = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)((const uint16_t *)d[k] + x)));
        }
        a = _mm256_add_epi32(a, _mm256_mullo_epi32(ra, c));
        b = _mm256_add_epi32(b, _mm256_mullo_epi32(da, c));
    }
    _mm256_storeu_si256((__m256i *)(ref_out + x), round_mean(a, round, shift));
    _mm256_storeu_si256((__m256i *)(dis_out + x), round_mean(b, round, shift));
}

ALWAYS_INLINE void columns_means(const VifPlane *p, unsigned row, const VifFilter *f,
                                 unsigned shift, uint32_t round, uint32_t *ref_out,
                                 uint32_t *dis_out, int bytes)
{
    const uint8_t *r[VIF_MAX_HALF * 2 + 1], *d[VIF_MAX_HALF * 2 + 1];
    tap_rows(p, row, f, r, d);
    const __m256i rnd = _mm256_set1_epi32((int)round);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    unsigned x = 0;
    for (; x + 8 <= p->w; x += 8) means_chunk(r, d, f, rnd, sh, ref_out, dis_out, x, bytes);
    if (x < p->w) means_chunk(r, d, f, rnd, sh, ref_out, dis_out, p->w - 8, bytes);
}

VIF_COLUMNS_MEANS(vqx_vif_columns_means_8bpc_avx2)
{
    if (p->w < 8) vqx_vif_columns_means_8bpc(p, row, f, shift, round, ref_out, dis_out);
    else columns_means(p, row, f, shift, round, ref_out, dis_out, 1);
}

VIF_COLUMNS_MEANS(vqx_vif_columns_means_16bpc_avx2)
{
    if (p->w < 8) vqx_vif_columns_means_16bpc(p, row, f, shift, round, ref_out, dis_out);
    else columns_means(p, row, f, shift, round, ref_out, dis_out, 0);
}

/* (uint64_t)t * x of 4 columns of 32-bit sums. */
ALWAYS_INLINE __m256i wide_tap(const uint32_t *x, __m256i t)
{
    return _mm256_mul_epu32(_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)x)), t);
}

ALWAYS_INLINE void horizontal_chunk(const VifColumns *in, const VifFilter *f, const VifRow *out,
                                    unsigned x)
{
    const int half = (int)(f->width / 2);
    __m256i mu1 = _mm256_setzero_si256(), mu2 = mu1;
    __m256i rr0 = mu1, rr1 = mu1, dd0 = mu1, dd1 = mu1, rd0 = mu1, rd1 = mu1;
    for (unsigned k = 0; k < f->width; k++) {
        const ptrdiff_t o = (ptrdiff_t)x + (int)k - half;
        const __m256i t = _mm256_set1_epi32(f->taps[k]);
        const __m256i t64 = _mm256_set1_epi64x(f->taps[k]);
        mu1 = _mm256_add_epi32(
            mu1, _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(in->mu1 + o)), t));
        mu2 = _mm256_add_epi32(
            mu2, _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(in->mu2 + o)), t));
        rr0 = _mm256_add_epi64(rr0, wide_tap(in->ref_sq + o, t64));
        rr1 = _mm256_add_epi64(rr1, wide_tap(in->ref_sq + o + 4, t64));
        dd0 = _mm256_add_epi64(dd0, wide_tap(in->dis_sq + o, t64));
        dd1 = _mm256_add_epi64(dd1, wide_tap(in->dis_sq + o + 4, t64));
        rd0 = _mm256_add_epi64(rd0, wide_tap(in->ref_dis + o, t64));
        rd1 = _mm256_add_epi64(rd1, wide_tap(in->ref_dis + o + 4, t64));
    }
    _mm256_storeu_si256((__m256i *)(out->mu1 + x), mu1);
    _mm256_storeu_si256((__m256i *)(out->mu2 + x), mu2);
    _mm256_storeu_si256((__m256i *)(out->ref_sq + x), rr0);
    _mm256_storeu_si256((__m256i *)(out->ref_sq + x + 4), rr1);
    _mm256_storeu_si256((__m256i *)(out->dis_sq + x), dd0);
    _mm256_storeu_si256((__m256i *)(out->dis_sq + x + 4), dd1);
    _mm256_storeu_si256((__m256i *)(out->ref_dis + x), rd0);
    _mm256_storeu_si256((__m256i *)(out->ref_dis + x + 4), rd1);
}

VIF_HORIZONTAL(vqx_vif_horizontal_avx2)
{
    if (w < 8) {
        vqx_vif_horizontal_c(in, w, f, out);
        return;
    }
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) horizontal_chunk(in, f, out, x);
    if (x < w) horizontal_chunk(in, f, out, w - 8);
}

/* The even columns of 16 from p: kept in the order shuffle_ps leaves them
 * ([0 2 8 10 | 4 6 12 14]), put right once after the sums. */
ALWAYS_INLINE __m256i evens(const uint32_t *p)
{
    const __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)p));
    const __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p + 8)));
    return _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
}

/* (sum + 32768) >> 16 of 8 outputs as 16-bit: below 2^16 after the shift,
 * so the unsigned saturation of packus is the C's cast. */
ALWAYS_INLINE void store_decimated(uint16_t *dst, __m256i sum)
{
    sum = _mm256_srli_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(32768)), 16);
    sum = _mm256_permute4x64_epi64(sum, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256i packed = _mm256_packus_epi32(sum, sum);
    _mm_storeu_si128((__m128i *)dst,
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(packed, _MM_SHUFFLE(3, 1, 2, 0))));
}

ALWAYS_INLINE void decimate_chunk(const uint32_t *ref, const uint32_t *dis, const VifFilter *f,
                                  uint16_t *ref_out, uint16_t *dis_out, unsigned j)
{
    const ptrdiff_t o = 2 * (ptrdiff_t)j - (ptrdiff_t)(f->width / 2);
    __m256i a = _mm256_setzero_si256(), b = a;
    for (unsigned k = 0; k < f->width; k++) {
        const __m256i t = _mm256_set1_epi32(f->taps[k]);
        a = _mm256_add_epi32(a, _mm256_mullo_epi32(evens(ref + o + k), t));
        b = _mm256_add_epi32(b, _mm256_mullo_epi32(evens(dis + o + k), t));
    }
    store_decimated(ref_out + j, a);
    store_decimated(dis_out + j, b);
}

VIF_DECIMATE(vqx_vif_decimate_avx2)
{
    if (dst_w < 8) {
        vqx_vif_decimate_c(ref, dis, dst_w, f, ref_out, dis_out);
        return;
    }
    unsigned j = 0;
    for (; j + 8 <= dst_w; j += 8) decimate_chunk(ref, dis, f, ref_out, dis_out, j);
    if (j < dst_w) decimate_chunk(ref, dis, f, ref_out, dis_out, dst_w - 8);
}

/* (uint32_t)((a * b + 2^31) >> 32) and (uint32_t)((s + 2^15) >> 16) in
 * 64-bit lanes (low halves exact). */
ALWAYS_INLINE __m256i mean_product(__m256i a, __m256i b)
{
    return _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(a, b),
                                              _mm256_set1_epi64x(2147483648u)), 32);
}

ALWAYS_INLINE __m256i moment(const uint64_t *s)
{
    return _mm256_srli_epi64(_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)s),
                                              _mm256_set1_epi64x(32768)), 16);
}

/* The signed 32-bit difference of the low halves of 64-bit lanes. */
ALWAYS_INLINE __m128i sigma(__m256i m, __m256i mean)
{
    const __m256i d = _mm256_sub_epi64(m, mean);
    return _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(d, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

/* vif_log2_q11_32 / _64 of 4 integers x in [2^15, 2^53), held exactly as
 * doubles: the exponent e of x is floor(log2 x), so clz gives k = e - 15,
 * and x >> k = 2^15 + the top 15 bits of the mantissa field. The dword at
 * byte 2 i - 2 holds table[i] in its high half; i is in [2^15, 2^16) for
 * every bit pattern, so the gather stays inside the table on any lane. */
ALWAYS_INLINE __m256i log2_q11(const uint16_t *table, __m256d x)
{
    const __m256i b = _mm256_castpd_si256(x);
    const __m256i off = _mm256_sub_epi64(
        _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi64(b, 36), _mm256_set1_epi64x(0xfffe)),
                        _mm256_set1_epi64x(0x10000)),
        _mm256_set1_epi64x(2));
    const __m128i t = _mm256_i64gather_epi32((const int *)table, off, 1);
    const __m256i k = _mm256_sub_epi64(_mm256_srli_epi64(b, 52), _mm256_set1_epi64x(1023 + 15));
    return _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm_srli_epi32(t, 16)), _mm256_slli_epi64(k, 11));
}

/* vif_add_pixel on 4 pixels a lane each: the same integer steps at the same
 * widths, the same double operations in the same order (each correctly
 * rounded, truncating conversions), the log2 arguments as exact doubles
 * (docs/vif.md, "CPU SIMD"), the terms in 64-bit lane sums under the masks
 * of the C's branches (integer sums: order-free); the last w % 4 pixels
 * are the C's. Assumes a gain limit >= 0 (vif's is 1..100). */
VIF_ADD_ROW(vqx_vif_add_row_avx2)
{
    const double eps = 65536 * 1.0e-10;
    const __m256d glim = _mm256_set1_pd(gain_limit), nsq = _mm256_set1_pd(VIF_SIGMA_NSQ);
    const __m128i zero = _mm_setzero_si128();
    __m256i num_non_log = _mm256_setzero_si256(), den_non_log = num_non_log;
    __m256i num_log = num_non_log, den_log = num_non_log;
    unsigned j = 0;
    for (; j + 4 <= w; j += 4) {
        const __m256i mu1 = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(h->mu1 + j)));
        const __m256i mu2 = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(h->mu2 + j)));
        const __m128i sigma1_sq = sigma(moment(h->ref_sq + j), mean_product(mu1, mu1));
        const __m128i sigma2_sq =
            _mm_max_epi32(sigma(moment(h->dis_sq + j), mean_product(mu2, mu2)), zero);
        const __m128i sigma12 = sigma(moment(h->ref_dis + j), mean_product(mu1, mu2));

        const __m128i lg = _mm_cmpgt_epi32(sigma1_sq, _mm_set1_epi32(VIF_SIGMA_NSQ - 1));
        const __m256i lg64 = _mm256_cvtepi32_epi64(lg);
        num_non_log = _mm256_add_epi64(num_non_log,
                                       _mm256_andnot_si256(lg64, _mm256_cvtepi32_epi64(sigma2_sq)));
        den_non_log = _mm256_add_epi64(den_non_log,
                                       _mm256_andnot_si256(lg64, _mm256_set1_epi64x(1)));

        const __m256d s1 = _mm256_cvtepi32_pd(sigma1_sq), s12 = _mm256_cvtepi32_pd(sigma12);
        den_log = _mm256_add_epi64(den_log, _mm256_and_si256(lg64, _mm256_sub_epi64(
            log2_q11(log2_table, _mm256_add_pd(s1, nsq)), _mm256_set1_epi64x(2048 * 17))));

        const __m128i nm = _mm_and_si128(
            lg, _mm_and_si128(_mm_cmpgt_epi32(sigma12, zero), _mm_cmpgt_epi32(sigma2_sq, zero)));
        __m256d g = _mm256_div_pd(s12, _mm256_add_pd(s1, _mm256_set1_pd(eps)));
        const __m128i sv_sq = _mm_max_epi32(
            _mm256_cvttpd_epi32(_mm256_sub_pd(_mm256_cvtepi32_pd(sigma2_sq),
                                              _mm256_mul_pd(g, s12))), zero);
        g = _mm256_blendv_pd(glim, g, _mm256_cmp_pd(g, glim, _CMP_LT_OQ));
        const __m256d noise = _mm256_add_pd(_mm256_cvtepi32_pd(sv_sq), nsq);
        const __m256d total = _mm256_add_pd(
            _mm256_round_pd(_mm256_mul_pd(_mm256_mul_pd(g, g), s1),
                            _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
            noise);
        num_log = _mm256_add_epi64(num_log, _mm256_and_si256(_mm256_cvtepi32_epi64(nm),
            _mm256_sub_epi64(log2_q11(log2_table, total), log2_q11(log2_table, noise))));
    }
    int64_t v[4][4];
    _mm256_storeu_si256((__m256i *)v[0], num_non_log);
    _mm256_storeu_si256((__m256i *)v[1], den_non_log);
    _mm256_storeu_si256((__m256i *)v[2], num_log);
    _mm256_storeu_si256((__m256i *)v[3], den_log);
    for (int i = 0; i < 4; i++) {
        sums->num_non_log += v[0][i];
        sums->den_non_log += v[1][i];
        sums->num_log += v[2][i];
        sums->den_log += v[3][i];
    }
    for (; j < w; j++)
        vif_add_pixel(sums, log2_table, gain_limit, h->mu1[j], h->mu2[j], h->ref_sq[j],
                      h->dis_sq[j], h->ref_dis[j]);
}
