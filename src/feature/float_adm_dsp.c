/* Float ADM's DSP table: the scalar C of its stages and the dispatch. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "feature/float_adm_dsp.h"

#if VQX_ARCH_X86
#include "x86/float_adm.h"
#endif

/* libvmaf divides by an SSE reciprocal estimate refined by one Newton step;
 * the estimate scales exactly with the exponent of x. */
static inline float reciprocal_estimate(const uint32_t *table, float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    const uint32_t sign = u & 0x80000000u, exponent = (u >> 23) & 0xff;
    if (exponent == 0) return sign ? -INFINITY : INFINITY; /* zero, subnormal */
    if (exponent == 0xff) return u & 0x7fffff ? x : sign ? -0.0f : 0.0f;
    if (exponent >= 253) return sign ? -0.0f : 0.0f;       /* result subnormal */
    const uint32_t r = sign | (253 - exponent) << 23 | table[(u >> 11) & 0xfff];
    float y;
    memcpy(&y, &r, sizeof(y));
    return y;
}

FLOAT_ADM_DECOUPLE_ROW(vqx_float_adm_decouple_row_c)
{
    for (int x = 0; x < n; x++) {
        const float oh = ref[0][x], ov = ref[1][x];
        const float th = dis[0][x], tv = dis[1][x];
        const float dot = oh * th + ov * tv;
        const float o_sq = oh * oh + ov * ov;
        const float t_sq = th * th + tv * tv;
        const bool same_angle = dot >= 0.0f && dot * dot >= p->cos_1deg_sq * o_sq * t_sq;

        for (int b = 0; b < 3; b++) {
            const float ob = ref[b][x], tb = dis[b][x];
            const float d = ob + p->eps, e = reciprocal_estimate(p->recip, d);
            float k = tb * (e + e * (1.0f - d * e));
            k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
            float r = k * ob;
            if (same_angle && r > 0.0) {
                const double g = r * p->gain_limit;
                r = (float)(g < tb ? g : tb);
            }
            if (same_angle && r < 0.0) {
                const double g = r * p->gain_limit;
                r = (float)(g > tb ? g : tb);
            }
            restored[b][x] = r;
            additive[b][x] = tb - r;
        }
    }
}

FLOAT_ADM_CUBE_SUMS(vqx_float_adm_cube_sums_c)
{
    for (int b = 0; b < 3; b++) {
        float acc = 0;
        for (int j = 0; j < n; j++) {
            float v = fabsf(x[b][j] * weight[b]) - thr[j];
            v = v < 0.0f ? 0.0f : v;
            acc += v * v * v;
        }
        sum[b] = acc;
    }
}

void vqx_float_adm_dsp_init(FloatAdmDSPContext *c, unsigned cpu_flags)
{
    c->decouple_row = vqx_float_adm_decouple_row_c;
    c->cube_sums = vqx_float_adm_cube_sums_c;
#if VQX_ARCH_X86
    vqx_float_adm_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
