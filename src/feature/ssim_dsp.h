/*
 * The DSP table of float_ssim and float_ms_ssim (as MotionDSPContext,
 * feature/motion_dsp.h): the per-pixel stages of ssim_core as pure functions
 * on float buffers and strides, filled with the scalar C (ssim_dsp.c, the
 * definition) and then overridden by the SIMD versions the CPU flags allow
 * (src/x86/). Every entry gives the C's floats and doubles bit for bit;
 * tests/checkasm/ssim.c compares them.
 */
#ifndef VQX_FEATURE_SSIM_DSP_H
#define VQX_FEATURE_SSIM_DSP_H

#include <stddef.h>

#include "feature/ssim_pixel.h"

/* The CPU's tables of the Gaussian's and the low-pass's taps (the SIMD
 * entries load them), from ssim_pixel.h's lists. */
extern const float vqx_ssim_gauss[VQX_SSIM_WINDOW];
extern const float vqx_ssim_lpf[VQX_SSIM_LPF_RADIUS + 1][VQX_SSIM_LPF_RADIUS + 1];
/* SSIM's stabilising constants C1, C2, C3 (as floats). */
extern const float vqx_ssim_c1, vqx_ssim_c2, vqx_ssim_c3;

/* One Gaussian pass over n outputs: out[x] = the sum over k of
 * (double)(rows[k][x] * tap[k]) in k order from 0.0, rounded to float. The
 * horizontal pass gives rows[k] = row + k, the vertical one eleven rows. */
#define SSIM_FILTER(name) \
    void name(const float *const rows[VQX_SSIM_WINDOW], unsigned n, float *out)
/* SSIM terms (ssim = l c s, l, c, s) of n positions from their statistics
 * st[q][x], each added to sums[] position after position. */
#define SSIM_SCORE(name) \
    void name(const float *const st[VQX_SSIM_N_STATS], unsigned n, double sums[VQX_SSIM_N_SUMS])
/* One output row of float_ssim's downscaling: a factor x factor box filter
 * (taps 1/factor^2, mirrored borders) sampled every `factor` pixels. rows[v]
 * is the source row at vertical tap v (vqx_ssim_box_row), w samples wide;
 * out gets vqx_ssim_decimated(w, factor) samples. */
#define SSIM_BOX_ROW(name) \
    void name(const float *const *rows, unsigned w, unsigned factor, float *out)
/* MS-SSIM's pyramid step: the 9x9 low-pass, mirrored borders, every second
 * pixel (w, h >= 5). Strides in floats. */
#define SSIM_LPF_DECIMATE(name) \
    void name(const float *src, ptrdiff_t src_stride, unsigned w, unsigned h, float *dst, \
              ptrdiff_t dst_stride)

typedef SSIM_FILTER((*SsimFilterFn));
typedef SSIM_SCORE((*SsimScoreFn));
typedef SSIM_BOX_ROW((*SsimBoxRowFn));
typedef SSIM_LPF_DECIMATE((*SsimLpfDecimateFn));

typedef struct SsimDSPContext {
    SsimFilterFn filter;
    SsimScoreFn score;
    SsimBoxRowFn box_row;
    SsimLpfDecimateFn lpf_decimate;
} SsimDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_ssim_dsp_init(SsimDSPContext *c, unsigned cpu_flags);

/* Size of a plane after decimation by `factor`, as libvmaf's iqa computes
 * it: n / factor, plus one when n is odd. */
static inline unsigned vqx_ssim_decimated(unsigned n, unsigned factor)
{
    return n / factor + (n & 1);
}

/* The scalar C entries. */
SSIM_FILTER(vqx_ssim_filter_c);
SSIM_SCORE(vqx_ssim_score_c);
SSIM_BOX_ROW(vqx_ssim_box_row_c);
SSIM_LPF_DECIMATE(vqx_ssim_lpf_decimate_c);

#endif
