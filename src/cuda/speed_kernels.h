/*
 * Launchers of SpEED's CUDA kernels (speed_chroma and speed_temporal),
 * callable from C. A job describes up to four planes of one geometry that
 * go through the chain together (blockIdx.z or blockIdx.y is the plane):
 *   load        raw samples -> floats (vqx_float_convert's sample * inv_scale
 *               + offset), or the difference of two such conversions
 *   prescale    cuda/resample_kernels.h's resampler (when geo.rescale)
 *   decimate    vqx_speed_decimate
 *   demean      vqx_speed_demean (into `demeaned`, the input kept)
 *   covariance  vqx_speed_covariance
 *   factorise   vqx_speed_eigenvalues (the tridiagonalisation over a warp,
 *               the QR iteration in one thread) and the Householder QR of
 *               vqx_speed_householder_qr (one thread per element)
 *   solve       per block: Q b, the back substitution and the variance, and
 *               each plane's result record
 * Each stage reads the buffers the previous one writes, so the kernel
 * checks can start any stage from the CPU's input. Each launcher returns
 * the launch's CUDA status (0: none).
 */
#ifndef VQX_CUDA_SPEED_KERNELS_H
#define VQX_CUDA_SPEED_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "cuda/resample_kernels.h"
#include "device/speed_record.h"
#include "feature/speed.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQX_CUDA_SPEED_PLANES 4

/* Filters of the plan (kernel arguments, passed by value). */
typedef struct VqxCudaSpeedFilters {
    float antialias[SPEED_MAX_TAPS];
    float local_mean[SPEED_MAX_TAPS];
    int antialias_len, local_mean_len;
} VqxCudaSpeedFilters;

typedef struct VqxCudaSpeedJob {
    unsigned planes;                 /* 1..VQX_CUDA_SPEED_PLANES */
    SpeedGeometry geo;
    VqxCudaSpeedFilters filters;

    /* load: plane p = convert(minuend[p]) - convert(subtrahend[p]), or
     * convert(minuend[p]) when subtrahend[p] is NULL */
    const void *minuend[VQX_CUDA_SPEED_PLANES], *subtrahend[VQX_CUDA_SPEED_PLANES];
    size_t pitch[VQX_CUDA_SPEED_PLANES]; /* samples per row */
    unsigned bpc;
    float inv_scale, offset;

    VqxCudaResampler prescale;       /* when geo.rescale */

    /* buffers, one plane after another */
    float *image;                    /* geo.in_h rows of image_pitch */
    size_t image_pitch;
    float *scaled;                   /* geo.scaled_h rows of scaled_pitch */
    size_t scaled_pitch;
    float *dec, *demeaned;           /* geo.dec_h rows of geo.dec_w */
    float *cov, *q, *r;              /* SPEED_DIM^2 */
    float *eig;                      /* SPEED_DIM */

    void *result;                    /* the planes' records (device/speed_record.h) */
    size_t record_bytes;
} VqxCudaSpeedJob;

int vqx_cuda_speed_load(const VqxCudaSpeedJob *job, void *stream);
int vqx_cuda_speed_prescale(const VqxCudaSpeedJob *job, void *stream);
int vqx_cuda_speed_decimate(const VqxCudaSpeedJob *job, void *stream);
int vqx_cuda_speed_demean(const VqxCudaSpeedJob *job, void *stream);
int vqx_cuda_speed_covariance(const VqxCudaSpeedJob *job, void *stream);
int vqx_cuda_speed_factorise(const VqxCudaSpeedJob *job, void *stream);
int vqx_cuda_speed_solve(const VqxCudaSpeedJob *job, void *stream);
/* Every stage in order. */
int vqx_cuda_speed_chain(const VqxCudaSpeedJob *job, void *stream);

#ifdef __cplusplus
}
#endif

#endif
