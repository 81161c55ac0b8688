/* The resampler's rows in AVX-512: 16 outputs a step, by resample_simd.h. */
#include <immintrin.h>

#define VECF __m512
#define VECI __m512i
#define LANES 16u
#define VF(op) _mm512_##op##_ps
#define VI(op) _mm512_##op##_epi32
#define LOAD_I(p) _mm512_loadu_si512((p))
#define GATHER_F(base, i) _mm512_i32gather_ps((i), (base), 4)
#define GATHER_I(base, i) _mm512_i32gather_epi32((i), (base), 4)
#define LANE_INDEX _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define NAME(f) f##_avx512

#include "x86/resample_simd.h"
