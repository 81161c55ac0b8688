/* Float VIF in AVX-512: 16 outputs a step, by float_vif_simd.h. */
#include <immintrin.h>

#define VECF __m512
#define VECD __m512d
#define VECI __m512i
#define LANES 16
#define VF(op) _mm512_##op##_ps
#define VD(op) _mm512_##op##_pd
#define VI(op) _mm512_##op
#define VAND_I(a, b) _mm512_and_si512(a, b)
#define VOR_I(a, b) _mm512_or_si512(a, b)
#define CASTI(v) _mm512_castps_si512(v)
#define CASTF(v) _mm512_castsi512_ps(v)
#define MASK __mmask16
#define LT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define EQ(a, b) _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ)
#define SELECT(m, t, f) _mm512_mask_blend_ps(m, f, t)
#define WIDEN_LO(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define WIDEN_HI(v) _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)))
#define NARROW(lo, hi) \
    _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1)
#define NAME(f) f##_avx512

#include "x86/float_vif_simd.h"
