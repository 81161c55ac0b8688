/*
 * PSNR's DSP table (as MotionDSPContext): a row's sum of squared
 * differences, filled with the scalar C (psnr_tmpl.c per bit depth) and then
 * overridden by the SIMD versions the CPU flags allow (src/x86/). Every
 * entry gives the C's exact integer sum; tests/checkasm/psnr.c compares them.
 */
#ifndef VQX_FEATURE_PSNR_DSP_H
#define VQX_FEATURE_PSNR_DSP_H

#include <stdint.h>

/* The sum over x < w of (ref[x] - dis[x])^2, w <= 2^16 samples. */
#define PSNR_ROW_SSE(name) uint64_t name(const void *ref, const void *dis, unsigned w)

typedef PSNR_ROW_SSE((*PsnrRowSseFn));

typedef struct PsnrDSPContext {
    PsnrRowSseFn row_sse;
} PsnrDSPContext;

/* The table for samples of `bpc` bits, with the SIMD entries that
 * `cpu_flags` (cpu.h, already masked) allow; 0: the scalar C alone. */
void vqx_psnr_dsp_init(PsnrDSPContext *c, unsigned bpc, unsigned cpu_flags);

#endif
