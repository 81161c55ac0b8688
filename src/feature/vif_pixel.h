/*
 * Integer VIF's per-sample statements, shared by the CPU reference (vif.c,
 * vif_tmpl.c, vif_dsp.c) and its CUDA twin (src/cuda/vif_kernels.cu): the
 * filters' taps and terms, the roundings that end each pass, and one
 * pixel's contribution to the sums. Both run these very statements, so the
 * twin cannot drift from the reference. The arithmetic (16.16 means squared
 * in 64 bits, the Q11 log2 table, the double gain and its truncations) is
 * libvmaf's integer VIF. Borders mirror without repeating the edge sample
 * (hostdev.h's vqx_reflect101).
 */
#ifndef VQX_FEATURE_VIF_PIXEL_H
#define VQX_FEATURE_VIF_PIXEL_H

#include <stdint.h>

#include "feature/vif_taps.h"
#include "hostdev.h"

/* Filter taps per scale (vif_taps.h): the initializers of the C's arrays
 * and of the device's constant table. */
#define VIF_TAPS_SCALE0 { VIF_TAP_VALUES_SCALE0 }
#define VIF_TAPS_SCALE1 { VIF_TAP_VALUES_SCALE1 }
#define VIF_TAPS_SCALE2 { VIF_TAP_VALUES_SCALE2 }
#define VIF_TAPS_SCALE3 { VIF_TAP_VALUES_SCALE3 }

/* A filter's terms: tap c times a sample or a 16-bit mean x (32 bits), and
 * times a second moment x (64 bits: the horizontal pass's). */
VQX_HOSTDEV static inline uint32_t vif_tap(uint32_t c, uint32_t x)
{
    return c * x;
}

VQX_HOSTDEV static inline uint64_t vif_tap_64(uint32_t c, uint32_t x)
{
    return (uint64_t)c * x;
}

/* The vertical pass's second-moment term, c (x y) (equal to libvmaf's
 * (c x) y in integers), and its rounding to 32 bits. 8-bit samples at
 * scale 0 sum in 32 bits, exact there (65536 * 255^2 < 2^32); the others in
 * 64. */
#define VIF_MOMENT_STATEMENTS(bits, sum_t) \
    VQX_HOSTDEV static inline sum_t vif_product_tap_##bits(uint32_t c, uint32_t x, uint32_t y) \
    { \
        return (sum_t)c * (x * y); \
    } \
    VQX_HOSTDEV static inline uint32_t vif_round_moment_##bits(sum_t sum, sum_t round, \
                                                               unsigned shift) \
    { \
        return (uint32_t)((sum + round) >> shift); \
    }
VIF_MOMENT_STATEMENTS(32, uint32_t)
VIF_MOMENT_STATEMENTS(64, uint64_t)
#undef VIF_MOMENT_STATEMENTS

/* A vertical pass's sum of taps times samples rounded to a 16-bit mean. */
VQX_HOSTDEV static inline uint32_t vif_round_mean(uint32_t sum, uint32_t round, unsigned shift)
{
    return (uint16_t)((sum + round) >> shift);
}

/* One output of the horizontal low-pass before decimation: the n taps on
 * the 16-bit means v[0..n), rounded to a 16-bit mean; the CPU holds the
 * means in 32-bit words, the device in 16-bit ones. */
#define VIF_DECIMATED(name, mean_t) \
    VQX_HOSTDEV static inline uint16_t name(const uint16_t *taps, unsigned n, const mean_t *v) \
    { \
        uint32_t sum = 0; \
        for (unsigned k = 0; k < n; k++) sum += vif_tap(taps[k], v[k]); \
        return (uint16_t)((sum + 32768) >> 16); \
    }
VIF_DECIMATED(vif_decimated, uint32_t)
VIF_DECIMATED(vif_decimated_16, uint16_t)
#undef VIF_DECIMATED

/* Per-scale integer sums of the information ratio's terms. */
typedef struct VifSums {
    int64_t num_log, den_log;         /* log2 terms, 2048-scaled */
    int64_t num_non_log, den_non_log; /* below the noise floor */
} VifSums;

/* log2(x) in Q11 from the 2^15-entry table of log2 over [2^15, 2^16). */
VQX_HOSTDEV static inline int32_t vif_log2_q11_32(const uint16_t *table, uint32_t x)
{
    const int k = 16 - vqx_clz32(x);
    return table[x >> k] + 2048 * k;
}

VQX_HOSTDEV static inline int32_t vif_log2_q11_64(const uint16_t *table, uint64_t x)
{
    const int k = 48 - vqx_clz64(x);
    return table[x >> k] + 2048 * k;
}

/* One pixel's contribution, from the filtered means (16.16 of the 8-bit
 * range, squared below in 64 bits) and the filtered second moments. */
VQX_HOSTDEV static inline void vif_add_pixel(VifSums *sums, const uint16_t *log2_table,
                                                 double gain_limit, uint32_t mu1, uint32_t mu2,
                                                 uint64_t ref_sq_sum, uint64_t dis_sq_sum,
                                                 uint64_t ref_dis_sum)
{
    const uint32_t mu1_sq = (uint32_t)(((uint64_t)mu1 * mu1 + 2147483648u) >> 32);
    const uint32_t mu2_sq = (uint32_t)(((uint64_t)mu2 * mu2 + 2147483648u) >> 32);
    const uint32_t mu1_mu2 = (uint32_t)(((uint64_t)mu1 * mu2 + 2147483648u) >> 32);
    const uint32_t xx = (uint32_t)((ref_sq_sum + 32768) >> 16);
    const uint32_t yy = (uint32_t)((dis_sq_sum + 32768) >> 16);
    const uint32_t xy = (uint32_t)((ref_dis_sum + 32768) >> 16);

    const int32_t sigma1_sq = (int32_t)(xx - mu1_sq);
    int32_t sigma2_sq = (int32_t)(yy - mu2_sq);
    const int32_t sigma12 = (int32_t)(xy - mu1_mu2);
    if (sigma2_sq < 0) sigma2_sq = 0;

    if (sigma1_sq < VIF_SIGMA_NSQ) {
        sums->num_non_log += sigma2_sq;
        sums->den_non_log++;
        return;
    }
    /* log2(1 + sigma1^2 / sigma_n^2) = log2(sigma_n^2 + sigma1^2) - 17 */
    sums->den_log += vif_log2_q11_32(log2_table, (uint32_t)(VIF_SIGMA_NSQ + sigma1_sq)) - 2048 * 17;
    if (sigma12 > 0 && sigma2_sq > 0) {
        /* log2((sv^2 + sigma_n^2 + g^2 sigma1^2) / (sv^2 + sigma_n^2)); the
         * double arithmetic and truncations are libvmaf's (built without
         * contraction on both sides: no fused multiply-add). */
        const double eps = VIF_EPS;
        double g = sigma12 / (sigma1_sq + eps);
        int32_t sv_sq = (int32_t)(sigma2_sq - g * sigma12);
        if (sv_sq < 0) sv_sq = 0;
        if (!(g < gain_limit)) g = gain_limit;
        const uint32_t noise = (uint32_t)(sv_sq + VIF_SIGMA_NSQ);
        const int64_t total = (int64_t)(g * g * sigma1_sq) + noise;
        sums->num_log += vif_log2_q11_64(log2_table, (uint64_t)total) -
                         vif_log2_q11_64(log2_table, noise);
    }
}

#endif
