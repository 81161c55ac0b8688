/*
 * feature/resample.c's resampler on the device, shared by the twins that
 * resample float planes (float_vif's vif_prescale, SpEED's speed_prescale):
 * the axis tables of a VqxResampler uploaded once, and one kernel that makes
 * each output sample with resample.c's arithmetic.
 */
#ifndef VQX_CUDA_RESAMPLE_KERNELS_H
#define VQX_CUDA_RESAMPLE_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqxCudaResampler {
    int method;                      /* enum VqxResampleMethod; its taps are the kernel's */
    unsigned dst_w, dst_h;
    const int *row_index, *col_index; /* on the device, as VqxResampler's axes */
    const float *row_weight, *col_weight;
} VqxCudaResampler;

/* `planes` planes of src (plane p at src + p * src_plane, rows of src_pitch
 * floats) -> dst (dst_w x dst_h each, at dst + p * dst_plane, rows of
 * dst_pitch floats). */
int vqx_cuda_resample(const VqxCudaResampler *r, const float *src, size_t src_pitch,
                      size_t src_plane, float *dst, size_t dst_pitch, size_t dst_plane,
                      unsigned planes, void *stream);

#ifdef __cplusplus
}
#endif

#endif
