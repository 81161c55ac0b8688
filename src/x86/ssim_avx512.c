/*
 * The SSIM stages in AVX-512 (F, DQ, VL): 16 floats and 8 doubles a vector,
 * by ssim_simd.h; here what is AVX-512's own.
 */
#include <immintrin.h>

#include "x86/ssim.h"
#include "x86/avx512.h"
#define NAME(f) f##_avx512

/* A full float vector, a vector of doubles of half as many lanes, and a
 * float vector of the doubles' width. */
#define VF __m512
#define VD __m512d
#define HF __m256
#define FL 16
#define DL 8

#define F_LOAD(p) _mm512_loadu_ps(p)
#define F_STORE(p, v) _mm512_storeu_ps(p, v)
#define F_SET1(x) _mm512_set1_ps(x)
#define F_MUL(a, b) _mm512_mul_ps(a, b)
#define F_LO(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define F_HI(v) _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1))
#define F_PACK(lo, hi) \
    _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1)
/* even lanes to the low half, odd lanes to the high half */
#define F_DEINT(v) \
    _mm512_permutexvar_ps(_mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, \
                                            1, 3, 5, 7, 9, 11, 13, 15), v)

#define D_ZERO() _mm512_setzero_pd()
#define D_SET1(x) _mm512_set1_pd(x)
#define D_ADD(a, b) _mm512_add_pd(a, b)
#define D_MUL(a, b) _mm512_mul_pd(a, b)
#define D_DIV(a, b) _mm512_div_pd(a, b)
#define D_SQRT(a) _mm512_sqrt_pd(a)
#define D_TO_H(d) _mm512_cvtpd_ps(d)

#define H_LOAD(p) _mm256_loadu_ps(p)
#define H_STORE(p, v) _mm256_storeu_ps(p, v)
#define H_SET1(x) _mm256_set1_ps(x)
#define H_ZERO() _mm256_setzero_ps()
#define H_ADD(a, b) _mm256_add_ps(a, b)
#define H_SUB(a, b) _mm256_sub_ps(a, b)
#define H_MUL(a, b) _mm256_mul_ps(a, b)
#define H_DIV(a, b) _mm256_div_ps(a, b)
#define H_MAX(a, b) _mm256_max_ps(a, b)
#define H_AND(a, b) _mm256_and_ps(a, b)
#define H_ANDNOT(a, b) _mm256_andnot_ps(a, b)
#define H_LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define H_LE(a, b) _mm256_cmp_ps(a, b, _CMP_LE_OQ)
#define H_TO_D(v) _mm512_cvtps_pd(v)
#define VFI __m512i
#define FI_LOAD(p) _mm512_loadu_si512(p)

/* two vectors: the tables of a two-source permute */
typedef struct Piece {
    __m512 a, b;
} Piece;
#define PIECE 32

ALWAYS_INLINE Piece load_piece(const float *p, unsigned n)
{
    const __mmask16 a = n >= 16 ? 0xffff : (__mmask16)((1u << n) - 1);
    const __mmask16 b = n >= 32 ? 0xffff : n > 16 ? (__mmask16)((1u << (n - 16)) - 1) : 0;
    return (Piece){ _mm512_maskz_loadu_ps(a, p), _mm512_maskz_loadu_ps(b, p + 16) };
}

ALWAYS_INLINE VF permute_piece(Piece pc, VFI idx)
{
    return _mm512_permutex2var_ps(pc.a, idx, pc.b);
}

typedef __mmask16 FMask;

ALWAYS_INLINE FMask piece_mask(VFI idx, unsigned k)
{
    return _mm512_cmpeq_epi32_mask(_mm512_srli_epi32(idx, 5), _mm512_set1_epi32((int)k));
}

ALWAYS_INLINE VF select_lanes(VF a, VF b, FMask m)
{
    return _mm512_mask_mov_ps(a, m, b);
}

/* Doubles 4 i .. 4 i + 3 of v */
#define D_PART4(v, i) ((i) ? _mm512_extractf64x4_pd(v, 1) : _mm512_castpd512_pd256(v))

#include "x86/ssim_simd.h"
