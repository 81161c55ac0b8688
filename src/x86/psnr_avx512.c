/* PSNR's row sums in AVX-512, by psnr_simd.h. */
#include <immintrin.h>

#define VEC __m512i
#define LANES 16
#define VI(op) _mm512_##op
#define VSTORE(p, v) _mm512_storeu_si512(p, v)
#define VZERO() _mm512_setzero_si512()
#define LOAD8(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(p)))
#define LOAD16(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p)))
#define NAME(f) f##_avx512

#include "x86/psnr_simd.h"
