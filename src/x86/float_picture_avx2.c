/* The float conversion in AVX2: 8 samples a step, by float_picture_simd.h. */
#include <immintrin.h>

#define VECF __m256
#define LANES 8u
#define VF(op) _mm256_##op##_ps
#define LOAD_8BPC(p) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p))))
#define LOAD_16BPC(p) \
    _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p))))
#define NAME(f) f##_avx2

#include "x86/float_picture_simd.h"
