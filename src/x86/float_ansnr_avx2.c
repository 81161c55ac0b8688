/*
 * Float ANSNR in AVX2: the filter 8 outputs a step (float_ansnr_simd.h),
 * and the rows' energies, 8 rows at once.
 */
#include "x86/avx2.h"

#define VECF __m256
#define LANES 8
#define VF(op) _mm256_##op##_ps
#define NAME(f) f##_avx2

#include "x86/float_ansnr_simd.h"

/* Each row's energy is a chain of float additions in x order, which a
 * vector cannot split; lane i carries row i's chains instead: 8 columns of
 * the squares of 8 rows are transposed and added column by column. The
 * columns after the last multiple of 8 and the rows after the last
 * multiple of 8 go on in scalar code, in the same order. */
FLOAT_ANSNR_ROW_ENERGIES(vqx_float_ansnr_row_energies_avx2)
{
    const int w8 = w & ~7;
    int r0 = 0;
    for (; r0 + 8 <= n; r0 += 8) {
        const float *rr = ref + r0 * stride, *rd = dis + r0 * stride;
        __m256 sig = _mm256_setzero_ps(), noi = _mm256_setzero_ps();
        for (int x = 0; x < w8; x += 8) {
            __m256 s[8], e[8];
            for (int i = 0; i < 8; i++) {
                const __m256 r = _mm256_loadu_ps(rr + i * stride + x);
                const __m256 diff = _mm256_sub_ps(r, _mm256_loadu_ps(rd + i * stride + x));
                s[i] = _mm256_mul_ps(r, r);
                e[i] = _mm256_mul_ps(diff, diff);
            }
            transpose8_ps(s);
            transpose8_ps(e);
            for (int c = 0; c < 8; c++) {
                sig = _mm256_add_ps(sig, s[c]);
                noi = _mm256_add_ps(noi, e[c]);
            }
        }
        float lane_sig[8], lane_noi[8];
        _mm256_storeu_ps(lane_sig, sig);
        _mm256_storeu_ps(lane_noi, noi);
        for (int i = 0; i < 8; i++) {
            const float *ri = rr + i * stride, *di = rd + i * stride;
            float row_signal = lane_sig[i], row_noise = lane_noi[i];
            for (int x = w8; x < w; x++) {
                row_signal += ri[x] * ri[x];
                row_noise += (ri[x] - di[x]) * (ri[x] - di[x]);
            }
            signal[r0 + i] = row_signal;
            noise[r0 + i] = row_noise;
        }
    }
    if (r0 < n) vqx_float_ansnr_row_energies_c(ref + r0 * stride, dis + r0 * stride, stride, w,
                                               n - r0, signal + r0, noise + r0);
}
