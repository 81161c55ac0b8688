/* Float moment's row sums in AVX2: 8 samples a step, by float_moment_simd.h. */
#include "x86/avx2.h"

#define LANES 8
#define NAME(f) f##_avx2

#include "x86/float_moment_simd.h"
