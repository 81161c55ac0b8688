/*
 * The SSIM machinery shared by float_ssim and float_ms_ssim: the 11-tap
 * Gaussian SSIM over the valid region of two planes, and the two decimators
 * (box filter for float_ssim's scale, 9/7 wavelet low-pass for the MS-SSIM
 * pyramid). Planes come in as floats from feature/float_picture.h.
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

/* Side of the Gaussian window: a plane needs at least this many rows and
 * columns to have one SSIM value. */
#define VQX_SSIM_WINDOW 11

/* Working rows for vqx_ssim_plane, sized for planes up to max_w wide. */
typedef struct VqxSsimScratch {
    unsigned max_w;
    float *products;   /* 3 rows of max_w: ref^2, cmp^2, ref*cmp */
    float *ring;       /* 5 quantities x VQX_SSIM_WINDOW rows of max_w - 10 */
    float *stats;      /* 5 rows of max_w - 10: the window statistics */
    double *acc;       /* one row of max_w - 10 */
} VqxSsimScratch;

int vqx_ssim_scratch_init(VqxSsimScratch *s, unsigned max_w);
void vqx_ssim_scratch_free(VqxSsimScratch *s);

/* Means over the valid region, as libvmaf rounds them (to float). */
typedef struct VqxSsimMeans {
    float ssim, l, c, s;
} VqxSsimMeans;

/* SSIM of two w x h float planes sharing a stride (in floats); w and h are
 * at least VQX_SSIM_WINDOW and w at most the scratch's max_w. */
void vqx_ssim_plane(VqxSsimScratch *s, const float *ref, const float *cmp,
                    ptrdiff_t stride, unsigned w, unsigned h, VqxSsimMeans *out);

/* Size of a plane after decimation by `factor`, as libvmaf's iqa computes
 * it: n / factor, plus one when n is odd. */
static inline unsigned vqx_ssim_decimated(unsigned n, unsigned factor)
{
    return n / factor + (n & 1);
}

/* float_ssim's downscaling: a factor x factor box filter (taps 1/factor^2,
 * mirrored borders) sampled every `factor` pixels. Strides in floats. */
void vqx_ssim_box_decimate(const float *src, ptrdiff_t src_stride, unsigned w, unsigned h,
                           unsigned factor, float *dst, ptrdiff_t dst_stride);

/* MS-SSIM's pyramid step: the 9x9 (9/7 biorthogonal) low-pass, mirrored
 * borders, every second pixel. Strides in floats. */
void vqx_ssim_lpf_decimate(const float *src, ptrdiff_t src_stride, unsigned w, unsigned h,
                           float *dst, ptrdiff_t dst_stride);

/* dB options of float_ssim and float_ms_ssim: the cap is the dB value of
 * an MSE of 0.5 / pixels at the picture's peak, INFINITY when not clipping. */
double vqx_ssim_max_db(unsigned bpc, unsigned w, unsigned h, int clip);
/* -10 log10(1 - score), capped as libvmaf's MIN does it (a NaN gives the
 * cap). */
double vqx_ssim_to_db(double score, double max_db);

#endif
