/*
 * The Gaussian filters of libvmaf's vif_tools.c, shared by float_vif and
 * SpEED: which kernel scales libvmaf accepts, the filter size of a dyadic
 * scale, and the normalised kernel, in libvmaf's float and double steps.
 */
#ifndef VQX_FEATURE_VIF_GAUSSIAN_H
#define VQX_FEATURE_VIF_GAUSSIAN_H

/* libvmaf's valid kernel scales, for the option tables: a value is valid
 * within VQX_VIF_KERNELSCALE_TOLERANCE of one, compared in float. */
#define VQX_VIF_N_KERNELSCALES 21
#define VQX_VIF_KERNELSCALE_TOLERANCE 1e-3
extern const double vqx_vif_kernelscales[];

/* Taps of the filter of dyadic scale `scale` (0..4): (2^(4 - scale) + 1)
 * times the kernel scale, rounded up to odd, at least 3. */
unsigned vqx_vif_filter_size(unsigned scale, float kernelscale);

/* `size` (odd) taps of the Gaussian of deviation `stdev` at the integers
 * around 0, divided by their float sum. */
void vqx_vif_gaussian(float *out, unsigned size, float stdev);

#endif
