/* Float VIF in AVX2: 8 outputs a step, by float_vif_simd.h. */
#include <immintrin.h>

#define VECF __m256
#define VECD __m256d
#define VECI __m256i
#define LANES 8
#define VF(op) _mm256_##op##_ps
#define VD(op) _mm256_##op##_pd
#define VI(op) _mm256_##op
#define VAND_I(a, b) _mm256_and_si256(a, b)
#define VOR_I(a, b) _mm256_or_si256(a, b)
#define CASTI(v) _mm256_castps_si256(v)
#define CASTF(v) _mm256_castsi256_ps(v)
#define MASK __m256
#define LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define EQ(a, b) _mm256_cmp_ps(a, b, _CMP_EQ_OQ)
#define SELECT(m, t, f) _mm256_blendv_ps(f, t, m)
#define WIDEN_LO(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define WIDEN_HI(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))
#define NARROW(lo, hi) \
    _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1)
#define NAME(f) f##_avx2

#include "x86/float_vif_simd.h"
