/* Float PSNR's row sum in AVX-512: 16 samples a step, by float_psnr_simd.h. */
#include "x86/avx512.h"

#define LANES 16
#define NAME(f) f##_avx512

#include "x86/float_psnr_simd.h"
