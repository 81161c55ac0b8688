/* PSNR's row sums in AVX-512, by psnr_simd.h. */
#include <immintrin.h>

#define VEC __m512i
#define LANES 16
#define VI(op) VI_##op
#define VSTORE(p, v) _mm512_storeu_si512(p, v)
#define VZERO() _mm512_setzero_si512()
#define VI_sub_epi16 _mm512_sub_epi16
#define VI_sub_epi32 _mm512_sub_epi32
#define VI_add_epi32 _mm512_add_epi32
#define VI_add_epi64 _mm512_add_epi64
#define VI_madd_epi16 _mm512_madd_epi16
#define VI_mullo_epi32 _mm512_mullo_epi32
#define VI_unpacklo_epi32 _mm512_unpacklo_epi32
#define VI_unpackhi_epi32 _mm512_unpackhi_epi32
#define LOAD8(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(p)))
#define LOAD16(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p)))
#define NAME(f) f##_avx512

#include "x86/psnr_simd.h"
