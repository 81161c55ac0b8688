/*
 * Integer ADM's per-sample statements, in libvmaf 3.2's integer_adm fixed
 * point, compiled by nvcc too: the scalar C (adm_dsp.c, adm.c) and the CUDA
 * kernels (src/cuda/adm_kernels.cu) run them. Where libvmaf's C wraps
 * around, these do the same with explicit modular arithmetic (unsigned sums
 * and products), so that no input is undefined behaviour. Borders are
 * hostdev.h's vqx_mirror_hybrid. Band b is h (0), v (1) or d (2).
 */
#ifndef VQX_FEATURE_ADM_PIXEL_H
#define VQX_FEATURE_ADM_PIXEL_H

#include <stdbool.h>
#include <stdint.h>

#include "feature/adm_taps.h"
#include "hostdev.h"

/* The initializers of the C's arrays and of the device's constant arrays
 * of the taps (the constants: adm_taps.h). */
#define ADM_DB2_LO { ADM_DB2_LO_VALUES }
#define ADM_DB2_HI { ADM_DB2_HI_VALUES }

/* ---- modular helpers: libvmaf's C relies on wrap-around ---- */

VQX_HOSTDEV static inline int32_t adm_wrap32(int64_t v)
{
    return (int32_t)(uint32_t)(uint64_t)v;
}

/* |v| modulo 2^32: INT32_MIN gives 2^31 */
VQX_HOSTDEV static inline uint32_t adm_abs_u32(int32_t v)
{
    return v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
}

VQX_HOSTDEV static inline int64_t adm_add64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

VQX_HOSTDEV static inline int64_t adm_round_half(unsigned shift)
{
    return shift ? (int64_t)1 << (shift - 1) : 0;
}

/* ---- DWT ---- */

/* Rounding of a level's vertical and horizontal passes. */
typedef struct AdmDwtRounding {
    int64_t v_add, h_add;
    unsigned v_shift, h_shift;
} AdmDwtRounding;

/* Level 0 shifts by bpc then 16, on samples centred by 2^(bpc-1): the same
 * sums as libvmaf's offset correction, without its 32-bit overflow at 16
 * bits. Computed on the host, for the C and for the device's launches. */
static inline AdmDwtRounding adm_dwt_rounding(int scale, unsigned bpc)
{
    static const AdmDwtRounding deeper[3] = {
        { 0, 16384, 0, 15 }, { 32768, 32768, 16, 16 }, { 32768, 16384, 16, 15 },
    };
    if (scale) return deeper[scale - 1];
    const AdmDwtRounding first = { (int64_t)1 << (bpc - 1), 32768, bpc, 16 };
    return first;
}

/* One output of a DWT pass: (the four taps on v + add) >> shift. Level 0
 * (16-bit rows) sums in 32 bits, libvmaf's width there; levels 1 to 3
 * (32-bit rows) in 64. */
#define ADM_DWT_OUTPUT(bits, acc_t) \
    VQX_HOSTDEV static inline acc_t adm_dwt_##bits(const int32_t *taps, const acc_t v[4], \
                                                   acc_t add, unsigned shift) \
    { \
        return (taps[0] * v[0] + taps[1] * v[1] + taps[2] * v[2] + taps[3] * v[3] + add) >> \
               shift; \
    }
ADM_DWT_OUTPUT(16, int32_t)
ADM_DWT_OUTPUT(32, int64_t)
#undef ADM_DWT_OUTPUT

/* ---- decoupling ---- */

/* 2^30 / i, and 0 for i = 0: the CPU reads these from a table
 * (AdmState.recip), the device divides. */
VQX_HOSTDEV static inline int32_t adm_reciprocal(uint32_t i)
{
    return i ? ADM_RECIP_Q30 / (int32_t)i : 0;
}

VQX_HOSTDEV static inline int32_t adm_reciprocal_of(const int32_t *table, uint32_t i)
{
#ifdef __CUDA_ARCH__
    (void)table;
    return adm_reciprocal(i);
#else
    return table[i];
#endif
}

/* k = clamp(t / o, 0, 1) in Q15, by the reciprocal after reducing |o| to 15
 * bits, as libvmaf's adm_decouple_s123 does (its level 0 variant gives the
 * same values on 16-bit bands). Signs and clamps are random here: the
 * conditions are written as selections, which compile without branches. */
VQX_HOSTDEV static inline int64_t adm_restore_gain(const int32_t *recip, int32_t o, int32_t t)
{
    const uint32_t mag = adm_abs_u32(o);
    /* |o| of 16 or more bits keeps its top 15 (rounded) and shifts k by the rest */
    const unsigned bits = 32 - (unsigned)vqx_clz32(mag | 1);
    const unsigned shift = bits > 15 ? bits - 15 : 0;
    const uint32_t idx = (mag + ((1u << shift) >> 1)) >> shift;
    const int64_t product = (int64_t)adm_reciprocal_of(recip, idx) * t;
    const int64_t quotient = o < 0 ? -product : product;
    /* libvmaf's rounding term is an int32: at shift 17 it is -2^31 */
    const int64_t k = (quotient + (int32_t)(1u << (14 + shift))) >> (15 + shift);
    const int64_t clamped = k < 0 ? 0 : k > 32768 ? 32768 : k;
    return o == 0 ? 32768 : clamped;
}

/* One position's h, v, d of the reference (o) and the distorted picture (t)
 * to the restored part r = k o and the additive part a = t - r; where
 * (oh, ov) and (th, tv) are within 1 degree (cos_1deg_sq: the float
 * cos^2(1 deg)) and k > 0, r is k o * gain_limit clamped to t (libvmaf
 * adm_decouple). */
VQX_HOSTDEV static inline void adm_decouple(const int32_t o[3], const int32_t t[3],
                                            const int32_t *recip, float cos_1deg_sq,
                                            double gain_limit, int32_t r[3], int32_t a[3])
{
    const int64_t oh = o[0], ov = o[1], th = t[0], tv = t[1];
    const int64_t dot = adm_add64(oh * th, ov * tv);
    const int64_t o_sq = adm_add64(oh * oh, ov * ov);
    const int64_t t_sq = adm_add64(th * th, tv * tv);
    const double dotf = (float)dot / 4096.0;
    const bool same_angle = (dotf >= 0.0f) &
        (dotf * dotf >= cos_1deg_sq * ((float)o_sq / 4096.0) * ((float)t_sq / 4096.0));
    for (int b = 0; b < 3; b++) {
        const int32_t ob = o[b], tb = t[b];
        const int64_t k = adm_restore_gain(recip, ob, tb);
        const int32_t restored = adm_wrap32((k * ob + 16384) >> 15);
        /* the enhancement credit, in double as libvmaf; |e| < 2^38 */
        const int64_t e = (int64_t)(restored * gain_limit);
        const int64_t enhanced = ob > 0 ? (e < tb ? e : tb) : (e > tb ? e : tb);
        const bool enhance = same_angle & (k > 0) & (ob != 0);
        const int32_t rb = enhance ? (int32_t)enhanced : restored;
        r[b] = rb;
        a[b] = adm_wrap32((int64_t)tb - rb);
    }
}

/* ---- masking ---- */

/* One position's masking terms: the sum over its h, v, d values x (weights
 * q) of what |q x| contributes to a neighbour's threshold (1/30, to *sum)
 * and to its own (1/15, to *centre), modulo 2^32. Level 0 rounds the
 * weighted h, v (Q21) and d (Q23) to Q6 as libvmaf does, levels 1 to 3
 * bring x to the masking's Q with a Q32 weight and a 28-bit shift. */
VQX_HOSTDEV static inline void adm_mask_terms_16(const uint32_t q[3], const int32_t x[3],
                                                 uint32_t *sum, uint32_t *centre)
{
    uint32_t s = 0, c = 0;
    for (int b = 0; b < 3; b++) {
        const unsigned shift = b == 2 ? 17 : 15;
        const int32_t add = b == 2 ? 65535 : 16384;
        const int32_t weighted =
            (int16_t)(adm_wrap32((int64_t)(q[b] * (uint32_t)x[b]) + add) >> shift);
        const int32_t m = weighted < 0 ? -weighted : weighted;
        s += (uint32_t)(int16_t)((VQX_ADM_ONE_BY_30_Q17 * m + 2048) >> 12);
        c += (uint32_t)(int16_t)((VQX_ADM_ONE_BY_15_Q17 * m + 2048) >> 12);
    }
    *sum = s;
    *centre = c;
}

/* Levels 1 to 3's weighing: x times a Q32 weight, to the masking's Q. */
VQX_HOSTDEV static inline int32_t adm_weigh_q32(int32_t x, uint32_t q)
{
    return adm_wrap32(((int64_t)q * x + (1 << 27)) >> 28);
}

VQX_HOSTDEV static inline void adm_mask_terms_32(const uint32_t q[3], const int32_t x[3],
                                                 uint32_t *sum, uint32_t *centre)
{
    uint32_t s = 0, c = 0;
    for (int b = 0; b < 3; b++) {
        const int64_t m = adm_abs_u32(adm_weigh_q32(x[b], q[b]));
        /* libvmaf's rounding term here is (int32_t)(1u << 31), i.e. -2^31 */
        s += (uint32_t)adm_wrap32((VQX_ADM_ONE_BY_30_Q32 * m + INT32_MIN) >> 32);
        c += (uint32_t)adm_wrap32((VQX_ADM_ONE_BY_15_Q32 * m + INT32_MIN) >> 32);
    }
    *sum = s;
    *centre = c;
}

/* The masking threshold of column j of rows[1]: the neighbour terms of the
 * 3x3 window (columns left, j and right of the rows above, at and below)
 * less the position's own plus its centre term, modulo 2^32: eight
 * neighbours at 1/30 and the centre at 1/15. */
VQX_HOSTDEV static inline uint32_t adm_threshold(const uint32_t *const rows[3], int left, int j,
                                                 int right, uint32_t centre)
{
    uint32_t box = 0;
    for (int k = 0; k < 3; k++) box += rows[k][left] + rows[k][j] + rows[k][right];
    return box - rows[1][j] + centre;
}

/* Fixed point of the masked energy of band b at level `scale`. Level 0: x
 * in Q27 (h, v) and Q29 (d) against a masking sum shifted up by 10 and 12
 * bits; levels 1 to 3: x brought to the masking's Q (adm_weigh_q32). */
VQX_HOSTDEV static inline unsigned adm_masked_thr_shift(int scale, int b)
{
    return scale ? 0 : b == 2 ? 12 : 10;
}

VQX_HOSTDEV static inline unsigned adm_masked_sq_shift(int scale, int b)
{
    return scale ? 30 : b == 2 ? 30 : 29;
}

/* Level 0's weighing: x times q modulo 2^32, without a shift. */
VQX_HOSTDEV static inline int32_t adm_weigh_level0(int32_t x, uint32_t q)
{
    return (int32_t)(q * (uint32_t)x);
}

/* The masked cube of one weighted value against its threshold: max(|weighted|
 * - (thr << thr_shift), 0)^3, the square rounded by sq_shift and cut to 32
 * bits (where libvmaf's wraps), the cube rounded by cube_shift. */
VQX_HOSTDEV static inline int64_t adm_masked_cube(int32_t weighted, uint32_t thr,
                                                  unsigned thr_shift, unsigned sq_shift,
                                                  unsigned cube_shift)
{
    const int32_t m = (int32_t)(adm_abs_u32(weighted) - (thr << thr_shift));
    const int64_t e = m < 0 ? 0 : m;
    const int32_t sq = adm_wrap32((e * e + adm_round_half(sq_shift)) >> sq_shift);
    return (sq * e + adm_round_half(cube_shift)) >> cube_shift;
}

/* ---- the reference's cubes ---- */

/* Level 0: the exact |x|^3 of the low 16 bits of |x|. */
VQX_HOSTDEV static inline uint64_t adm_reference_cube_16(int32_t x)
{
    const uint32_t m = (uint16_t)adm_abs_u32(x);
    return (uint64_t)(m * m) * m;
}

/* Levels 1 to 3: the square rounded by sq_shift (libvmaf adds 2^sq_shift,
 * not half of it; adm_reference_sq_shift), times |x|, rounded by
 * cube_shift. */
VQX_HOSTDEV static inline unsigned adm_reference_sq_shift(int scale)
{
    return scale == 2 ? 30 : 31;
}

VQX_HOSTDEV static inline uint64_t adm_reference_cube_32(int32_t x, unsigned sq_shift,
                                                         unsigned cube_shift)
{
    const uint64_t m = adm_abs_u32(x);
    return ((((m * m + ((uint64_t)1 << sq_shift)) >> sq_shift) * m) +
            (uint64_t)adm_round_half(cube_shift)) >> cube_shift;
}

/* A row's sums of cubes, rounded by the level's per-row shift before they
 * are added up. */
VQX_HOSTDEV static inline uint64_t adm_round_row_u64(uint64_t sum, unsigned shift)
{
    return (sum + (uint64_t)adm_round_half(shift)) >> shift;
}

VQX_HOSTDEV static inline int64_t adm_round_row(int64_t sum, unsigned shift)
{
    return (sum + adm_round_half(shift)) >> shift;
}

#endif
