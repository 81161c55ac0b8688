/* Float moment's row sums in AVX-512: 16 samples a step, by float_moment_simd.h. */
#include "x86/avx512.h"

#define LANES 16
#define NAME(f) f##_avx512

#include "x86/float_moment_simd.h"
