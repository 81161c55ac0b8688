/* Float ADM's decoupling in AVX2: 8 outputs a step, by float_adm_simd.h. */
#include <immintrin.h>

#define VECF __m256
#define LANES 8
#define VF(op) _mm256_##op##_ps
#define VECD __m256d
#define VD(op) _mm256_##op##_pd
#define PS_LO_PD(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define PS_HI_PD(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))
#define PD_JOIN_PS(lo, hi) _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo))
#define VECI __m256i
#define VI(op) _mm256_##op##_epi32
#define IAND _mm256_and_si256
#define IOR _mm256_or_si256
#define CAST_I _mm256_castps_si256
#define CAST_F _mm256_castsi256_ps
#define GATHER(table, index) _mm256_i32gather_epi32((const int *)(table), index, 4)
#define MASK __m256
#define CMP _mm256_cmp_ps
#define MAND _mm256_and_ps
#define MOR _mm256_or_ps
#define BLEND(m, a, b) _mm256_blendv_ps(a, b, m)
#define MBITS(m) (unsigned)_mm256_movemask_ps(m)
#define NAME(f) f##_avx2

#include "x86/float_adm_simd.h"
