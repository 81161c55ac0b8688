#include "cpu.h"

#if VQX_ARCH_X86
#include <cpuid.h>
#include <stdint.h>

/* XCR0 without -mxsave: which register states the OS saves on a switch. */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

static unsigned detect(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    unsigned flags = 0;
    if (d & bit_SSE2) flags |= VQX_CPU_SSE2;
    if (c & bit_SSSE3) flags |= VQX_CPU_SSSE3;
    if (c & bit_SSE4_1) flags |= VQX_CPU_SSE41;
    /* YMM (and ZMM) state needs AVX and OSXSAVE, then XCR0's bits. */
    if (!(c & bit_AVX) || !(c & bit_OSXSAVE)) return flags;
    const uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return flags; /* XMM, YMM */
    unsigned max = __get_cpuid_max(0, 0);
    if (max < 7) return flags;
    __cpuid_count(7, 0, a, b, c, d);
    if ((b & (bit_AVX2 | bit_BMI | bit_BMI2)) == (bit_AVX2 | bit_BMI | bit_BMI2))
        flags |= VQX_CPU_AVX2;
    if ((xcr0 & 0xe6) != 0xe6) return flags; /* + opmask, ZMM_Hi256, Hi16_ZMM */
    const unsigned avx512 = bit_AVX512F | bit_AVX512CD | bit_AVX512BW | bit_AVX512DQ |
                            bit_AVX512VL;
    if ((b & avx512) != avx512) return flags;
    flags |= VQX_CPU_AVX512;
    const unsigned icl_b = bit_AVX512IFMA;
    const unsigned icl_c = bit_AVX512VBMI | bit_AVX512VBMI2 | bit_AVX512VNNI |
                           bit_AVX512BITALG | bit_AVX512VPOPCNTDQ | bit_GFNI | bit_VAES |
                           bit_VPCLMULQDQ;
    if ((b & icl_b) == icl_b && (c & icl_c) == icl_c) flags |= VQX_CPU_AVX512ICL;
    return flags;
}
#else
static unsigned detect(void)
{
    return 0;
}
#endif

unsigned vqx_cpu_flags(unsigned mask)
{
    /* CPUID is cheap next to an extractor's init; no cache, no global state. */
    return detect() & ~mask;
}
