/*
 * Mean of the largest values of an array, as libvmaf's CAMBI pools each
 * scale: quick_select (Hoare partitioning around the k-th element) moves the
 * k largest values to the front, and they are summed in double in the order
 * it leaves them. That order is part of the result: once the partial sums
 * pass 2^28, double additions round, so a device twin must reproduce the
 * same reordering and summation (src/cuda/top_mean_kernels.cu).
 */
#ifndef VQX_FEATURE_TOP_MEAN_H
#define VQX_FEATURE_TOP_MEAN_H

/* How many of n values the mean takes: fraction * n, at least 1, at most n. */
int vqx_top_count(int n, double fraction);

/* Reorders v so that its first k values are the k largest, exactly as
 * libvmaf's quick_select leaves them (1 <= k <= n). */
void vqx_select_largest(float *v, int n, int k);

/* Mean of the vqx_top_count(n, fraction) largest of v (reordered). */
double vqx_mean_of_top(float *v, int n, double fraction);

#endif
