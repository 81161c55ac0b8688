/* ciede in AVX-512: 8 pixels at a time, by ciede_simd.h. */
#include <immintrin.h>

#include "x86/ciede.h"

#define LANES 8
#define NAME(f) f##_avx512
#define SQRT_PD(x) _mm512_sqrt_pd(x)

#include "x86/ciede_simd.h"
