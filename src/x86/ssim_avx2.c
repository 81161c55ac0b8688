/*
 * The SSIM stages in AVX2: 8 floats and 4 doubles a vector, by
 * ssim_simd.h; here what is AVX2's own.
 */
#include <immintrin.h>

#include "x86/ssim.h"
#include "x86/avx2.h"
#define NAME(f) f##_avx2

/* A full float vector, a vector of doubles of half as many lanes, and a
 * float vector of the doubles' width. */
#define VF __m256
#define VD __m256d
#define HF __m128
#define FL 8
#define DL 4

#define F_LOAD(p) _mm256_loadu_ps(p)
#define F_STORE(p, v) _mm256_storeu_ps(p, v)
#define F_SET1(x) _mm256_set1_ps(x)
#define F_MUL(a, b) _mm256_mul_ps(a, b)
#define F_LO(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define F_HI(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))
#define F_PACK(lo, hi) \
    _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1)
/* even lanes to the low half, odd lanes to the high half */
#define F_DEINT(v) _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))

#define D_ZERO() _mm256_setzero_pd()
#define D_SET1(x) _mm256_set1_pd(x)
#define D_ADD(a, b) _mm256_add_pd(a, b)
#define D_MUL(a, b) _mm256_mul_pd(a, b)
#define D_DIV(a, b) _mm256_div_pd(a, b)
#define D_SQRT(a) _mm256_sqrt_pd(a)
#define D_TO_H(d) _mm256_cvtpd_ps(d)

#define H_LOAD(p) _mm_loadu_ps(p)
#define H_STORE(p, v) _mm_storeu_ps(p, v)
#define H_SET1(x) _mm_set1_ps(x)
#define H_ZERO() _mm_setzero_ps()
#define H_ADD(a, b) _mm_add_ps(a, b)
#define H_SUB(a, b) _mm_sub_ps(a, b)
#define H_MUL(a, b) _mm_mul_ps(a, b)
#define H_DIV(a, b) _mm_div_ps(a, b)
#define H_MAX(a, b) _mm_max_ps(a, b)
#define H_AND(a, b) _mm_and_ps(a, b)
#define H_ANDNOT(a, b) _mm_andnot_ps(a, b)
#define H_LT(a, b) _mm_cmp_ps(a, b, _CMP_LT_OQ)
#define H_LE(a, b) _mm_cmp_ps(a, b, _CMP_LE_OQ)
#define H_TO_D(v) _mm256_cvtps_pd(v)
#define VFI __m256i
#define FI_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

typedef __m256 Piece;
#define PIECE 8

ALWAYS_INLINE Piece load_piece(const float *p, unsigned n)
{
    const __m256i first = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n),
                                             _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return n == PIECE ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, first);
}

ALWAYS_INLINE VF permute_piece(Piece pc, VFI idx)
{
    return _mm256_permutevar8x32_ps(pc, idx);
}

typedef __m256 FMask;

ALWAYS_INLINE FMask piece_mask(VFI idx, unsigned k)
{
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_srli_epi32(idx, 3),
                                                  _mm256_set1_epi32((int)k)));
}

ALWAYS_INLINE VF select_lanes(VF a, VF b, FMask m)
{
    return _mm256_blendv_ps(a, b, m);
}

/* Doubles 4 i .. 4 i + 3 of v */
#define D_PART4(v, i) (v)

#include "x86/ssim_simd.h"
