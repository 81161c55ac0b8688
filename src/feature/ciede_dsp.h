/*
 * ciede's DSP table (as PsnrHvsDSPContext, feature/psnr_hvs_dsp.h): the
 * CIEDE2000 difference of runs of CIELAB pairs as a pure function on
 * buffers, filled with the scalar C (ciede_dsp.c) and then overridden by
 * the SIMD versions the CPU flags allow (src/x86/). Every entry gives the
 * C's result bit for bit; tests/checkasm/ciede.c compares them, and
 * docs/ciede.md says why the SIMD may evaluate libm's functions itself.
 */
#ifndef VQX_FEATURE_CIEDE_DSP_H
#define VQX_FEATURE_CIEDE_DSP_H

#include <stddef.h>

typedef struct CiedeLab {
    float l, a, b;
} CiedeLab;

/* BT.709 limited-range YUV at bpc bits to CIELAB: the gains and offsets of
 * the depth (vqx_ciede_yuv_scale) and one pixel's conversion. */
typedef struct CiedeYuvScale {
    double luma_offset, chroma_offset, luma_gain, chroma_gain;
} CiedeYuvScale;

CiedeYuvScale vqx_ciede_yuv_scale(unsigned bpc);
CiedeLab vqx_ciede_to_lab(const CiedeYuvScale *s, unsigned y, unsigned u, unsigned v);

/* The CIEDE2000 difference from p to q, weights kL = 0.65, kC = 1, kH = 4
 * (libvmaf's): one pixel, the scalar C. */
float vqx_ciede_delta_e00(CiedeLab p, CiedeLab q);

/* de[i] = vqx_ciede_delta_e00(p[i], q[i]) for i < n. */
#define CIEDE_DELTA_E(name) void name(const CiedeLab *p, const CiedeLab *q, float *de, size_t n)

typedef CIEDE_DELTA_E((*CiedeDeltaEFn));

typedef struct CiedeDSPContext {
    CiedeDeltaEFn delta_e;
} CiedeDSPContext;

CIEDE_DELTA_E(vqx_ciede_delta_e);

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_ciede_dsp_init(CiedeDSPContext *c, unsigned cpu_flags);

#endif
