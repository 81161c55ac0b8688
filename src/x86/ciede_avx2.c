/* ciede in AVX2: 4 pixels at a time, by ciede_simd.h. */
#include <immintrin.h>

#include "x86/ciede.h"

#define LANES 4
#define NAME(f) f##_avx2
#define SQRT_PD(x) _mm256_sqrt_pd(x)

#include "x86/ciede_simd.h"
