/*
 * Integer VIF's stages in AVX-512 (F, BW, VL, DQ): 32 columns a step (16
 * for the information terms and the decimation), by vif_simd.h on the
 * helpers of vif_avx512_isa.h; here, log2_poly's exhaustive check.
 */
#define NAME(f) f##_avx512
#include "x86/vif_avx512_isa.h"
#include "x86/vif_simd.h"

bool vqx_vif_log2_poly_exact_avx512(void)
{
    int32_t e[LANES];
    for (int j = 0; j < 32768; j += LANES) {
        VSTORE(e, log2_poly(_mm512_add_epi32(_mm512_set1_epi32(j),
                                             _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                                               10, 11, 12, 13, 14, 15))));
        for (int i = 0; i < LANES; i++)
            if (e[i] != vif_log2_entry(32768 + (unsigned)(j + i))) return false;
    }
    return true;
}
