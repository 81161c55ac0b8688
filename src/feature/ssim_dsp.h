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

/* Side of the Gaussian window: a plane needs at least this many rows and
 * columns to have one SSIM value. */
#define VQX_SSIM_WINDOW 11

/* Half width of MS-SSIM's 9x9 low-pass. */
#define VQX_SSIM_LPF_RADIUS 4

/* Separable taps of the Gaussian window. */
extern const float vqx_ssim_gauss[VQX_SSIM_WINDOW];
/* Quadrant of the 9x9 low-pass: tap (u, v) = vqx_ssim_lpf[|v|][|u|]. */
extern const float vqx_ssim_lpf[VQX_SSIM_LPF_RADIUS + 1][VQX_SSIM_LPF_RADIUS + 1];
/* SSIM's stabilising constants C1, C2, C3 (as floats). */
extern const float vqx_ssim_c1, vqx_ssim_c2, vqx_ssim_c3;

/* The window statistics of one position, in the order score() takes them. */
enum { VQX_SSIM_MU_REF, VQX_SSIM_MU_CMP, VQX_SSIM_SQ_REF, VQX_SSIM_SQ_CMP, VQX_SSIM_CROSS,
       VQX_SSIM_N_STATS };
/* The running sums of score(). */
enum { VQX_SSIM_SUM_SSIM, VQX_SSIM_SUM_L, VQX_SSIM_SUM_C, VQX_SSIM_SUM_S, VQX_SSIM_N_SUMS };

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

/* Index of a position outside [0, n) mirrored back, edge sample repeated:
 * -1 -> 0, n -> n - 1 (the iqa "symmetric" border). */
static inline int vqx_ssim_mirror(int i, int n)
{
    if (i < 0) return -1 - i;
    if (i >= n) return 2 * n - 1 - i;
    return i;
}

/* The box's reach around its sample: rows and columns lo .. hi (libvmaf's
 * centring at factor / 2: for even factors one less after the sample). */
static inline int vqx_ssim_box_lo(unsigned factor)
{
    return -(int)(factor / 2);
}
static inline int vqx_ssim_box_hi(unsigned factor)
{
    return (int)(factor / 2) - !(factor & 1);
}

/* The source row of vertical tap v (0 .. factor - 1) of output row y of a
 * plane h rows high. */
static inline unsigned vqx_ssim_box_row(unsigned y, unsigned v, unsigned factor, unsigned h)
{
    return (unsigned)vqx_ssim_mirror((int)(y * factor) + vqx_ssim_box_lo(factor) + (int)v, (int)h);
}

/* The scalar C entries. */
SSIM_FILTER(vqx_ssim_filter_c);
SSIM_SCORE(vqx_ssim_score_c);
SSIM_BOX_ROW(vqx_ssim_box_row_c);
SSIM_LPF_DECIMATE(vqx_ssim_lpf_decimate_c);

/* Output x of the box row, for the SIMD entries' borders. */
float vqx_ssim_box_sample(const float *const *rows, unsigned w, unsigned factor, unsigned x);
/* The 9 source rows of low-pass output row y (mirrored at the plane's
 * ends), and output x of that row from them. */
void vqx_ssim_lpf_rows(const float *src, ptrdiff_t src_stride, unsigned h, unsigned y,
                       const float *rows[2 * VQX_SSIM_LPF_RADIUS + 1]);
float vqx_ssim_lpf_sample(const float *const rows[2 * VQX_SSIM_LPF_RADIUS + 1], unsigned w,
                          unsigned x);

#endif
