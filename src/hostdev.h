/*
 * VQX_HOSTDEV marks the inline functions that hold per-sample statements
 * run by both the CPU extractors and their device kernels: nvcc compiles
 * them for both sides, the C compiler as plain inlines.
 */
#ifndef VQX_HOSTDEV_H
#define VQX_HOSTDEV_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define VQX_HOSTDEV __host__ __device__
#else
#define VQX_HOSTDEV
#endif

/* A float's bits and back, on either side. */
VQX_HOSTDEV static inline uint32_t vqx_bits_of_float(float x)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return bits;
#endif
}

VQX_HOSTDEV static inline float vqx_float_of_bits(uint32_t bits)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(bits);
#else
    float x;
    memcpy(&x, &bits, sizeof(x));
    return x;
#endif
}

/* Leading zero bits of a nonzero word, on either side. */
VQX_HOSTDEV static inline int vqx_clz32(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return __clz((int)x);
#else
    return __builtin_clz(x);
#endif
}

VQX_HOSTDEV static inline int vqx_clz64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}

/* Borders, by libvmaf's two rules: index i of [0, n) mirrored without
 * repeating the edge at both ends (reflect-101: -1 -> 1, n -> n - 2; VIF,
 * float_vif, float_motion), and ADM's hybrid, which repeats the far edge
 * (-1 -> 1, n -> n - 1; ADM, float_adm, float_ansnr). */
VQX_HOSTDEV static inline int vqx_reflect101(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

VQX_HOSTDEV static inline int vqx_mirror_hybrid(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

#endif
