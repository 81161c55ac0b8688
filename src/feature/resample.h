/*
 * libvmaf's frame resampler (vif_tools.c, vif_scale_frame_s), shared by
 * float_vif's vif_prescale, SpEED's speed_prescale and float_motion's
 * motion_add_scale1 halving: nearest, bilinear, bicubic (a = -0.75) and
 * lanczos4 (divided by the sum of its weights), borders mirrored. Source
 * positions and weights depend only on the sizes, so each axis's are
 * computed once, with libvmaf's float and double steps; each output sums
 * libvmaf's terms in libvmaf's order, so results are equal float for float.
 *
 * An output row is a DSP table entry per method (as FloatMotionDSPContext):
 * the scalar C (resample.c) overridden by the SIMD entries the CPU flags
 * allow (src/x86/), each giving the C's floats bit for bit
 * (tests/checkasm/resample.c); the resampler keeps its method's entry.
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

/* Taps per axis of a method. */
#define VQX_RESAMPLE_MAX_TAPS 9

/* Output row out[x], x in [0, dst_w), from the method's source rows
 * rows[ty] (ty < taps) with their weights wy[ty], and the column axis's
 * cols->index / cols->weight [x * taps + tx]:
 *   nearest   rows[0][index[x]]
 *   bilinear  wy[0] wx[0] r0[i0] + wy[0] wx[1] r0[i1] + wy[1] wx[0] r1[i0]
 *             + wy[1] wx[1] r1[i1], in this order (products left to right)
 *   bicubic   the sum over ty, then tx, of rows[ty][index] * (wx[tx] * wy[ty])
 *   lanczos4  the same sum divided by the sum of the (wx[tx] * wy[ty]) */
#define RESAMPLE_ROW(name) \
    void name(const float *const rows[VQX_RESAMPLE_MAX_TAPS], const float *wy, \
              const VqxResampleAxis *cols, unsigned dst_w, float *out)

typedef RESAMPLE_ROW((*ResampleRowFn));

typedef struct ResampleDSPContext {
    ResampleRowFn row[4]; /* by enum VqxResampleMethod */
} ResampleDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_resample_dsp_init(ResampleDSPContext *c, unsigned cpu_flags);

RESAMPLE_ROW(vqx_resample_row_nearest_c);
RESAMPLE_ROW(vqx_resample_row_bilinear_c);
RESAMPLE_ROW(vqx_resample_row_bicubic_c);
RESAMPLE_ROW(vqx_resample_row_lanczos4_c);

typedef struct VqxResampler {
    enum VqxResampleMethod method;
    unsigned taps;              /* per axis: 1, 2, 4 or 9 */
    unsigned dst_w, dst_h;
    VqxResampleAxis rows, cols;
    ResampleRowFn row;          /* the method's entry of the DSP table */
} VqxResampler;

/* Tables for src_w x src_h -> dst_w x dst_h, with the row entry that
 * `cpu_flags` (VqxFrameFormat.cpu_flags; 0: the C) allow; -ENOMEM. A
 * zeroed resampler may be freed. */
int vqx_resampler_init(VqxResampler *r, enum VqxResampleMethod method,
                       unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h,
                       unsigned cpu_flags);
void vqx_resampler_free(VqxResampler *r);

/* src (src_w x src_h) -> dst (dst_w x dst_h), strides in floats. For equal
 * sizes libvmaf copies instead of resampling: callers then skip this. */
void vqx_resample(const VqxResampler *r, const float *src, ptrdiff_t src_stride,
                  float *dst, ptrdiff_t dst_stride);

#endif
