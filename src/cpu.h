/*
 * CPU features for the SIMD paths, as libvmaf's cpumask bits: a set bit in
 * a mask disables that instruction set (libvmaf's --cpumask), so a mask of
 * 63 leaves the scalar C alone.
 */
#ifndef VQX_CPU_H
#define VQX_CPU_H

enum VqxCpuFlag {
    VQX_CPU_SSE2 = 1 << 0,
    VQX_CPU_SSSE3 = 1 << 1,
    VQX_CPU_SSE41 = 1 << 2,
    VQX_CPU_AVX2 = 1 << 3,      /* AVX2, BMI1, BMI2, and the OS saves YMM */
    VQX_CPU_AVX512 = 1 << 4,    /* AVX-512 F, CD, BW, DQ, VL, and the OS saves ZMM */
    VQX_CPU_AVX512ICL = 1 << 5, /* + VNNI, IFMA, VBMI, VBMI2, BITALG, VPOPCNTDQ,
                                 * GFNI, VAES, VPCLMULQDQ (Ice Lake, Zen 4) */
};

/* The ISAs this CPU and its OS support (0 on builds without SIMD kernels),
 * less the bits of `mask`. Each flag is tested on its own, as in libvmaf:
 * mask 8 keeps AVX-512 and disables AVX2. */
unsigned vqx_cpu_flags(unsigned mask);

#endif
