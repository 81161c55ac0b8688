/*
 * libvmaf's frame resampler (vif_tools.c, vif_scale_frame_s), shared by
 * float_vif's vif_prescale, SpEED's speed_prescale and float_motion's
 * motion_add_scale1 halving: nearest, bilinear, bicubic (a = -0.75) and
 * lanczos4 (divided by the sum of its weights), borders mirrored. Source
 * positions and weights depend only on the sizes, so each axis's are
 * computed once, with libvmaf's float and double steps; each output sums
 * libvmaf's terms in libvmaf's order, so results are equal float for float.
 */
#ifndef VQX_FEATURE_RESAMPLE_H
#define VQX_FEATURE_RESAMPLE_H

#include <stddef.h>

enum VqxResampleMethod {
    VQX_RESAMPLE_NEAREST,
    VQX_RESAMPLE_BILINEAR,
    VQX_RESAMPLE_BICUBIC,
    VQX_RESAMPLE_LANCZOS4,
};

/* libvmaf's method names, in enum order, NULL-terminated (option choices). */
extern const char *const vqx_resample_names[];

/* The method of a name from vqx_resample_names (nearest for any other). */
enum VqxResampleMethod vqx_resample_method(const char *name);

/* For each output position along one axis, `taps` source indices and
 * their weights. */
typedef struct VqxResampleAxis {
    int *index;
    float *weight;
} VqxResampleAxis;

typedef struct VqxResampler {
    enum VqxResampleMethod method;
    unsigned taps;              /* per axis: 1, 2, 4 or 9 */
    unsigned dst_w, dst_h;
    VqxResampleAxis rows, cols;
} VqxResampler;

/* Tables for src_w x src_h -> dst_w x dst_h; -ENOMEM. A zeroed resampler
 * may be freed. */
int vqx_resampler_init(VqxResampler *r, enum VqxResampleMethod method,
                       unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h);
void vqx_resampler_free(VqxResampler *r);

/* src (src_w x src_h) -> dst (dst_w x dst_h), strides in floats. For equal
 * sizes libvmaf copies instead of resampling: callers then skip this. */
void vqx_resample(const VqxResampler *r, const float *src, ptrdiff_t src_stride,
                  float *dst, ptrdiff_t dst_stride);

#endif
