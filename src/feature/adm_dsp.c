/* Integer ADM's DSP table: the scalar C of its stages, and the dispatch. */
#include <stdbool.h>

#include "feature/adm_dsp.h"

#if VQX_ARCH_X86
#include "x86/adm.h"
#endif

/* ---- DWT ---- */

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

/* ---- modular helpers: libvmaf's C relies on wrap-around ---- */

static inline int32_t wrap32(int64_t v)
{
    return (int32_t)(uint32_t)(uint64_t)v;
}

/* |v| modulo 2^32: INT32_MIN gives 2^31 */
static inline uint32_t abs_u32(int32_t v)
{
    return v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
}

static inline int64_t add64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t round_half(unsigned shift)
{
    return shift ? (int64_t)1 << (shift - 1) : 0;
}

/* ---- decoupling ---- */

/* k = clamp(t / o, 0, 1) in Q15, by reciprocal lookup after reducing |o| to
 * 15 bits, as libvmaf's adm_decouple_s123 does (its level 0 variant gives
 * the same values on 16-bit bands). Signs and clamps are random here: the
 * conditions are written as selections, which compile without branches. */
static int64_t restore_gain(const int32_t *recip, int32_t o, int32_t t)
{
    const uint32_t mag = abs_u32(o);
    /* |o| of 16 or more bits keeps its top 15 (rounded) and shifts k by the rest */
    const unsigned bits = 32 - (unsigned)__builtin_clz(mag | 1);
    const unsigned shift = bits > 15 ? bits - 15 : 0;
    const uint32_t idx = (mag + ((1u << shift) >> 1)) >> shift;
    const int64_t product = (int64_t)recip[idx] * t;
    const int64_t quotient = o < 0 ? -product : product;
    /* libvmaf's rounding term is an int32: at shift 17 it is -2^31 */
    const int64_t k = (quotient + (int32_t)(1u << (14 + shift))) >> (15 + shift);
    const int64_t clamped = k < 0 ? 0 : k > 32768 ? 32768 : k;
    return o == 0 ? 32768 : clamped;
}

ADM_DECOUPLE(vqx_adm_decouple_c)
{
    for (int j = 0; j < w; j++) {
        /* the angle between (oh, ov) and (th, tv) is below 1 degree */
        const int64_t oh = o[0][j], ov = o[1][j], th = t[0][j], tv = t[1][j];
        const int64_t dot = add64(oh * th, ov * tv);
        const int64_t o_sq = add64(oh * oh, ov * ov);
        const int64_t t_sq = add64(th * th, tv * tv);
        const double dotf = (float)dot / 4096.0;
        const bool same_angle = (dotf >= 0.0f) &
            (dotf * dotf >= cos_1deg_sq * ((float)o_sq / 4096.0) * ((float)t_sq / 4096.0));
        for (int b = 0; b < 3; b++) {
            const int32_t ob = o[b][j], tb = t[b][j];
            const int64_t k = restore_gain(recip, ob, tb);
            const int32_t restored = wrap32((k * ob + 16384) >> 15);
            /* the enhancement credit, in double as libvmaf; |e| < 2^38 */
            const int64_t e = (int64_t)(restored * gain_limit);
            const int64_t enhanced = ob > 0 ? (e < tb ? e : tb) : (e > tb ? e : tb);
            const bool enhance = same_angle & (k > 0) & (ob != 0);
            const int32_t rb = enhance ? (int32_t)enhanced : restored;
            r[b][j] = rb;
            a[b][j] = wrap32((int64_t)tb - rb);
        }
    }
}

/* ---- masking ---- */

ADM_MASK_TERMS_16(vqx_adm_mask_terms_16_c)
{
    /* libvmaf's rounding of the weighted h, v (Q21 to Q6) and d (Q23 to Q6) */
    static const unsigned shift[3] = { 15, 15, 17 };
    static const int32_t add[3] = { 16384, 16384, 65535 };
    for (int j = 0; j < w; j++) {
        uint32_t s = 0, c = 0;
        for (int b = 0; b < 3; b++) {
            const int32_t weighted =
                (int16_t)(wrap32((int64_t)(q[b] * (uint32_t)x[b][j]) + add[b]) >> shift[b]);
            const int32_t m = weighted < 0 ? -weighted : weighted;
            s += (uint32_t)(int16_t)((VQX_ADM_ONE_BY_30_Q17 * m + 2048) >> 12);
            c += (uint32_t)(int16_t)((VQX_ADM_ONE_BY_15_Q17 * m + 2048) >> 12);
        }
        sum[j] = s;
        centre[j] = c;
    }
}

/* Levels 1 to 3: a Q32 weight brings x to the masking's Q with a 28-bit
 * shift. */
static inline int32_t weigh_q32(int32_t x, uint32_t q)
{
    return wrap32(((int64_t)q * x + (1 << 27)) >> 28);
}

ADM_MASK_TERMS_32(vqx_adm_mask_terms_32_c)
{
    for (int j = 0; j < w; j++) {
        uint32_t s = 0, c = 0;
        for (int b = 0; b < 3; b++) {
            const int64_t m = abs_u32(weigh_q32(x[b][j], q[b]));
            /* libvmaf's rounding term here is (int32_t)(1u << 31), i.e. -2^31 */
            s += (uint32_t)wrap32((VQX_ADM_ONE_BY_30_Q32 * m + INT32_MIN) >> 32);
            c += (uint32_t)wrap32((VQX_ADM_ONE_BY_15_Q32 * m + INT32_MIN) >> 32);
        }
        sum[j] = s;
        centre[j] = c;
    }
}

ADM_MASK_THRESHOLD(vqx_adm_mask_threshold_c)
{
    /* eight neighbours at 1/30 and the centre at 1/15 */
    for (int j = 0; j < w; j++) {
        uint32_t box = 0;
        for (int k = 0; k < 3; k++) box += sum[k][j - 1] + sum[k][j] + sum[k][j + 1];
        thr[j] = box - sum[1][j] + centre[j];
    }
}

/* The masked cube of one weighted value against its threshold. */
static inline int64_t masked_cube(int32_t weighted, uint32_t thr, unsigned thr_shift,
                                  unsigned sq_shift, unsigned cube_shift)
{
    const int32_t m = (int32_t)(abs_u32(weighted) - (thr << thr_shift));
    const int64_t e = m < 0 ? 0 : m;
    /* the square wraps at 32 bits in libvmaf */
    const int32_t sq = wrap32((e * e + round_half(sq_shift)) >> sq_shift);
    return (sq * e + round_half(cube_shift)) >> cube_shift;
}

ADM_MASKED_CUBES_16(vqx_adm_masked_cubes_16_c)
{
    int64_t sum = 0;
    for (int j = 0; j < w; j++) {
        /* level 0 weights without a shift: the product modulo 2^32 */
        const int32_t weighted = (int32_t)(q * (uint32_t)x[j]);
        sum = add64(sum, masked_cube(weighted, thr[j], thr_shift, sq_shift, cube_shift));
    }
    return sum;
}

ADM_MASKED_CUBES_32(vqx_adm_masked_cubes_32_c)
{
    int64_t sum = 0;
    for (int j = 0; j < w; j++)
        sum = add64(sum, masked_cube(weigh_q32(x[j], q), thr[j], thr_shift, sq_shift,
                                     cube_shift));
    return sum;
}

ADM_REFERENCE_CUBES_16(vqx_adm_reference_cubes_16_c)
{
    uint64_t sum = 0;
    for (int j = 0; j < w; j++) {
        const uint32_t m = (uint16_t)abs_u32(x[j]);
        sum += (uint64_t)(m * m) * m;
    }
    return sum;
}

ADM_REFERENCE_CUBES_32(vqx_adm_reference_cubes_32_c)
{
    const uint64_t cube_add = (uint64_t)round_half(cube_shift);
    uint64_t sum = 0;
    for (int j = 0; j < w; j++) {
        const uint64_t m = abs_u32(x[j]);
        sum += ((((m * m + ((uint64_t)1 << sq_shift)) >> sq_shift) * m) + cube_add) >> cube_shift;
    }
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
