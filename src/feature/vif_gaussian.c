#include <math.h>
#include <stddef.h>

#include "feature/vif_gaussian.h"

#define PI 3.14159265358979323846 /* M_PI, which strict C11 does not declare */

/* Kernel scales libvmaf accepts, from libvmaf src/feature/vif_tools.h
 * (Netflix, BSD+Patent): its float values, sorted. */
const double vqx_vif_kernelscales[] = {
    1.0f / 2.25f, 1.0f / 2.0f, 2.0f / 3.0f, 0.711111f, 0.740740f, 1.0f, 1.06667f, 1.111111f,
    3.5f / 3.0f, 3.75f / 3.0f, 4.0f / 3.0f, 4.25f / 3.0f, 1.4746f, 3.0f / 2.0f, 1.54f, 1.6f,
    5.0f / 3.0f, 2.0f, 24.0f / 10.0f, 3.0f, 360.0f / 97.0f,
};
_Static_assert(sizeof(vqx_vif_kernelscales) / sizeof(vqx_vif_kernelscales[0]) ==
               VQX_VIF_N_KERNELSCALES, "VQX_VIF_N_KERNELSCALES");

unsigned vqx_vif_filter_size(unsigned scale, float kernelscale)
{
    const int base = (1 << (4 - scale)) + 1;
    int size = (int)ceil(base * kernelscale);
    if (size % 2 == 0) size++;
    return size > 3 ? (unsigned)size : 3;
}

/* Each tap is exp(-x^2 / 2 stdev^2) in double, stored as a float, divided
 * by the float 1 / (stdev sqrt(2 pi)), as libvmaf evaluates it. */
void vqx_vif_gaussian(float *out, unsigned size, float stdev)
{
    const int k = (int)(size - 1) / 2;
    const float norm = (float)(1 / (stdev * sqrt(2 * PI)));
    float sum = 0;
    for (unsigned i = 0; i < size; i++) {
        const float x = (float)((int)i - k);
        const float e = (float)exp(-0.5 * x / stdev * x / stdev);
        out[i] = e / norm;
        sum += out[i];
    }
    for (unsigned i = 0; i < size; i++)
        out[i] /= sum;
}
