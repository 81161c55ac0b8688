/* Float ANSNR's filter in AVX-512: 16 outputs a step, by float_ansnr_simd.h. */
#include "x86/avx512.h"

#define VECF __m512
#define LANES 16
#define VF(op) _mm512_##op##_ps
#define NAME(f) f##_avx512

#include "x86/float_ansnr_simd.h"
