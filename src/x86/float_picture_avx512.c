/* The float conversion in AVX-512: 16 samples a step, by float_picture_simd.h. */
#include <immintrin.h>

#define VECF __m512
#define LANES 16u
#define VF(op) _mm512_##op##_ps
#define LOAD_8BPC(p) _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(p))))
#define LOAD_16BPC(p) \
    _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p))))
#define NAME(f) f##_avx512

#include "x86/float_picture_simd.h"
