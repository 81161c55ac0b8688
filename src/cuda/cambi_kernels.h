/*
 * Launchers of CAMBI's kernels (cambi_kernels.cu), callable from C. Each
 * enqueues on `stream` (a cudaStream_t) and returns the launch's CUDA
 * status. Images are 10-bit uint16 planes and masks uint8 planes, w x h
 * with rows packed (pitch w); input planes have a pitch in samples.
 */
#ifndef VQX_CUDA_CAMBI_KERNELS_H
#define VQX_CUDA_CAMBI_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "feature/cambi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the contrast values depend on besides the picture (CambiState's
 * constants of the same names; pad: the window's half side). */
typedef struct VqxCudaCambiContrast {
    unsigned n_steps, band_lo, band_size, vlt, pad;
    unsigned tvi[CAMBI_MAX_STEPS];
    int weight[CAMBI_MAX_STEPS];
    const float *reciprocal;        /* device copy of CambiState.reciprocal */
} VqxCudaCambiContrast;

/* vqx_cambi_load_10bit into out (w x h) through the device maps rows and
 * cols; smooth: then vqx_cambi_smooth_2x2. */
int vqx_cuda_cambi_load(const void *plane, size_t pitch, unsigned bpc, const unsigned *rows,
                        const unsigned *cols, unsigned w, unsigned h, int smooth,
                        uint16_t *out, void *stream);

/* vqx_cambi_spatial_mask of img. */
int vqx_cuda_cambi_mask(const uint16_t *img, unsigned w, unsigned h, unsigned threshold,
                        uint8_t *mask, void *stream);

/* One scale's picture: img (in_w x in_h), halved when `halve` (then the
 * mask too, into out_mask, and the halved image into `halved` when not
 * NULL: the kernel checks), then vqx_cambi_mode_filter into out. */
int vqx_cuda_cambi_scale(const uint16_t *img, const uint8_t *mask, unsigned in_w,
                         unsigned in_h, int halve, uint16_t *out, uint8_t *out_mask,
                         uint16_t *halved, void *stream);

/* Columns per block of the contrast kernel for such a band and window, and
 * the kernel's shared memory allowed accordingly: a query, call it before
 * capturing; 0 (and *status) when the device refuses. */
unsigned vqx_cuda_cambi_contrast_columns(unsigned band_size, unsigned pad, int *status);

/* vqx_cambi_contrast_values of img and mask (w x h) into contrast; heat:
 * NULL, or the heatmap, vqx_cambi_heat(heat_gain, value) of each. */
int vqx_cuda_cambi_contrast(const VqxCudaCambiContrast *p, const uint16_t *img,
                            const uint8_t *mask, unsigned w, unsigned h, unsigned columns,
                            float *contrast, double heat_gain, uint16_t *heat, void *stream);

#ifdef __cplusplus
}
#endif

#endif
