/*
 * psnr_hvs's DSP table (as MotionDSPContext, feature/motion_dsp.h): the
 * per-block work of a row of blocks and the plane's float sum as pure
 * functions on buffers, filled with the scalar C (psnr_hvs_dsp.c) and then
 * overridden by the SIMD versions the CPU flags allow (src/x86/). Every
 * entry gives the C's result bit for bit; tests/checkasm/psnr_hvs.c
 * compares them.
 */
#ifndef VQX_FEATURE_PSNR_HVS_DSP_H
#define VQX_FEATURE_PSNR_HVS_DSP_H

#include <stddef.h>

#define PSNR_HVS_BLOCK 8
/* blocks start every 7th row and column, overlapping by one */
#define PSNR_HVS_STEP 7
#define PSNR_HVS_TERMS (PSNR_HVS_BLOCK * PSNR_HVS_BLOCK)
/* Deepest input whose DCT fits 32-bit arithmetic (tests/psnr_hvs_bounds.py). */
#define PSNR_HVS_NARROW_MAX_BPC 12

/* The terms of n >= 1 block pairs side by side: block b's top-left samples
 * are ref and dis advanced by 7 b samples (bytes at 8 bits, else 16-bit
 * words). For each block, its 64 masked CSF-weighted squared DCT errors
 * into terms[64 b ..], in the order psnr_hvs sums them (coefficient (i, j)
 * at 8 i + j). weight_t and mask_t: the plane's CSF and masking weights in
 * the DCT's transposed layout (psnr_hvs.c). */
#define PSNR_HVS_BLOCK_TERMS(name) \
    void name(const void *ref, ptrdiff_t ref_stride, const void *dis, ptrdiff_t dis_stride, \
              unsigned n, unsigned bpc, const float *weight_t, const float *mask_t, \
              float *terms)
/* total + terms[0] + ... + terms[n - 1], one float addition at a time, in
 * this order. */
#define PSNR_HVS_ACCUMULATE(name) float name(float total, const float *terms, size_t n)

typedef PSNR_HVS_BLOCK_TERMS((*PsnrHvsBlockTermsFn));
typedef PSNR_HVS_ACCUMULATE((*PsnrHvsAccumulateFn));

typedef struct PsnrHvsDSPContext {
    PsnrHvsBlockTermsFn block_terms;
    PsnrHvsAccumulateFn accumulate;
} PsnrHvsDSPContext;

PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms);
PSNR_HVS_ACCUMULATE(vqx_psnr_hvs_accumulate);

/* The table for pictures of `bpc` bits, with the SIMD entries that
 * `cpu_flags` (cpu.h, already masked) allow; 0: the scalar C alone. */
void vqx_psnr_hvs_dsp_init(PsnrHvsDSPContext *c, unsigned bpc, unsigned cpu_flags);

#endif
