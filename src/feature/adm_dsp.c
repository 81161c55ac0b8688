/* Integer ADM's DSP table: the scalar C of the DWT passes and the dispatch. */
#include "feature/adm_dsp.h"

#if VQX_ARCH_X86
#include "x86/adm.h"
#endif

/* Level 0's sums of 16-bit samples and coefficients fit 32 bits (libvmaf's
 * widths there), the deeper levels' need 64. */
#define DEFINE_DWT_PASSES(bits, src_t, acc_t)                                               \
    ADM_DWT_VERTICAL_##bits(vqx_adm_dwt_vertical_##bits##_c)                                \
    {                                                                                       \
        const int32_t *l = vqx_adm_db2_lo, *g = vqx_adm_db2_hi;                             \
        for (int j = 0; j < w; j++) {                                                       \
            const acc_t s0 = src[0][j], s1 = src[1][j], s2 = src[2][j], s3 = src[3][j];     \
            lo[j] = (src_t)((l[0] * s0 + l[1] * s1 + l[2] * s2 + l[3] * s3 + add) >> shift); \
            hi[j] = (src_t)((g[0] * s0 + g[1] * s1 + g[2] * s2 + g[3] * s3 + add) >> shift); \
        }                                                                                   \
    }                                                                                       \
    ADM_DWT_HORIZONTAL_##bits(vqx_adm_dwt_horizontal_##bits##_c)                            \
    {                                                                                       \
        const int32_t *l = vqx_adm_db2_lo, *g = vqx_adm_db2_hi;                             \
        for (int j = 0; j < (w + 1) / 2; j++) {                                             \
            const src_t *p = lo + 2 * j - 1, *q = hi + 2 * j - 1;                           \
            const acc_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];                         \
            const acc_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];                         \
            a[j] = (int32_t)((l[0] * p0 + l[1] * p1 + l[2] * p2 + l[3] * p3 + add) >> shift); \
            v[j] = (int32_t)((g[0] * p0 + g[1] * p1 + g[2] * p2 + g[3] * p3 + add) >> shift); \
            h[j] = (int32_t)((l[0] * q0 + l[1] * q1 + l[2] * q2 + l[3] * q3 + add) >> shift); \
            d[j] = (int32_t)((g[0] * q0 + g[1] * q1 + g[2] * q2 + g[3] * q3 + add) >> shift); \
        }                                                                                   \
    }

DEFINE_DWT_PASSES(16, int16_t, int32_t)
DEFINE_DWT_PASSES(32, int32_t, int64_t)

void vqx_adm_dsp_init(AdmDSPContext *c, unsigned cpu_flags)
{
    c->dwt_vertical_16 = vqx_adm_dwt_vertical_16_c;
    c->dwt_horizontal_16 = vqx_adm_dwt_horizontal_16_c;
    c->dwt_vertical_32 = vqx_adm_dwt_vertical_32_c;
    c->dwt_horizontal_32 = vqx_adm_dwt_horizontal_32_c;
#if VQX_ARCH_X86
    vqx_adm_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
