/*
 * Float motion in AVX2: the blur 8 outputs a step (float_motion_simd.h),
 * and the rows' sums of |a - b|, 8 rows at once.
 */
#include <math.h>

#include "x86/avx2.h"

#define VECF __m256
#define LANES 8
#define VF(op) _mm256_##op##_ps
#define NAME(f) f##_avx2

#include "x86/float_motion_simd.h"

/* Each row's sum is a chain of additions in x order, which a vector cannot
 * split; lane i carries row i's chain instead: 8 columns of |a - b| of 8
 * rows are transposed and added column by column. The columns after the
 * last multiple of 8 and the rows after the last multiple of 8 go on in
 * scalar code, in the same order. */
FLOAT_MOTION_ROW_SADS(vqx_float_motion_row_sads_avx2)
{
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const int w8 = w & ~7;
    int r0 = 0;
    for (; r0 + 8 <= n; r0 += 8) {
        const float *ra = a + r0 * stride, *rb = b + r0 * stride;
        __m256 sum = _mm256_setzero_ps();
        for (int x = 0; x < w8; x += 8) {
            __m256 d[8];
            for (int i = 0; i < 8; i++)
                d[i] = _mm256_andnot_ps(sign, _mm256_sub_ps(_mm256_loadu_ps(ra + i * stride + x),
                                                            _mm256_loadu_ps(rb + i * stride + x)));
            transpose8_ps(d);
            for (int c = 0; c < 8; c++) sum = _mm256_add_ps(sum, d[c]);
        }
        float lane[8];
        _mm256_storeu_ps(lane, sum);
        for (int i = 0; i < 8; i++) {
            float s = lane[i];
            for (int x = w8; x < w; x++) s += fabsf(ra[i * stride + x] - rb[i * stride + x]);
            line[r0 + i] = s;
        }
    }
    if (r0 < n) vqx_float_motion_row_sads_c(a + r0 * stride, b + r0 * stride, stride, w, n - r0,
                                            line + r0);
}
