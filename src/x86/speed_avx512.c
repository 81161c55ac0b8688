/* SpEED in AVX-512: 16 floats or 8 doubles a step, by speed_simd.h. */
#include <immintrin.h>

#define VECF __m512
#define LANES 16u
#define VF(op) _mm512_##op##_ps
#define VECD __m512d
#define LANES_D 8
#define VD(op) _mm512_##op##_pd
/* the five lanes alone are loaded and stored (masks) */
#define CENTRED_ROW(c, p, m)                                                                  \
    _mm512_mask_storeu_pd((c), 0x1f, VD(sub)(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(0x1f, (p))), \
                                             _mm512_maskz_loadu_pd(0x1f, (m))))
#define NAME(f) f##_avx512

#include "x86/speed_simd.h"
