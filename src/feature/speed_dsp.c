/* SpEED's DSP table: the scalar C of its entries and the dispatch. */
#include "feature/speed.h"
#include "feature/speed_dsp.h"

_Static_assert(SPEED_DSP_DIM == SPEED_DIM && SPEED_BLOCK == 5, "the 5x5 neighbourhood");

#if VQX_ARCH_X86
#include "x86/speed.h"
#endif

SPEED_DECIMATE_COLUMNS(vqx_speed_decimate_columns_c)
{
    for (unsigned s = 0; s < n_spans; s++)
        for (unsigned x = spans[s].first; x < spans[s].first + spans[s].count; x++)
            row[x] = 0;
    for (int t = 0; t < n_taps; t++) {
        const float *src = rows[t];
        const float ft = taps[t];
        for (unsigned s = 0; s < n_spans; s++) {
            const unsigned end = spans[s].first + spans[s].count;
            for (unsigned x = spans[s].first; x < end; x++)
                row[x] += ft * src[x];
        }
    }
}

SPEED_COVARIANCE_SUMS(vqx_speed_covariance_sums_c)
{
    /* Every pair's sum runs over the positions in raster order, as
     * libvmaf's per-pair loops do; the pairs advance together. */
    for (int p = 0; p < SPEED_PAIRS; p++) sums[p] = 0;
    double c[SPEED_DSP_DIM];
    for (unsigned i = 0; i < cov_h; i++) {
        for (unsigned j = 0; j < cov_w; j++) {
            const float *p = dec + i * dec_stride + j;
            for (int o = 0; o < SPEED_DSP_DIM; o++)
                c[o] = (double)p[(o / 5) * dec_stride + o % 5] - (double)mean[o];
            double *a = sums;
            for (int x = 0; x < SPEED_DSP_DIM; x++) {
                const double cx = c[x];
                for (int y = 0; y <= x; y++)
                    a[y] += cx * c[y];
                a += x + 1;
            }
        }
    }
}

/* Every entry is speed_product_entry's sum (speed_linalg.h), here advanced
 * a row of b at a time so that the inner loop runs along rows (the device
 * takes one entry a thread). */
SPEED_MATRIX_PRODUCT(vqx_speed_matrix_product_c)
{
    for (int i = 0; i < SPEED_DSP_DIM; i++) {
        float *o = out + (size_t)i * cols;
        for (unsigned j = 0; j < cols; j++)
            o[j] = 0.0f;
        for (int k = 0; k < SPEED_DSP_DIM; k++) {
            const float aik = a[i * SPEED_DSP_DIM + k];
            const float *bk = b + (size_t)k * cols;
            for (unsigned j = 0; j < cols; j++)
                o[j] += aik * bk[j];
        }
    }
}

SPEED_DIFFERENCE(vqx_speed_difference_c)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            out[y * stride + x] = a[y * stride + x] - b[y * stride + x];
}

void vqx_speed_dsp_init(SpeedDSPContext *c, unsigned cpu_flags)
{
    c->decimate_columns = vqx_speed_decimate_columns_c;
    c->covariance_sums = vqx_speed_covariance_sums_c;
    c->matrix_product = vqx_speed_matrix_product_c;
    c->difference = vqx_speed_difference_c;
#if VQX_ARCH_X86
    vqx_speed_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
