/* SpEED's x86 entries (speed_avx2.c, speed_avx512.c, each built with its
 * own -m flags) and where they replace the C. */
#ifndef VQX_X86_SPEED_H
#define VQX_X86_SPEED_H

#include "cpu.h"
#include "feature/speed_dsp.h"

SPEED_DECIMATE_COLUMNS(vqx_speed_decimate_columns_avx2);
SPEED_COVARIANCE_SUMS(vqx_speed_covariance_sums_avx2);
SPEED_MATRIX_PRODUCT(vqx_speed_matrix_product_avx2);
SPEED_DIFFERENCE(vqx_speed_difference_avx2);
SPEED_DECIMATE_COLUMNS(vqx_speed_decimate_columns_avx512);
SPEED_COVARIANCE_SUMS(vqx_speed_covariance_sums_avx512);
SPEED_MATRIX_PRODUCT(vqx_speed_matrix_product_avx512);
SPEED_DIFFERENCE(vqx_speed_difference_avx512);

static inline void vqx_speed_dsp_init_x86(SpeedDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->decimate_columns = vqx_speed_decimate_columns_avx2;
        c->covariance_sums = vqx_speed_covariance_sums_avx2;
        c->matrix_product = vqx_speed_matrix_product_avx2;
        c->difference = vqx_speed_difference_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->decimate_columns = vqx_speed_decimate_columns_avx512;
        c->covariance_sums = vqx_speed_covariance_sums_avx512;
        c->matrix_product = vqx_speed_matrix_product_avx512;
        c->difference = vqx_speed_difference_avx512;
    }
}

#endif
