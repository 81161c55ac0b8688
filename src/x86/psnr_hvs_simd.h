/*
 * psnr_hvs at one vector width, lanes = blocks: LANES horizontally adjacent
 * block pairs at a time, each lane doing the C's computation of its block
 * (psnr_hvs_block.h) step for step, so every float sum keeps its order and
 * the integers are the C's 32-bit ones. Included by psnr_hvs_avx2.c and
 * psnr_hvs_avx512.c, which first define
 *   VEC, VF             the integer and float vector types; LANES their lanes
 *   VZERO()             the integer zero vector
 *   VI(op)              the intrinsic _mm<bits>_op (add_epi32, mul_ps, ...)
 *   NAME(f)             f with the ISA's suffix
 *   load_samples(p, stride, wide, nl, px)   the 64 samples of nl <= LANES
 *                       blocks (8 or 16-bit, block b at p + 7 b samples) as
 *                       px[8 i + j]: lane b holds sample (i, j) of block b;
 *                       lanes >= nl anything finite, read within the blocks
 *   store_terms(terms, t, nl)   t[k] lane b to terms[64 b + k], b < nl
 *   ratio_or_zero(var, quads)   var > 0 ? quads / var : var
 *   sqrt_over_32(x)     (float)(sqrt((double)x) / 32), in double as the C
 *   compress_nonzero(v, out)    the lanes of v that are not 0, in order, to
 *                       out (a whole vector is written); returns their count
 */
#ifndef VQX_X86_PSNR_HVS_SIMD_H
#define VQX_X86_PSNR_HVS_SIMD_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/psnr_hvs_dsp.h"
#include "feature/psnr_hvs_fdct8.h"
#include "x86/psnr_hvs.h"

#define BLOCK PSNR_HVS_BLOCK
#define TERMS PSNR_HVS_TERMS

ALWAYS_INLINE VEC half_toward_zero(VEC a)
{
    return VI(srai_epi32)(VI(add_epi32)(a, VI(srli_epi32)(a, 31)), 1);
}

/* (a * num + 2^(shift - 1)) >> shift; the product fits 32 bits up to 12
 * bits (tests/psnr_hvs_bounds.py) */
ALWAYS_INLINE VEC mul_round(VEC a, int32_t num, int shift)
{
    const VEC p = VI(mullo_epi32)(a, VI(set1_epi32)(num));
    return VI(srai_epi32)(VI(add_epi32)(p, VI(set1_epi32)(1 << (shift - 1))), shift);
}

#define T VEC
#define ADD(a, b) VI(add_epi32)(a, b)
#define SUB(a, b) VI(sub_epi32)(a, b)
#define HALF(a) half_toward_zero(a)
#define MULR(a, num, shift) mul_round(a, num, shift)

/* Daala's 8-point DCT (psnr_hvs_fdct8.h) of in[0], in[is], .., in[7 is] to
 * out[0], out[os], .., out[7 os]. */
ALWAYS_INLINE void fdct8(const VEC *in, int is, VEC *out, int os)
{
    VEC t0 = in[0 * is], t4 = in[1 * is], t2 = in[2 * is], t6 = in[3 * is];
    VEC t7 = in[4 * is], t3 = in[5 * is], t5 = in[6 * is], t1 = in[7 * is];
    PSNR_HVS_FDCT8(t0, t1, t2, t3, t4, t5, t6, t7);
    out[0 * os] = t0, out[1 * os] = t1, out[2 * os] = t2, out[3 * os] = t3;
    out[4 * os] = t4, out[5 * os] = t5, out[6 * os] = t6, out[7 * os] = t7;
}

#undef ADD
#undef SUB

/* The C's psnr_hvs_variance_ratios, both blocks of each lane stepping together. */
ALWAYS_INLINE void variance_ratios(const VEC px[2][TERMS], VF ratio[2])
{
    VF mean[2], quad_mean[2][4];
    for (int k = 0; k < 2; k++) {
        /* integer sums, exact as the C's */
        VEC quad_sum[4] = { VZERO(), VZERO(), VZERO(), VZERO() };
        for (int i = 0; i < BLOCK; i++)
            for (int j = 0; j < BLOCK; j++) {
                const int q = (i >> 2) + ((j >> 2) << 1);
                quad_sum[q] = VI(add_epi32)(quad_sum[q], px[k][i * BLOCK + j]);
            }
        const VEC sum = VI(add_epi32)(VI(add_epi32)(quad_sum[0], quad_sum[1]),
                                      VI(add_epi32)(quad_sum[2], quad_sum[3]));
        mean[k] = VI(div_ps)(VI(cvtepi32_ps)(sum), VI(set1_ps)(64.f));
        for (int q = 0; q < 4; q++)
            quad_mean[k][q] = VI(div_ps)(VI(cvtepi32_ps)(quad_sum[q]), VI(set1_ps)(16.f));
    }
    VF var[2], quad_var[2][4];
    for (int k = 0; k < 2; k++) {
        var[k] = VI(setzero_ps)();
        for (int q = 0; q < 4; q++) quad_var[k][q] = VI(setzero_ps)();
    }
    for (int i = 0; i < BLOCK; i++)
        for (int j = 0; j < BLOCK; j++)
            for (int k = 0; k < 2; k++) {
                const int q = (i >> 2) + ((j >> 2) << 1);
                const VF v = VI(cvtepi32_ps)(px[k][i * BLOCK + j]);
                const VF d = VI(sub_ps)(v, mean[k]), dq = VI(sub_ps)(v, quad_mean[k][q]);
                var[k] = VI(add_ps)(var[k], VI(mul_ps)(d, d));
                quad_var[k][q] = VI(add_ps)(quad_var[k][q], VI(mul_ps)(dq, dq));
            }
    for (int k = 0; k < 2; k++) {
        const VF v = VI(mul_ps)(var[k], VI(set1_ps)(1 / 63.f * 64));
        VF quads = VI(mul_ps)(quad_var[k][0], VI(set1_ps)(1 / 15.f * 16));
        for (int q = 1; q < 4; q++)
            quads = VI(add_ps)(quads, VI(mul_ps)(quad_var[k][q], VI(set1_ps)(1 / 15.f * 16)));
        ratio[k] = ratio_or_zero(v, quads);
    }
}

/* The C's psnr_hvs_masking: the larger of the two blocks' thresholds. Squares of
 * coefficients up to 12 bits (|c| <= 32796) are exact in 32 bits, so their
 * conversion to float rounds the same integer as the C's from double. */
ALWAYS_INLINE VF masking(const VEC dct_t[2][TERMS], const float *mask_t, const VF ratio[2])
{
    VF energy[2] = { VI(setzero_ps)(), VI(setzero_ps)() };
    for (int i = 0; i < BLOCK; i++)
        for (int j = i == 0; j < BLOCK; j++)
            for (int k = 0; k < 2; k++) {
                const VEC c = dct_t[k][j * BLOCK + i];
                const VF square = VI(cvtepi32_ps)(VI(mullo_epi32)(c, c));
                energy[k] = VI(add_ps)(energy[k],
                                       VI(mul_ps)(square, VI(set1_ps)(mask_t[j * BLOCK + i])));
            }
    const VF ref = sqrt_over_32(VI(mul_ps)(energy[0], ratio[0]));
    const VF dis = sqrt_over_32(VI(mul_ps)(energy[1], ratio[1]));
    /* dis > ref ? dis : ref */
    return VI(max_ps)(dis, ref);
}

/* The terms of LANES block pairs whose samples are in px (overwritten),
 * nl of them stored. */
static void group_terms(VEC px[2][TERMS], unsigned nl, const float *weight_t,
                        const float *mask_t, float *terms)
{
    VF ratio[2];
    variance_ratios((const VEC(*)[TERMS])px, ratio);
    /* the C's psnr_hvs_fdct8x8: columns, then the columns of the transposed result,
     * which is the rows of the first pass's; px becomes dct_t */
    for (int k = 0; k < 2; k++) {
        VEC pass[TERMS];
        for (int j = 0; j < BLOCK; j++) fdct8(px[k] + j, BLOCK, pass + j, BLOCK);
        for (int j = 0; j < BLOCK; j++) fdct8(pass + j * BLOCK, 1, px[k] + j, BLOCK);
    }
    const VF threshold = masking((const VEC(*)[TERMS])px, mask_t, ratio);
    VF t[TERMS];
    for (int c = 0; c < TERMS; c++) {
        const VF err = VI(cvtepi32_ps)(VI(abs_epi32)(VI(sub_epi32)(px[0][c], px[1][c])));
        VF m;
        if (c == 0) {
            /* the DC term is not masked */
            m = VI(mul_ps)(err, VI(set1_ps)(weight_t[0]));
        } else {
            const VF over = VI(sub_ps)(err, VI(div_ps)(threshold, VI(set1_ps)(mask_t[c])));
            /* over > 0 ? over : 0 */
            const VF masked = VI(max_ps)(over, VI(setzero_ps)());
            m = VI(mul_ps)(masked, VI(set1_ps)(weight_t[c]));
        }
        /* coefficient c = 8 j + i goes to the C's summation order, 8 i + j */
        t[(c % BLOCK) * BLOCK + c / BLOCK] = VI(mul_ps)(m, m);
    }
    store_terms(terms, t, nl);
}

/* groups ahead that block_terms prefetches */
#define PREFETCH 2

ALWAYS_INLINE void block_terms(const void *ref, ptrdiff_t ref_stride, const void *dis,
                               ptrdiff_t dis_stride, unsigned n, const float *weight_t,
                               const float *mask_t, float *terms, bool wide)
{
    const ptrdiff_t group = (ptrdiff_t)LANES * PSNR_HVS_STEP * (wide ? 2 : 1);
    const uint8_t *r = ref, *d = dis;
    for (unsigned b = 0; b < n; b += LANES, r += group, d += group, terms += LANES * TERMS) {
        const unsigned nl = n - b < LANES ? n - b : LANES;
        /* 16 rows in flight are more than the hardware prefetchers follow:
         * ask for the rows of a later group (a prefetch never faults) */
        for (int i = 0; i < BLOCK; i++)
            for (ptrdiff_t x = 0; x < group; x += 64) {
                _mm_prefetch((const char *)r + i * ref_stride + PREFETCH * group + x, _MM_HINT_T0);
                _mm_prefetch((const char *)d + i * dis_stride + PREFETCH * group + x, _MM_HINT_T0);
            }
        VEC px[2][TERMS];
        load_samples(r, ref_stride, wide, nl, px[0]);
        load_samples(d, dis_stride, wide, nl, px[1]);
        group_terms(px, nl, weight_t, mask_t, terms);
    }
}

PSNR_HVS_BLOCK_TERMS(NAME(vqx_psnr_hvs_block_terms_8bpc))
{
    (void)bpc;
    block_terms(ref, ref_stride, dis, dis_stride, n, weight_t, mask_t, terms, false);
}

PSNR_HVS_BLOCK_TERMS(NAME(vqx_psnr_hvs_block_terms_16bpc))
{
    (void)bpc;
    block_terms(ref, ref_stride, dis, dis_stride, n, weight_t, mask_t, terms, true);
}

/* Terms compacted at a time: a stack buffer. */
#define RUN 1024

/* Adding a zero leaves any total but -0 as it is, and a total that is not
 * -0 never becomes -0 (a sum is -0 only when both addends are): the zero
 * terms, most of them in real content, are dropped in vector code, and the
 * float chain runs over the others alone, in their order. */
PSNR_HVS_ACCUMULATE(NAME(vqx_psnr_hvs_accumulate))
{
    if (total == 0 && signbit(total)) return vqx_psnr_hvs_accumulate(total, terms, n);
    float kept[RUN + LANES];
    while (n) {
        const size_t m = n < RUN ? n : RUN;
        size_t i = 0, k = 0;
        for (; i + LANES <= m; i += LANES) k += compress_nonzero(VI(loadu_ps)(terms + i), kept + k);
        for (size_t q = 0; q < k; q++) total += kept[q];
        for (; i < m; i++) total += terms[i];
        terms += m;
        n -= m;
    }
    return total;
}

#undef RUN
#undef PREFETCH
#undef BLOCK
#undef TERMS

#endif
