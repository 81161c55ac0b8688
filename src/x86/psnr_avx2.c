/* PSNR's row sums in AVX2, by psnr_simd.h. */
#include <immintrin.h>

#define VEC __m256i
#define LANES 8
#define VI(op) VI_##op
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define VZERO() _mm256_setzero_si256()
#define VI_sub_epi16 _mm256_sub_epi16
#define VI_sub_epi32 _mm256_sub_epi32
#define VI_add_epi32 _mm256_add_epi32
#define VI_add_epi64 _mm256_add_epi64
#define VI_madd_epi16 _mm256_madd_epi16
#define VI_mullo_epi32 _mm256_mullo_epi32
#define VI_unpacklo_epi32 _mm256_unpacklo_epi32
#define VI_unpackhi_epi32 _mm256_unpackhi_epi32
#define LOAD8(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p)))
#define LOAD16(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define NAME(f) f##_avx2

#include "x86/psnr_simd.h"
