#include "bitdepth.h"
#include "feature/adm.h"

void BF(vqx_adm_row_to_int)(const void *src, int16_t *dst, int w, unsigned bpc)
{
    const pixel *p = src;
    const int32_t half = 1 << (bpc - 1);
    for (int j = 0; j < w; j++)
        dst[j] = (int16_t)(p[j] - half);
}

void BF(vqx_adm_row_to_float)(const void *src, float *dst, int w, unsigned bpc)
{
    const pixel *p = src;
    /* division by a power of two is exact, so the product equals libvmaf's
     * quotient */
    const float unit = 1.0f / (float)(1u << (bpc - 8));
    for (int j = 0; j < w; j++)
        dst[j] = (float)p[j] * unit + -128.0f;
}
