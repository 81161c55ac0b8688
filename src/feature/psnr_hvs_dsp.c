/* psnr_hvs's DSP table: the scalar C of a row of blocks and of the plane's
 * sum, and the dispatch. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "bitdepth.h"
#include "feature/psnr_hvs_dsp.h"

#if VQX_ARCH_X86
#include "x86/psnr_hvs.h"
#endif

#define BLOCK PSNR_HVS_BLOCK

/* Daala's 1-D DCT on the columns of a block (psnr_hvs_tmpl.h), in 32-bit
 * arithmetic up to 12 bits, where no value overflows (libvmaf's own
 * widths), in 64-bit arithmetic for deeper input. */
#define coeff int32_t
#define CF(name) name##_32
#include "feature/psnr_hvs_tmpl.h"
#undef coeff
#undef CF
#define coeff int64_t
#define CF(name) name##_64
#include "feature/psnr_hvs_tmpl.h"
#undef coeff
#undef CF

/* 2-D DCT as Xiph's: the 1-D DCT of every column of x, each becoming a row
 * of z, then of every column of z. The second pass leaves its result
 * transposed: out[j][i] is coefficient (i, j). */
static void fdct8x8(int32_t out[BLOCK * BLOCK], const int32_t x[BLOCK * BLOCK], bool wide_dct)
{
    void (*const columns)(int32_t *, const int32_t *) =
        wide_dct ? fdct8_columns_64 : fdct8_columns_32;
    int32_t pass[BLOCK * BLOCK], z[BLOCK * BLOCK];
    columns(pass, x);
    for (int i = 0; i < BLOCK; i++)
        for (int j = 0; j < BLOCK; j++) z[i * BLOCK + j] = pass[j * BLOCK + i];
    columns(out, z);
}

static void load_block(int32_t out[BLOCK * BLOCK], const void *block, ptrdiff_t stride, bool wide)
{
    /* one loop per sample width, so that each vectorises */
    if (wide) {
        for (unsigned i = 0; i < BLOCK; i++) {
            const uint16_t *row = PIXEL_ROW(uint16_t, block, stride, i);
            for (unsigned j = 0; j < BLOCK; j++) out[i * BLOCK + j] = row[j];
        }
    } else {
        for (unsigned i = 0; i < BLOCK; i++) {
            const uint8_t *row = PIXEL_ROW(uint8_t, block, stride, i);
            for (unsigned j = 0; j < BLOCK; j++) out[i * BLOCK + j] = row[j];
        }
    }
}

/* |d| as a float; by the sign mask, as ?: on the random sign compiles to a
 * mispredicted jump */
static inline float magnitude(int32_t d)
{
    const int32_t sign = d < 0 ? -1 : 0;
    return (float)((d ^ sign) - sign);
}

/* Ratio of each block's summed quadrant (4x4) variances to its variance,
 * both unbiased; 0 for a flat block. Float throughout, as in Xiph's code;
 * the two blocks (reference, distorted) step together, which keeps two
 * float dependency chains in flight. */
static void variance_ratios(const int32_t px[2][BLOCK * BLOCK], float ratio[2])
{
    /* Xiph sums the samples in float; every partial sum is an integer below
     * 2^24, so float sums are exact and an integer sum gives the same. */
    int32_t quad_sum[2][4] = { { 0 } };
    for (int i = 0; i < BLOCK; i++)
        for (int j = 0; j < BLOCK; j++)
            for (int k = 0; k < 2; k++)
                quad_sum[k][(i >> 2) + ((j >> 2) << 1)] += px[k][i * BLOCK + j];
    float mean[2], quad_mean[2][4], var[2] = { 0 }, quad_var[2][4] = { { 0 } };
    for (int k = 0; k < 2; k++) {
        mean[k] = (float)(quad_sum[k][0] + quad_sum[k][1] + quad_sum[k][2] + quad_sum[k][3]) / 64.f;
        for (int q = 0; q < 4; q++) quad_mean[k][q] = (float)quad_sum[k][q] / 16.f;
    }
    for (int i = 0; i < BLOCK; i++)
        for (int j = 0; j < BLOCK; j++)
            for (int k = 0; k < 2; k++) {
                const int q = (i >> 2) + ((j >> 2) << 1);
                const int32_t v = px[k][i * BLOCK + j];
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

/* Masking threshold of a transformed pair (transposed, as fdct8x8 leaves
 * it): the larger of the two blocks' CSF-weighted AC energies, each scaled
 * by its variance ratio. The weighted squares vectorise; the sums keep
 * Xiph's order, row by row. */
static float masking(const int32_t dct_t[2][BLOCK * BLOCK], const float mask_t[BLOCK * BLOCK],
                     const float ratio[2])
{
    float weighted[2][BLOCK * BLOCK];
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < BLOCK * BLOCK; c++) {
            /* the square to float with one rounding, as Xiph's int square
             * (which is exact up to 12 bits): exact in double, whose
             * product needs no 64-bit integers at 16 bits */
            const double v = dct_t[k][c];
            weighted[k][c] = (float)(v * v) * mask_t[c];
        }
    float energy[2] = { 0 };
    for (int i = 0; i < BLOCK; i++)
        for (int j = i == 0; j < BLOCK; j++)
            for (int k = 0; k < 2; k++) energy[k] += weighted[k][j * BLOCK + i];
    const float ref = (float)(sqrt(energy[0] * ratio[0]) / 32.f);
    const float dis = (float)(sqrt(energy[1] * ratio[1]) / 32.f);
    return dis > ref ? dis : ref;
}

PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms)
{
    const bool wide = bpc > 8, wide_dct = bpc > PSNR_HVS_NARROW_MAX_BPC;
    const ptrdiff_t step = PSNR_HVS_STEP * (wide ? 2 : 1);
    for (unsigned b = 0; b < n; b++, terms += PSNR_HVS_TERMS) {
        int32_t px[2][BLOCK * BLOCK], dct_t[2][BLOCK * BLOCK];
        load_block(px[0], (const uint8_t *)ref + b * step, ref_stride, wide);
        load_block(px[1], (const uint8_t *)dis + b * step, dis_stride, wide);
        float ratio[2];
        variance_ratios(px, ratio);
        fdct8x8(dct_t[0], px[0], wide_dct);
        fdct8x8(dct_t[1], px[1], wide_dct);
        const float threshold = masking(dct_t, mask_t, ratio);
        /* each coefficient's term, in the transposed layout: vectorises */
        float term[BLOCK * BLOCK];
        const int32_t *c0 = dct_t[0], *c1 = dct_t[1];
        for (int k = 0; k < BLOCK * BLOCK; k++) {
            const float err = magnitude(c0[k] - c1[k]);
            /* Xiph's err < t ? 0 : err - t is max(err - t, 0): err - t < 0
             * exactly when err < t, and is +0 when they are equal */
            const float over = err - threshold / mask_t[k];
            const float masked = over > 0 ? over : 0;
            term[k] = (masked * weight_t[k]) * (masked * weight_t[k]);
        }
        /* the DC term is not masked */
        const float dc_err = magnitude(c0[0] - c1[0]);
        term[0] = (dc_err * weight_t[0]) * (dc_err * weight_t[0]);
        /* in Xiph's order of summation, row by row */
        for (int i = 0; i < BLOCK; i++)
            for (int j = 0; j < BLOCK; j++) terms[i * BLOCK + j] = term[j * BLOCK + i];
    }
}

PSNR_HVS_ACCUMULATE(vqx_psnr_hvs_accumulate)
{
    for (size_t k = 0; k < n; k++) total += terms[k];
    return total;
}

void vqx_psnr_hvs_dsp_init(PsnrHvsDSPContext *c, unsigned bpc, unsigned cpu_flags)
{
    c->block_terms = vqx_psnr_hvs_block_terms;
    c->accumulate = vqx_psnr_hvs_accumulate;
#if VQX_ARCH_X86
    vqx_psnr_hvs_dsp_init_x86(c, bpc, cpu_flags);
#else
    (void)bpc;
    (void)cpu_flags;
#endif
}
