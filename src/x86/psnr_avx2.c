/* PSNR's row sums in AVX2, by psnr_simd.h. */
#include <immintrin.h>

#define VEC __m256i
#define LANES 8
#define VI(op) _mm256_##op
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define VZERO() _mm256_setzero_si256()
#define LOAD8(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p)))
#define LOAD16(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define NAME(f) f##_avx2

#include "x86/psnr_simd.h"
