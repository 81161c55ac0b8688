/* SSIMULACRA 2 in AVX-512: 16 outputs a step, by ssimulacra2_simd.h. */
#include <immintrin.h>

#define VECF __m512
#define VECI __m512i
#define LANES 16
#define STRIP_VECS 1
#define VF(op) _mm512_##op##_ps
#define VI(op) _mm512_##op
#define CASTI(v) _mm512_castps_si512(v)
#define CASTF(v) _mm512_castsi512_ps(v)
#define LT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define SELECT(m, t, f) _mm512_mask_blend_ps(m, f, t)
#define ZERO_WHERE_ZERO(bits, v) \
    _mm512_maskz_mov_epi32(_mm512_cmpneq_epi32_mask(bits, _mm512_setzero_si512()), v)
#define GATHER(base, idx) _mm512_i32gather_ps(idx, base, 4)
#define LOAD_I(p) _mm512_loadu_si512(p)
#define VECD __m512d
#define VD(op) _mm512_##op##_pd
#define GT_D(a, b) _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ)
#define SELECT_D(m, t, f) _mm512_mask_blend_pd(m, f, t)
#define WIDEN_LO(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define WIDEN_HI(v) _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)))
#define NARROW(lo, hi) \
    _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1)
#define DEINTERLEAVE(a, b, even, odd)                                                    \
    do {                                                                                  \
        const __m512i lane2 = _mm512_slli_epi32(                                          \
            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), 1);  \
        even = _mm512_permutex2var_ps(a, lane2, b);                                       \
        odd = _mm512_permutex2var_ps(a, _mm512_add_epi32(lane2, _mm512_set1_epi32(1)), b); \
    } while (0)
#define NAME(f) f##_avx512

#include "x86/ssimulacra2_simd.h"
