/* Float motion's blur in AVX-512: 16 outputs a step, by float_motion_simd.h. */
#include <immintrin.h>

#define VECF __m512
#define LANES 16
#define VF(op) _mm512_##op##_ps
#define NAME(f) f##_avx512

#include "x86/float_motion_simd.h"
