/* SSIMULACRA 2 in AVX2 + FMA: 8 outputs a step, by ssimulacra2_simd.h. */
#include <immintrin.h>

#define VECF __m256
#define VECI __m256i
#define LANES 8
#define STRIP_VECS 2
#define VF(op) _mm256_##op##_ps
#define VI(op) _mm256_##op
#define CASTI(v) _mm256_castps_si256(v)
#define CASTF(v) _mm256_castsi256_ps(v)
#define LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define SELECT(m, t, f) _mm256_blendv_ps(f, t, m)
#define ZERO_WHERE_ZERO(bits, v) \
    _mm256_andnot_si256(_mm256_cmpeq_epi32(bits, _mm256_setzero_si256()), v)
#define GATHER(base, idx) _mm256_i32gather_ps(base, idx, 4)
#define LOAD_I(p) _mm256_loadu_si256((const __m256i *)(p))
#define VECD __m256d
#define VD(op) _mm256_##op##_pd
#define GT_D(a, b) _mm256_cmp_pd(a, b, _CMP_GT_OQ)
#define SELECT_D(m, t, f) _mm256_blendv_pd(f, t, m)
#define WIDEN_LO(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define WIDEN_HI(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))
#define NARROW(lo, hi) \
    _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1)
#define DEINTERLEAVE(a, b, even, odd)                                                    \
    do {                                                                                  \
        even = _mm256_castpd_ps(_mm256_permute4x64_pd(                                    \
            _mm256_castps_pd(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))), 0xd8));    \
        odd = _mm256_castpd_ps(_mm256_permute4x64_pd(                                     \
            _mm256_castps_pd(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1))), 0xd8));    \
    } while (0)
#define NAME(f) f##_avx2

#include "x86/ssimulacra2_simd.h"
