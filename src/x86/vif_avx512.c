/*
 * Integer VIF's stages in AVX-512 (F, BW, VL, DQ), 16 columns at a time,
 * with the arithmetic of vif_avx2.c (the C's widths and wraparound); the
 * row's last columns are read and written under a mask, so every width is
 * handled here.
 */
#include <immintrin.h>

#include "x86/vif.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

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

/* The first n (<= 16) of 16 lanes. */
ALWAYS_INLINE __mmask16 first_lanes(unsigned n)
{
    return (__mmask16)(n >= 16 ? 0xffff : (1u << n) - 1);
}

ALWAYS_INLINE __m512i round_mean(__m512i v, __m512i round, __m128i shift)
{
    return _mm512_and_si512(_mm512_srl_epi32(_mm512_add_epi32(v, round), shift),
                            _mm512_set1_epi32(0xffff));
}

/* The low 32 bits of the 64-bit lanes of lo (columns 0-7) and hi (8-15). */
ALWAYS_INLINE __m512i low32(__m512i lo, __m512i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)),
                              _mm512_cvtepi64_epi32(hi), 1);
}

ALWAYS_INLINE __m512i shift64(__m512i v, __m512i round, __m128i shift)
{
    return _mm512_srl_epi64(_mm512_add_epi64(v, round), shift);
}

ALWAYS_INLINE void stats8_chunk(const uint8_t **r, const uint8_t **d, const VifFilter *f,
                                const VifShifts *sh, const VifColumns *out, unsigned x,
                                __mmask16 m)
{
    __m512i mu1 = _mm512_setzero_si512(), mu2 = mu1, rr = mu1, dd = mu1, rd = mu1;
    for (unsigned k = 0; k < f->width; k++) {
        const __m512i c = _mm512_set1_epi32(f->taps[k]);
        const __m512i a = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, r[k] + x));
        const __m512i b = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, d[k] + x));
        mu1 = _mm512_add_epi32(mu1, _mm512_mullo_epi32(a, c));
        mu2 = _mm512_add_epi32(mu2, _mm512_mullo_epi32(b, c));
        /* samples below 256 in the low half of each lane: madd is a*b exactly */
        rr = _mm512_add_epi32(rr, _mm512_mullo_epi32(_mm512_madd_epi16(a, a), c));
        dd = _mm512_add_epi32(dd, _mm512_mullo_epi32(_mm512_madd_epi16(b, b), c));
        rd = _mm512_add_epi32(rd, _mm512_mullo_epi32(_mm512_madd_epi16(a, b), c));
    }
    const __m512i mround = _mm512_set1_epi32((int)sh->mean_round);
    const __m128i mshift = _mm_cvtsi32_si128((int)sh->mean);
    /* the 8-bit C sums squares in 32 bits: its round is taken to 32 bits */
    const __m512i sround = _mm512_set1_epi32((int)(uint32_t)sh->sq_round);
    const __m128i sshift = _mm_cvtsi32_si128((int)sh->sq);
    _mm512_mask_storeu_epi32(out->mu1 + x, m, round_mean(mu1, mround, mshift));
    _mm512_mask_storeu_epi32(out->mu2 + x, m, round_mean(mu2, mround, mshift));
    _mm512_mask_storeu_epi32(out->ref_sq + x, m,
                             _mm512_srl_epi32(_mm512_add_epi32(rr, sround), sshift));
    _mm512_mask_storeu_epi32(out->dis_sq + x, m,
                             _mm512_srl_epi32(_mm512_add_epi32(dd, sround), sshift));
    _mm512_mask_storeu_epi32(out->ref_dis + x, m,
                             _mm512_srl_epi32(_mm512_add_epi32(rd, sround), sshift));
}

VIF_COLUMNS_STATS(vqx_vif_columns_stats_8bpc_avx512)
{
    const uint8_t *r[VIF_MAX_HALF * 2 + 1], *d[VIF_MAX_HALF * 2 + 1];
    tap_rows(p, row, f, r, d);
    for (unsigned x = 0; x < p->w; x += 16)
        stats8_chunk(r, d, f, sh, out, x, first_lanes(p->w - x));
}

/* One tap's 64-bit products c * (a * b) of 8 columns of 16-bit samples. */
ALWAYS_INLINE __m512i sq_tap(__m512i a, __m512i b, __m512i c)
{
    return _mm512_mul_epu32(_mm512_mul_epu32(a, b), c);
}

ALWAYS_INLINE void stats16_chunk(const uint8_t **r, const uint8_t **d, const VifFilter *f,
                                 const VifShifts *sh, const VifColumns *out, unsigned x,
                                 __mmask16 m)
{
    const __mmask8 m0 = (__mmask8)m, m1 = (__mmask8)(m >> 8);
    __m512i mu1 = _mm512_setzero_si512(), mu2 = mu1;
    __m512i rr0 = mu1, rr1 = mu1, dd0 = mu1, dd1 = mu1, rd0 = mu1, rd1 = mu1;
    for (unsigned k = 0; k < f->width; k++) {
        const uint16_t *rp = (const uint16_t *)r[k] + x, *dp = (const uint16_t *)d[k] + x;
        const __m512i c = _mm512_set1_epi32(f->taps[k]);
        const __m512i c64 = _mm512_set1_epi64(f->taps[k]);
        mu1 = _mm512_add_epi32(mu1, _mm512_mullo_epi32(
                                        _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, rp)), c));
        mu2 = _mm512_add_epi32(mu2, _mm512_mullo_epi32(
                                        _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, dp)), c));
        const __m512i a0 = _mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(m0, rp));
        const __m512i a1 = _mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(m1, rp + 8));
        const __m512i b0 = _mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(m0, dp));
        const __m512i b1 = _mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(m1, dp + 8));
        rr0 = _mm512_add_epi64(rr0, sq_tap(a0, a0, c64));
        rr1 = _mm512_add_epi64(rr1, sq_tap(a1, a1, c64));
        dd0 = _mm512_add_epi64(dd0, sq_tap(b0, b0, c64));
        dd1 = _mm512_add_epi64(dd1, sq_tap(b1, b1, c64));
        rd0 = _mm512_add_epi64(rd0, sq_tap(a0, b0, c64));
        rd1 = _mm512_add_epi64(rd1, sq_tap(a1, b1, c64));
    }
    const __m512i mround = _mm512_set1_epi32((int)sh->mean_round);
    const __m128i mshift = _mm_cvtsi32_si128((int)sh->mean);
    const __m512i sround = _mm512_set1_epi64((long long)sh->sq_round);
    const __m128i sshift = _mm_cvtsi32_si128((int)sh->sq);
    _mm512_mask_storeu_epi32(out->mu1 + x, m, round_mean(mu1, mround, mshift));
    _mm512_mask_storeu_epi32(out->mu2 + x, m, round_mean(mu2, mround, mshift));
    _mm512_mask_storeu_epi32(out->ref_sq + x, m,
                             low32(shift64(rr0, sround, sshift), shift64(rr1, sround, sshift)));
    _mm512_mask_storeu_epi32(out->dis_sq + x, m,
                             low32(shift64(dd0, sround, sshift), shift64(dd1, sround, sshift)));
    _mm512_mask_storeu_epi32(out->ref_dis + x, m,
                             low32(shift64(rd0, sround, sshift), shift64(rd1, sround, sshift)));
}

VIF_COLUMNS_STATS(vqx_vif_columns_stats_16bpc_avx512)
{
    const uint8_t *r[VIF_MAX_HALF * 2 + 1], *d[VIF_MAX_HALF * 2 + 1];
    tap_rows(p, row, f, r, d);
    for (unsigned x = 0; x < p->w; x += 16)
        stats16_chunk(r, d, f, sh, out, x, first_lanes(p->w - x));
}

ALWAYS_INLINE void columns_means(const VifPlane *p, unsigned row, const VifFilter *f,
                                 unsigned shift, uint32_t round, uint32_t *ref_out,
                                 uint32_t *dis_out, int bytes)
{
    const uint8_t *r[VIF_MAX_HALF * 2 + 1], *d[VIF_MAX_HALF * 2 + 1];
    tap_rows(p, row, f, r, d);
    const __m512i rnd = _mm512_set1_epi32((int)round);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (unsigned x = 0; x < p->w; x += 16) {
        const __mmask16 m = first_lanes(p->w - x);
        __m512i a = _mm512_setzero_si512(), b = a;
        for (unsigned k = 0; k < f->width; k++) {
            const __m512i c = _mm512_set1_epi32(f->taps[k]);
            __m512i ra, da;
            if (bytes) {
                ra = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, r[k] + x));
                da = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, d[k] + x));
            } else {
                ra = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, (const uint16_t *)r[k] + x));
                da = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, (const uint16_t *)d[k] + x));
            }
            a = _mm512_add_epi32(a, _mm512_mullo_epi32(ra, c));
            b = _mm512_add_epi32(b, _mm512_mullo_epi32(da, c));
        }
        _mm512_mask_storeu_epi32(ref_out + x, m, round_mean(a, rnd, sh));
        _mm512_mask_storeu_epi32(dis_out + x, m, round_mean(b, rnd, sh));
    }
}

VIF_COLUMNS_MEANS(vqx_vif_columns_means_8bpc_avx512)
{
    columns_means(p, row, f, shift, round, ref_out, dis_out, 1);
}

VIF_COLUMNS_MEANS(vqx_vif_columns_means_16bpc_avx512)
{
    columns_means(p, row, f, shift, round, ref_out, dis_out, 0);
}

/* (uint64_t)t * x of 8 columns of 32-bit sums. */
ALWAYS_INLINE __m512i wide_tap(const uint32_t *x, __mmask8 m, __m512i t)
{
    return _mm512_mul_epu32(_mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(m, x)), t);
}

VIF_HORIZONTAL(vqx_vif_horizontal_avx512)
{
    const int half = (int)(f->width / 2);
    for (unsigned x = 0; x < w; x += 16) {
        const __mmask16 m = first_lanes(w - x);
        const __mmask8 m0 = (__mmask8)m, m1 = (__mmask8)(m >> 8);
        __m512i mu1 = _mm512_setzero_si512(), mu2 = mu1;
        __m512i rr0 = mu1, rr1 = mu1, dd0 = mu1, dd1 = mu1, rd0 = mu1, rd1 = mu1;
        for (unsigned k = 0; k < f->width; k++) {
            const ptrdiff_t o = (ptrdiff_t)x + (int)k - half;
            const __m512i t = _mm512_set1_epi32(f->taps[k]);
            const __m512i t64 = _mm512_set1_epi64(f->taps[k]);
            mu1 = _mm512_add_epi32(mu1, _mm512_mullo_epi32(_mm512_maskz_loadu_epi32(m, in->mu1 + o), t));
            mu2 = _mm512_add_epi32(mu2, _mm512_mullo_epi32(_mm512_maskz_loadu_epi32(m, in->mu2 + o), t));
            rr0 = _mm512_add_epi64(rr0, wide_tap(in->ref_sq + o, m0, t64));
            rr1 = _mm512_add_epi64(rr1, wide_tap(in->ref_sq + o + 8, m1, t64));
            dd0 = _mm512_add_epi64(dd0, wide_tap(in->dis_sq + o, m0, t64));
            dd1 = _mm512_add_epi64(dd1, wide_tap(in->dis_sq + o + 8, m1, t64));
            rd0 = _mm512_add_epi64(rd0, wide_tap(in->ref_dis + o, m0, t64));
            rd1 = _mm512_add_epi64(rd1, wide_tap(in->ref_dis + o + 8, m1, t64));
        }
        _mm512_mask_storeu_epi32(out->mu1 + x, m, mu1);
        _mm512_mask_storeu_epi32(out->mu2 + x, m, mu2);
        _mm512_mask_storeu_epi64(out->ref_sq + x, m0, rr0);
        _mm512_mask_storeu_epi64(out->ref_sq + x + 8, m1, rr1);
        _mm512_mask_storeu_epi64(out->dis_sq + x, m0, dd0);
        _mm512_mask_storeu_epi64(out->dis_sq + x + 8, m1, dd1);
        _mm512_mask_storeu_epi64(out->ref_dis + x, m0, rd0);
        _mm512_mask_storeu_epi64(out->ref_dis + x + 8, m1, rd1);
    }
}

/* The even columns of 32 from p, of which the first 2n - 1 are read. */
ALWAYS_INLINE __m512i evens(const uint32_t *p, unsigned n)
{
    const __m512i idx = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                          28, 30);
    const unsigned used = 2 * n - 1;
    const __m512i lo = _mm512_maskz_loadu_epi32(first_lanes(used), p);
    const __m512i hi = _mm512_maskz_loadu_epi32(first_lanes(used > 16 ? used - 16 : 0), p + 16);
    return _mm512_permutex2var_epi32(lo, idx, hi);
}

VIF_DECIMATE(vqx_vif_decimate_avx512)
{
    const ptrdiff_t half = (ptrdiff_t)(f->width / 2);
    const __m512i round = _mm512_set1_epi32(32768);
    for (unsigned j = 0; j < dst_w; j += 16) {
        const unsigned n = dst_w - j < 16 ? dst_w - j : 16;
        const ptrdiff_t o = 2 * (ptrdiff_t)j - half;
        __m512i a = _mm512_setzero_si512(), b = a;
        for (unsigned k = 0; k < f->width; k++) {
            const __m512i t = _mm512_set1_epi32(f->taps[k]);
            a = _mm512_add_epi32(a, _mm512_mullo_epi32(evens(ref + o + k, n), t));
            b = _mm512_add_epi32(b, _mm512_mullo_epi32(evens(dis + o + k, n), t));
        }
        /* vpmovdw truncates, as the C's (uint16_t) cast */
        const __mmask16 m = first_lanes(n);
        _mm256_mask_storeu_epi16(ref_out + j, m,
                                 _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_add_epi32(a, round), 16)));
        _mm256_mask_storeu_epi16(dis_out + j, m,
                                 _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_add_epi32(b, round), 16)));
    }
}

/* vif_log2_q11_32 and _64 of 8 lanes (only the lanes of m read the table):
 * lzcnt and the variable shift are clz and >> k; the dword at byte 2 i - 2
 * holds table[i] in its high half (i is in [2^15, 2^16) on those lanes). */
ALWAYS_INLINE __m256i log2_q11_32(const uint16_t *table, __m256i x, __mmask8 m)
{
    const __m256i k = _mm256_sub_epi32(_mm256_set1_epi32(16), _mm256_lzcnt_epi32(x));
    const __m256i off = _mm256_sub_epi32(_mm256_slli_epi32(_mm256_srlv_epi32(x, k), 1),
                                         _mm256_set1_epi32(2));
    const __m256i t = _mm256_mmask_i32gather_epi32(_mm256_setzero_si256(), m, off, table, 1);
    return _mm256_add_epi32(_mm256_srli_epi32(t, 16), _mm256_slli_epi32(k, 11));
}

ALWAYS_INLINE __m256i log2_q11_64(const uint16_t *table, __m512i x, __mmask8 m)
{
    const __m512i k = _mm512_sub_epi64(_mm512_set1_epi64(48), _mm512_lzcnt_epi64(x));
    const __m512i off = _mm512_sub_epi64(_mm512_slli_epi64(_mm512_srlv_epi64(x, k), 1),
                                         _mm512_set1_epi64(2));
    const __m256i t = _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), m, off, table, 1);
    return _mm256_add_epi32(_mm256_srli_epi32(t, 16),
                            _mm512_cvtepi64_epi32(_mm512_slli_epi64(k, 11)));
}

/* (uint32_t)((a * b + 2^31) >> 32) and (uint32_t)((s + 2^15) >> 16), in 64-bit lanes. */
ALWAYS_INLINE __m512i mean_product(__m512i a, __m512i b)
{
    return _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epu32(a, b),
                                              _mm512_set1_epi64(2147483648u)), 32);
}

ALWAYS_INLINE __m512i moment(const uint64_t *s, __mmask8 m)
{
    return _mm512_srli_epi64(_mm512_add_epi64(_mm512_maskz_loadu_epi64(m, s),
                                              _mm512_set1_epi64(32768)), 16);
}

/* vif_add_pixel on 8 pixels a lane each: the same integer steps at the same
 * widths (the 32-bit differences are the low halves of 64-bit ones) and
 * the same double operations in the same order, each correctly rounded;
 * the terms go to 64-bit lane sums under the masks of the C's branches
 * (integer sums: their order does not matter). */
VIF_ADD_ROW(vqx_vif_add_row_avx512)
{
    const double eps = 65536 * 1.0e-10;
    const __m512d glim = _mm512_set1_pd(gain_limit);
    const __m256i nsq = _mm256_set1_epi32(VIF_SIGMA_NSQ), zero = _mm256_setzero_si256();
    __m512i num_non_log = _mm512_setzero_si512(), den_non_log = num_non_log;
    __m512i num_log = num_non_log, den_log = num_non_log;
    for (unsigned j = 0; j < w; j += 8) {
        const __mmask8 m = (__mmask8)(w - j >= 8 ? 0xff : (1u << (w - j)) - 1);
        const __m512i mu1 = _mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(m, h->mu1 + j));
        const __m512i mu2 = _mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(m, h->mu2 + j));
        const __m256i sigma1_sq = _mm512_cvtepi64_epi32(
            _mm512_sub_epi64(moment(h->ref_sq + j, m), mean_product(mu1, mu1)));
        const __m256i sigma2_sq = _mm256_max_epi32(_mm512_cvtepi64_epi32(_mm512_sub_epi64(
                                      moment(h->dis_sq + j, m), mean_product(mu2, mu2))), zero);
        const __m256i sigma12 = _mm512_cvtepi64_epi32(
            _mm512_sub_epi64(moment(h->ref_dis + j, m), mean_product(mu1, mu2)));

        const __mmask8 lg = _mm256_mask_cmpge_epi32_mask(m, sigma1_sq, nsq);
        const __mmask8 non_log = m & (__mmask8)~lg;
        num_non_log = _mm512_mask_add_epi64(num_non_log, non_log, num_non_log,
                                            _mm512_cvtepi32_epi64(sigma2_sq));
        den_non_log = _mm512_mask_add_epi64(den_non_log, non_log, den_non_log,
                                            _mm512_set1_epi64(1));

        const __m256i x = _mm256_add_epi32(sigma1_sq, nsq);
        den_log = _mm512_mask_add_epi64(den_log, lg, den_log, _mm512_cvtepi32_epi64(
            _mm256_sub_epi32(log2_q11_32(log2_table, x, lg), _mm256_set1_epi32(2048 * 17))));

        const __mmask8 nm = _mm256_mask_cmpgt_epi32_mask(
            _mm256_mask_cmpgt_epi32_mask(lg, sigma12, zero), sigma2_sq, zero);
        const __m512d s1 = _mm512_cvtepi32_pd(sigma1_sq), s12 = _mm512_cvtepi32_pd(sigma12);
        __m512d g = _mm512_div_pd(s12, _mm512_add_pd(s1, _mm512_set1_pd(eps)));
        const __m256i sv_sq = _mm256_max_epi32(
            _mm512_cvttpd_epi32(_mm512_sub_pd(_mm512_cvtepi32_pd(sigma2_sq),
                                              _mm512_mul_pd(g, s12))), zero);
        g = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(g, glim, _CMP_LT_OQ), glim, g);
        const __m512i noise = _mm512_cvtepu32_epi64(_mm256_add_epi32(sv_sq, nsq));
        const __m512i total = _mm512_add_epi64(
            _mm512_cvttpd_epi64(_mm512_mul_pd(_mm512_mul_pd(g, g), s1)), noise);
        num_log = _mm512_mask_add_epi64(num_log, nm, num_log, _mm512_cvtepi32_epi64(
            _mm256_sub_epi32(log2_q11_64(log2_table, total, nm),
                             log2_q11_64(log2_table, noise, nm))));
    }
    sums->num_non_log += _mm512_reduce_add_epi64(num_non_log);
    sums->den_non_log += _mm512_reduce_add_epi64(den_non_log);
    sums->den_log += _mm512_reduce_add_epi64(den_log);
    sums->num_log += _mm512_reduce_add_epi64(num_log);
}
