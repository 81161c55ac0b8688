/*
 * The SSIM machinery shared by float_ssim and float_ms_ssim: the 11-tap
 * Gaussian SSIM over the valid region of two planes, through the DSP table
 * (feature/ssim_dsp.h, which also has the two decimators: box filter for
 * float_ssim's scale, 9/7 wavelet low-pass for the MS-SSIM pyramid). Planes
 * come in as floats from feature/float_picture.h.
 *
 * All arithmetic follows libvmaf's scalar iqa code operation for operation
 * (float products summed in double, float rounding of every stored
 * intermediate), so results are equal double for double; the loops are
 * reorganised as row passes over a ring of filtered rows, so no full-frame
 * intermediate planes are needed and nothing is allocated per frame.
 */
#ifndef VQX_FEATURE_SSIM_CORE_H
#define VQX_FEATURE_SSIM_CORE_H

#include <stddef.h>

#include "feature/ssim_dsp.h"

/* Working rows for vqx_ssim_plane, sized for planes up to max_w wide, and
 * the DSP table every stage goes through. */
typedef struct VqxSsimScratch {
    unsigned max_w;
    float *products;   /* 3 rows of max_w: ref^2, cmp^2, ref*cmp */
    float *ring;       /* 5 quantities x VQX_SSIM_WINDOW rows of max_w - 10 */
    float *stats;      /* 5 rows of max_w - 10: the window statistics */
    SsimDSPContext dsp;
} VqxSsimScratch;

/* cpu_flags: as vqx_ssim_dsp_init's. */
int vqx_ssim_scratch_init(VqxSsimScratch *s, unsigned max_w, unsigned cpu_flags);
void vqx_ssim_scratch_free(VqxSsimScratch *s);

/* Means over the valid region, as libvmaf rounds them (to float). */
typedef struct VqxSsimMeans {
    float ssim, l, c, s;
} VqxSsimMeans;

/* SSIM of two w x h float planes sharing a stride (in floats); w and h are
 * at least VQX_SSIM_WINDOW and w at most the scratch's max_w. */
void vqx_ssim_plane(VqxSsimScratch *s, const float *ref, const float *cmp,
                    ptrdiff_t stride, unsigned w, unsigned h, VqxSsimMeans *out);

/* The means of a w x h plane's valid region from its running sums
 * (VQX_SSIM_SUM_SSIM ..., each added in raster order of the positions). */
void vqx_ssim_means(const double sums[VQX_SSIM_N_SUMS], unsigned w, unsigned h,
                    VqxSsimMeans *out);

/* dB options of float_ssim and float_ms_ssim: the cap is the dB value of
 * an MSE of 0.5 / pixels at the picture's peak, INFINITY when not clipping. */
double vqx_ssim_max_db(unsigned bpc, unsigned w, unsigned h, int clip);
/* -10 log10(1 - score), capped as libvmaf's MIN does it (a NaN gives the
 * cap). */
double vqx_ssim_to_db(double score, double max_db);

#endif
