/*
 * psnr_hvs's work on one pair of 8x8 blocks, as VQX_HOSTDEV inlines: the
 * scalar C of the DSP table (psnr_hvs_dsp.c) runs them block after block,
 * the CUDA twin (cuda/psnr_hvs_kernels.cu) a thread per block. Load, the
 * variance ratios, Daala's integer DCT (psnr_hvs_tmpl.h), the masking
 * threshold and the 64 masked, CSF-weighted squared errors, in Xiph's
 * operations and orders (float throughout, no contraction on either side).
 */
#ifndef VQX_FEATURE_PSNR_HVS_BLOCK_H
#define VQX_FEATURE_PSNR_HVS_BLOCK_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitdepth.h"
#include "hostdev.h"
#include "feature/psnr_hvs_dsp.h"

/* Daala's 1-D DCT on the columns of a block, in 32-bit arithmetic up to 12
 * bits, where no value overflows (libvmaf's own widths), in 64-bit
 * arithmetic for deeper input. */
#define coeff int32_t
#define CF(name) psnr_hvs_##name##_32
#include "feature/psnr_hvs_tmpl.h"
#undef coeff
#undef CF
#define coeff int64_t
#define CF(name) psnr_hvs_##name##_64
#include "feature/psnr_hvs_tmpl.h"
#undef coeff
#undef CF

#define PSNR_HVS_N PSNR_HVS_BLOCK

/* 2-D DCT as Xiph's: the 1-D DCT of every column of x, each becoming a row
 * of z, then of every column of z. The second pass leaves its result
 * transposed: out[j][i] is coefficient (i, j). */
VQX_HOSTDEV static inline void psnr_hvs_fdct8x8(int32_t out[PSNR_HVS_TERMS],
                                                const int32_t x[PSNR_HVS_TERMS], bool wide_dct)
{
    int32_t pass[PSNR_HVS_TERMS], z[PSNR_HVS_TERMS];
    if (wide_dct) psnr_hvs_fdct8_columns_64(pass, x);
    else psnr_hvs_fdct8_columns_32(pass, x);
    for (int i = 0; i < PSNR_HVS_N; i++)
        for (int j = 0; j < PSNR_HVS_N; j++) z[i * PSNR_HVS_N + j] = pass[j * PSNR_HVS_N + i];
    if (wide_dct) psnr_hvs_fdct8_columns_64(out, z);
    else psnr_hvs_fdct8_columns_32(out, z);
}

VQX_HOSTDEV static inline void psnr_hvs_load_block(int32_t out[PSNR_HVS_TERMS], const void *block,
                                                   ptrdiff_t stride, bool wide)
{
    /* one loop per sample width, so that each vectorises */
    if (wide) {
        for (unsigned i = 0; i < PSNR_HVS_N; i++) {
            const uint16_t *row = PIXEL_ROW(uint16_t, block, stride, i);
            for (unsigned j = 0; j < PSNR_HVS_N; j++) out[i * PSNR_HVS_N + j] = row[j];
        }
    } else {
        for (unsigned i = 0; i < PSNR_HVS_N; i++) {
            const uint8_t *row = PIXEL_ROW(uint8_t, block, stride, i);
            for (unsigned j = 0; j < PSNR_HVS_N; j++) out[i * PSNR_HVS_N + j] = row[j];
        }
    }
}

/* |d| as a float; by the sign mask, as ?: on the random sign compiles to a
 * mispredicted jump */
VQX_HOSTDEV static inline float psnr_hvs_magnitude(int32_t d)
{
    const int32_t sign = d < 0 ? -1 : 0;
    return (float)((d ^ sign) - sign);
}

/* Ratio of each block's summed quadrant (4x4) variances to its variance,
 * both unbiased; 0 for a flat block. Float throughout, as in Xiph's code;
 * the two blocks (reference, distorted) step together, which keeps two
 * float dependency chains in flight. */
VQX_HOSTDEV static inline void psnr_hvs_variance_ratios(const int32_t px[2][PSNR_HVS_TERMS],
                                                        float ratio[2])
{
    /* Xiph sums the samples in float; every partial sum is an integer below
     * 2^24, so float sums are exact and an integer sum gives the same. */
    int32_t quad_sum[2][4] = { { 0 } };
    for (int i = 0; i < PSNR_HVS_N; i++)
        for (int j = 0; j < PSNR_HVS_N; j++)
            for (int k = 0; k < 2; k++)
                quad_sum[k][(i >> 2) + ((j >> 2) << 1)] += px[k][i * PSNR_HVS_N + j];
    float mean[2], quad_mean[2][4], var[2] = { 0 }, quad_var[2][4] = { { 0 } };
    for (int k = 0; k < 2; k++) {
        mean[k] = (float)(quad_sum[k][0] + quad_sum[k][1] + quad_sum[k][2] + quad_sum[k][3]) / 64.f;
        for (int q = 0; q < 4; q++) quad_mean[k][q] = (float)quad_sum[k][q] / 16.f;
    }
    for (int i = 0; i < PSNR_HVS_N; i++)
        for (int j = 0; j < PSNR_HVS_N; j++)
            for (int k = 0; k < 2; k++) {
                const int q = (i >> 2) + ((j >> 2) << 1);
                const int32_t v = px[k][i * PSNR_HVS_N + j];
                var[k] += (v - mean[k]) * (v - mean[k]);
                quad_var[k][q] += (v - quad_mean[k][q]) * (v - quad_mean[k][q]);
            }
    for (int k = 0; k < 2; k++) {
        var[k] *= 1 / 63.f * 64;
        for (int q = 0; q < 4; q++) quad_var[k][q] *= 1 / 15.f * 16;
        if (var[k] > 0)
            var[k] = (quad_var[k][0] + quad_var[k][1] + quad_var[k][2] + quad_var[k][3]) / var[k];
        ratio[k] = var[k];
    }
}

/* Masking threshold of a transformed pair (transposed, as psnr_hvs_fdct8x8
 * leaves it): the larger of the two blocks' CSF-weighted AC energies, each
 * scaled by its variance ratio. The weighted squares vectorise; the sums
 * keep Xiph's order, row by row. */
VQX_HOSTDEV static inline float psnr_hvs_masking(const int32_t dct_t[2][PSNR_HVS_TERMS],
                                                 const float mask_t[PSNR_HVS_TERMS],
                                                 const float ratio[2])
{
    float weighted[2][PSNR_HVS_TERMS];
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < PSNR_HVS_TERMS; c++) {
            /* the square to float with one rounding, as Xiph's int square
             * (which is exact up to 12 bits): exact in double, whose
             * product needs no 64-bit integers at 16 bits */
            const double v = dct_t[k][c];
            weighted[k][c] = (float)(v * v) * mask_t[c];
        }
    float energy[2] = { 0 };
    for (int i = 0; i < PSNR_HVS_N; i++)
        for (int j = i == 0; j < PSNR_HVS_N; j++)
            for (int k = 0; k < 2; k++) energy[k] += weighted[k][j * PSNR_HVS_N + i];
    /* the square root in double, as C's sqrt of the float product */
    const float ref = (float)(sqrt((double)(energy[0] * ratio[0])) / 32.f);
    const float dis = (float)(sqrt((double)(energy[1] * ratio[1])) / 32.f);
    return dis > ref ? dis : ref;
}

/* The 64 terms of the block pair at ref and dis (bytes at 8 bits, else
 * 16-bit words) into terms, in the order psnr_hvs sums them (coefficient
 * (i, j) at 8 i + j); weight_t, mask_t: the plane's CSF and masking
 * weights in the DCT's transposed layout (psnr_hvs.c). */
VQX_HOSTDEV static inline void vqx_psnr_hvs_block(const void *ref, ptrdiff_t ref_stride,
                                                  const void *dis, ptrdiff_t dis_stride,
                                                  unsigned bpc, const float *weight_t,
                                                  const float *mask_t,
                                                  float terms[PSNR_HVS_TERMS])
{
    const bool wide = bpc > 8, wide_dct = bpc > PSNR_HVS_NARROW_MAX_BPC;
    int32_t px[2][PSNR_HVS_TERMS], dct_t[2][PSNR_HVS_TERMS];
    psnr_hvs_load_block(px[0], ref, ref_stride, wide);
    psnr_hvs_load_block(px[1], dis, dis_stride, wide);
    float ratio[2];
    psnr_hvs_variance_ratios(px, ratio);
    psnr_hvs_fdct8x8(dct_t[0], px[0], wide_dct);
    psnr_hvs_fdct8x8(dct_t[1], px[1], wide_dct);
    const float threshold = psnr_hvs_masking(dct_t, mask_t, ratio);
    /* each coefficient's term, in the transposed layout: vectorises */
    float term[PSNR_HVS_TERMS];
    const int32_t *c0 = dct_t[0], *c1 = dct_t[1];
    for (int k = 0; k < PSNR_HVS_TERMS; k++) {
        const float err = psnr_hvs_magnitude(c0[k] - c1[k]);
        /* Xiph's err < t ? 0 : err - t is max(err - t, 0): err - t < 0
         * exactly when err < t, and is +0 when they are equal */
        const float over = err - threshold / mask_t[k];
        const float masked = over > 0 ? over : 0;
        term[k] = (masked * weight_t[k]) * (masked * weight_t[k]);
    }
    /* the DC term is not masked */
    const float dc_err = psnr_hvs_magnitude(c0[0] - c1[0]);
    term[0] = (dc_err * weight_t[0]) * (dc_err * weight_t[0]);
    /* in Xiph's order of summation, row by row */
    for (int i = 0; i < PSNR_HVS_N; i++)
        for (int j = 0; j < PSNR_HVS_N; j++)
            terms[i * PSNR_HVS_N + j] = term[j * PSNR_HVS_N + i];
}

#undef PSNR_HVS_N

#endif
