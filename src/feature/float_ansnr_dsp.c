/* Float ANSNR's DSP table: the scalar C of its stages and the dispatch. */
#include "feature/float_ansnr_dsp.h"
#include "feature/float_sample.h"

#if VQX_ARCH_X86
#include "x86/float_ansnr.h"
#endif

/* n as a constant once inlined (3 and 5 below), so that the compiler can
 * unroll the taps and run the columns in parallel. */
static inline __attribute__((always_inline)) void
filter_taps(const float *filter, const int n, const float *const rows[FLOAT_ANSNR_MAX_TAPS],
            int w, float *out)
{
    const int radius = n / 2;
    for (int x = 0; x < w; x++) out[x] = 0;
    for (int i = 0; i < n; i++) {
        const float *row = rows[i] - radius, *taps = filter + i * n;
        for (int x = 0; x < w; x++) out[x] += vqx_float_tap_sum(taps, row + x, n);
    }
}

FLOAT_ANSNR_FILTER_ROW(vqx_float_ansnr_filter_row_c)
{
    if (n == 5) filter_taps(filter, 5, rows, w, out);
    else if (n == 3) filter_taps(filter, 3, rows, w, out);
    else filter_taps(filter, n, rows, w, out);
}

FLOAT_ANSNR_ROW_ENERGIES(vqx_float_ansnr_row_energies_c)
{
    for (int r = 0; r < n; r++) {
        const float *rr = ref + r * stride, *rd = dis + r * stride;
        float row_signal = 0, row_noise = 0;
        for (int x = 0; x < w; x++) {
            row_signal += rr[x] * rr[x];
            row_noise += vqx_float_squared_error(rr[x], rd[x]);
        }
        signal[r] = row_signal;
        noise[r] = row_noise;
    }
}

void vqx_float_ansnr_dsp_init(FloatAnsnrDSPContext *c, unsigned cpu_flags)
{
    c->filter_row = vqx_float_ansnr_filter_row_c;
    c->row_energies = vqx_float_ansnr_row_energies_c;
#if VQX_ARCH_X86
    vqx_float_ansnr_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
