#include "bitdepth.h"
#include "feature/adm.h"

void BF(vqx_adm_row_to_int)(const void *src, int16_t *dst, int w, unsigned bpc)
{
    const pixel *p = src;
    const int32_t half = 1 << (bpc - 1);
    for (int j = 0; j < w; j++)
        dst[j] = (int16_t)(p[j] - half);
}
