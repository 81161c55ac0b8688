/* Integer ADM's reading of picture rows, per bit depth: the C entries
 * row_to_int_8 and row_to_int_16 of AdmDSPContext. */
#include "bitdepth.h"
#include "feature/adm_dsp.h"

ADM_ROW_TO_INT(BF(vqx_adm_row_to_int))
{
    const pixel *p = src;
    const int32_t half = 1 << (bpc - 1);
    for (int j = 0; j < w; j++)
        dst[j] = (int16_t)(p[j] - half);
}
