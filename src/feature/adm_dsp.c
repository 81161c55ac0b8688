/* Integer ADM's DSP table: the scalar C of its stages, and the dispatch. */
#include "feature/adm_dsp.h"

#if VQX_ARCH_X86
#include "x86/adm.h"
#endif

/* ---- DWT ---- */

/* The passes' outputs are adm_pixel.h's: level 0's sums of 16-bit samples
 * and coefficients in 32 bits, the deeper levels' in 64. */
#define DEFINE_DWT_PASSES(bits, src_t, acc_t)                                          \
    ADM_DWT_VERTICAL_##bits(vqx_adm_dwt_vertical_##bits##_c)                           \
    {                                                                                  \
        for (int j = 0; j < w; j++) {                                                  \
            const acc_t s[4] = { src[0][j], src[1][j], src[2][j], src[3][j] };         \
            lo[j] = (src_t)adm_dwt_##bits(vqx_adm_db2_lo, s, add, shift);              \
            hi[j] = (src_t)adm_dwt_##bits(vqx_adm_db2_hi, s, add, shift);              \
        }                                                                              \
    }                                                                                  \
    ADM_DWT_HORIZONTAL_##bits(vqx_adm_dwt_horizontal_##bits##_c)                       \
    {                                                                                  \
        for (int j = 0; j < (w + 1) / 2; j++) {                                        \
            const src_t *p = lo + 2 * j - 1, *q = hi + 2 * j - 1;                      \
            const acc_t pl[4] = { p[0], p[1], p[2], p[3] };                            \
            const acc_t ph[4] = { q[0], q[1], q[2], q[3] };                            \
            a[j] = (int32_t)adm_dwt_##bits(vqx_adm_db2_lo, pl, add, shift);            \
            v[j] = (int32_t)adm_dwt_##bits(vqx_adm_db2_hi, pl, add, shift);            \
            h[j] = (int32_t)adm_dwt_##bits(vqx_adm_db2_lo, ph, add, shift);            \
            d[j] = (int32_t)adm_dwt_##bits(vqx_adm_db2_hi, ph, add, shift);            \
        }                                                                              \
    }

DEFINE_DWT_PASSES(16, int16_t, int32_t)
DEFINE_DWT_PASSES(32, int32_t, int64_t)

/* ---- decoupling ---- */

ADM_DECOUPLE(vqx_adm_decouple_c)
{
    for (int j = 0; j < w; j++) {
        const int32_t oj[3] = { o[0][j], o[1][j], o[2][j] };
        const int32_t tj[3] = { t[0][j], t[1][j], t[2][j] };
        int32_t rj[3], aj[3];
        adm_decouple(oj, tj, recip, cos_1deg_sq, gain_limit, rj, aj);
        for (int b = 0; b < 3; b++) {
            r[b][j] = rj[b];
            a[b][j] = aj[b];
        }
    }
}

/* ---- masking ---- */

ADM_MASK_TERMS_16(vqx_adm_mask_terms_16_c)
{
    for (int j = 0; j < w; j++) {
        const int32_t xj[3] = { x[0][j], x[1][j], x[2][j] };
        adm_mask_terms_16(q, xj, &sum[j], &centre[j]);
    }
}

ADM_MASK_TERMS_32(vqx_adm_mask_terms_32_c)
{
    for (int j = 0; j < w; j++) {
        const int32_t xj[3] = { x[0][j], x[1][j], x[2][j] };
        adm_mask_terms_32(q, xj, &sum[j], &centre[j]);
    }
}

ADM_MASK_THRESHOLD(vqx_adm_mask_threshold_c)
{
    for (int j = 0; j < w; j++) thr[j] = adm_threshold(sum, j - 1, j, j + 1, centre[j]);
}

ADM_MASKED_CUBES_16(vqx_adm_masked_cubes_16_c)
{
    int64_t sum = 0;
    for (int j = 0; j < w; j++)
        sum = adm_add64(sum, adm_masked_cube(adm_weigh_level0(x[j], q), thr[j], thr_shift,
                                             sq_shift, cube_shift));
    return sum;
}

ADM_MASKED_CUBES_32(vqx_adm_masked_cubes_32_c)
{
    int64_t sum = 0;
    for (int j = 0; j < w; j++)
        sum = adm_add64(sum, adm_masked_cube(adm_weigh_q32(x[j], q), thr[j], thr_shift,
                                             sq_shift, cube_shift));
    return sum;
}

ADM_REFERENCE_CUBES_16(vqx_adm_reference_cubes_16_c)
{
    uint64_t sum = 0;
    for (int j = 0; j < w; j++) sum += adm_reference_cube_16(x[j]);
    return sum;
}

ADM_REFERENCE_CUBES_32(vqx_adm_reference_cubes_32_c)
{
    uint64_t sum = 0;
    for (int j = 0; j < w; j++) sum += adm_reference_cube_32(x[j], sq_shift, cube_shift);
    return sum;
}

void vqx_adm_dsp_init(AdmDSPContext *c, unsigned cpu_flags)
{
    c->row_to_int_8 = vqx_adm_row_to_int_8bpc;
    c->row_to_int_16 = vqx_adm_row_to_int_16bpc;
    c->dwt_vertical_16 = vqx_adm_dwt_vertical_16_c;
    c->dwt_horizontal_16 = vqx_adm_dwt_horizontal_16_c;
    c->dwt_vertical_32 = vqx_adm_dwt_vertical_32_c;
    c->dwt_horizontal_32 = vqx_adm_dwt_horizontal_32_c;
    c->decouple = vqx_adm_decouple_c;
    c->mask_terms_16 = vqx_adm_mask_terms_16_c;
    c->mask_terms_32 = vqx_adm_mask_terms_32_c;
    c->mask_threshold = vqx_adm_mask_threshold_c;
    c->masked_cubes_16 = vqx_adm_masked_cubes_16_c;
    c->masked_cubes_32 = vqx_adm_masked_cubes_32_c;
    c->reference_cubes_16 = vqx_adm_reference_cubes_16_c;
    c->reference_cubes_32 = vqx_adm_reference_cubes_32_c;
#if VQX_ARCH_X86
    vqx_adm_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
