/*
 * Float motion in AVX2: the blur 8 outputs a step (float_motion_simd.h),
 * and the rows' sums of |a - b|, 8 rows at once.
 */
#include <immintrin.h>
#include <math.h>

#define VECF __m256
#define LANES 8
#define VF(op) _mm256_##op##_ps
#define NAME(f) f##_avx2

#include "x86/float_motion_simd.h"

/* r[c] lane i = r[i] lane c before. */
static inline void transpose8(__m256 r[8])
{
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xee);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xee);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xee);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xee);
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

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
            transpose8(d);
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
