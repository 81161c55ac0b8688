/* Float VIF's DSP table: the scalar C of its stages and the dispatch. */
#include "feature/float_vif_dsp.h"
#include "feature/float_vif_pixel.h"

#if VQX_ARCH_X86
#include "x86/float_vif.h"
#endif

FLOAT_VIF_FILTER_COLUMNS(vqx_float_vif_filter_columns_c)
{
    for (int j = 0; j < w; j++) {
        float sum = 0.0f + f[0] * rows[0][j];
        for (int k = 1; k < width; k++) sum += f[k] * rows[k][j];
        out[j] = sum;
    }
}

FLOAT_VIF_MOMENT_COLUMNS(vqx_float_vif_moment_columns_c)
{
    for (int j = 0; j < w; j++) {
        float acc[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
        for (int k = 0; k < width; k++) vqx_float_vif_moment_tap(f[k], ref[k][j], dis[k][j], acc);
        mu1[j] = acc[0];
        mu2[j] = acc[1];
        xx[j] = acc[2];
        yy[j] = acc[3];
        xy[j] = acc[4];
    }
}

FLOAT_VIF_FILTER_ROW(vqx_float_vif_filter_row_c)
{
    const int half = width / 2;
    for (int j = 0; j < w; j++) {
        const float *in_j = in + j - half;
        float sum = 0.0f;
        for (int k = 0; k < width; k++) sum += f[k] * in_j[k];
        out[j] = sum;
    }
}

FLOAT_VIF_PIXEL_STATS(vqx_float_vif_pixel_stats_c)
{
    for (int j = 0; j < w; j++)
        vqx_float_vif_pixel_stat(st, mu1[j], mu2[j], xx[j], yy[j], xy[j], &num[j], &den[j]);
}

void vqx_float_vif_dsp_init(FloatVifDSPContext *c, unsigned cpu_flags)
{
    c->filter_columns = vqx_float_vif_filter_columns_c;
    c->moment_columns = vqx_float_vif_moment_columns_c;
    c->filter_row = vqx_float_vif_filter_row_c;
    c->pixel_stats = vqx_float_vif_pixel_stats_c;
#if VQX_ARCH_X86
    vqx_float_vif_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
