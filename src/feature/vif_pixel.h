/*
 * One pixel's contribution to the integer VIF sums, shared by the CPU
 * reference (vif.c) and its CUDA twin (src/cuda/vif_kernels.cu): both run
 * these very statements, so the twin cannot drift from the reference. The
 * arithmetic (16.16 means squared in 64 bits, the Q11 log2 table, the
 * double gain and its truncations) is libvmaf's integer VIF.
 */
#ifndef VQX_FEATURE_VIF_PIXEL_H
#define VQX_FEATURE_VIF_PIXEL_H

#include <stdint.h>

#ifdef __CUDACC__
#define VIF_HOST_DEVICE __host__ __device__
#else
#define VIF_HOST_DEVICE
#endif

#ifdef __CUDA_ARCH__
#define VIF_CLZ32(x) __clz(x)
#define VIF_CLZ64(x) __clzll(x)
#else
#define VIF_CLZ32(x) __builtin_clz(x)
#define VIF_CLZ64(x) __builtin_clzll(x)
#endif

/* sigma_n^2 of the noise model, in the 16.16 scale of the variances */
#define VIF_SIGMA_NSQ (2 << 16)

/* Per-scale integer sums of the information ratio's terms. */
typedef struct VifSums {
    int64_t num_log, den_log;         /* log2 terms, 2048-scaled */
    int64_t num_non_log, den_non_log; /* below the noise floor */
} VifSums;

/* log2(x) in Q11 from the 2^15-entry table of log2 over [2^15, 2^16). */
static inline VIF_HOST_DEVICE int32_t vif_log2_q11_32(const uint16_t *table, uint32_t x)
{
    const int k = 16 - VIF_CLZ32(x);
    return table[x >> k] + 2048 * k;
}

static inline VIF_HOST_DEVICE int32_t vif_log2_q11_64(const uint16_t *table, uint64_t x)
{
    const int k = 48 - VIF_CLZ64(x);
    return table[x >> k] + 2048 * k;
}

/* One pixel's contribution, from the filtered means (16.16 of the 8-bit
 * range, squared below in 64 bits) and the filtered second moments. */
static inline VIF_HOST_DEVICE void vif_add_pixel(VifSums *sums, const uint16_t *log2_table,
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
        const double eps = 65536 * 1.0e-10;
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
