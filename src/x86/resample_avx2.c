/* The resampler's rows in AVX2: 8 outputs a step, by resample_simd.h. */
#include <immintrin.h>

#define VECF __m256
#define VECI __m256i
#define LANES 8u
#define VF(op) _mm256_##op##_ps
#define VI(op) _mm256_##op##_epi32
#define LOAD_I(p) _mm256_loadu_si256((const __m256i *)(p))
#define GATHER_F(base, i) _mm256_i32gather_ps((base), (i), 4)
#define GATHER_I(base, i) _mm256_i32gather_epi32((base), (i), 4)
#define LANE_INDEX _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define NAME(f) f##_avx2

#include "x86/resample_simd.h"
