/* SSIMULACRA 2's DSP table: the scalar C of its stages and the dispatch. */
#include <math.h>

#include "feature/ssimulacra2_dsp.h"
#include "feature/ssimulacra2_pixel.h"

#if VQX_ARCH_X86
#include "x86/ssimulacra2.h"
#endif

/* libjxl's CreateRecursiveGaussian (tools/gauss_blur.cc) for sigma 1.5, in
 * its double steps (equation numbers of Charalampidis 2016), rounded to
 * float where libjxl stores floats. */
void vqx_ssimu2_gauss_init(Ssimu2Gauss *g)
{
    const double sigma = 1.5, pi = 3.141592653589793238;
    const double radius = round(3.2795 * sigma + 0.2546); /* (57) */
    const double pi_div_2r = pi / (2.0 * radius);
    const double omega[3] = { pi_div_2r, 3.0 * pi_div_2r, 5.0 * pi_div_2r };
    const double p1 = +1.0 / tan(0.5 * omega[0]); /* (37) */
    const double p3 = -1.0 / tan(0.5 * omega[1]);
    const double p5 = +1.0 / tan(0.5 * omega[2]);
    const double r1 = +p1 * p1 / sin(omega[0]); /* (44) */
    const double r3 = -p3 * p3 / sin(omega[1]);
    const double r5 = +p5 * p5 / sin(omega[2]);
    const double neg_half_sigma2 = -0.5 * sigma * sigma, recip_radius = 1.0 / radius;
    double rho[3]; /* (50) */
    for (int i = 0; i < 3; i++) rho[i] = exp(neg_half_sigma2 * omega[i] * omega[i]) * recip_radius;
    const double d13 = p1 * r3 - r1 * p3, d35 = p3 * r5 - r3 * p5, d51 = p5 * r1 - r5 * p1;
    const double recip_d13 = 1.0 / d13;
    const double zeta15 = d35 * recip_d13, zeta35 = d51 * recip_d13; /* (52) */

    /* beta = A^-1 gamma (53), A's inverse by cofactors as libjxl's
     * Inv3x3Matrix (lib/jxl/base/matrix_ops.h). */
    const double a[3][3] = { { p1, p3, p5 }, { r1, r3, r5 }, { zeta15, zeta35, 1.0 } };
    double inv[3][3];
    inv[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    inv[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    inv[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    inv[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    inv[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    inv[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    inv[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    inv[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    inv[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    const double det = a[0][0] * inv[0][0] + a[0][1] * inv[1][0] + a[0][2] * inv[2][0];
    const double idet = 1.0 / det;
    const double gamma[3] = { 1.0, radius * radius - sigma * sigma, /* (55) */
                              zeta15 * rho[0] + zeta35 * rho[1] + rho[2] };
    double beta[3];
    for (int y = 0; y < 3; y++) {
        double e = 0;
        for (int x = 0; x < 3; x++) e += inv[y][x] * idet * gamma[x];
        beta[y] = e;
    }

    g->radius = (int)radius;
    for (int i = 0; i < 3; i++) {
        const double n2 = -beta[i] * cos(omega[i] * (radius + 1.0)); /* (33) */
        const double d1 = -2.0 * cos(omega[i]);
        const double d_2 = d1 * d1;
        g->n2[i] = (float)n2;
        g->d1[i] = (float)d1;
        /* (35) expanded over four consecutive outputs (libjxl's sympy). */
        g->mul_prev[i][0] = (float)-d1;
        g->mul_prev[i][1] = (float)(d_2 - 1.0);
        g->mul_prev[i][2] = (float)(-d_2 * d1 + 2.0 * d1);
        g->mul_prev[i][3] = (float)(d_2 * d_2 - 3.0 * d_2 + 1.0);
        g->mul_prev2[i][0] = -1.0f;
        g->mul_prev2[i][1] = (float)d1;
        g->mul_prev2[i][2] = (float)(-d_2 + 1.0);
        g->mul_prev2[i][3] = (float)(d_2 * d1 - 2.0 * d1);
        g->mul_in[i][0] = (float)n2;
        g->mul_in[i][1] = (float)(-d1 * n2);
        g->mul_in[i][2] = (float)(d_2 * n2 - n2);
        g->mul_in[i][3] = (float)(-d_2 * d1 * n2 + 2.0 * d1 * n2);
    }
}

float vqx_ssimu2_neg_bias_cbrt(void)
{
    return -cbrtf(SSIMU2_OPSIN_BIAS);
}

SSIMU2_XYB_ROW(vqx_ssimu2_xyb_row_c)
{
    const float neg_bias_cbrt = vqx_ssimu2_neg_bias_cbrt();
    for (int i = 0; i < n; i++) {
        float v[3];
        ssimu2_xyb(r[i], g[i], b[i], neg_bias_cbrt, v);
        x[i] = v[0];
        y[i] = v[1];
        bo[i] = v[2];
    }
}

SSIMU2_MULTIPLY_ROW(vqx_ssimu2_multiply_row_c)
{
    for (int i = 0; i < n; i++) out[i] = a[i] * b[i];
}

SSIMU2_DOWNSAMPLE(vqx_ssimu2_downsample_c)
{
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    for (int oy = 0; oy < oh; oy++) {
        float *dst = out + oy * stride;
        /* Each output is read in full before it is written (out may be in). */
        for (int ox = 0; ox < ow; ox++) dst[ox] = ssimu2_downsample_at(in, stride, w, h, ox, oy);
    }
}

SSIMU2_BLUR_H(vqx_ssimu2_blur_h_c)
{
    for (int y = 0; y < h; y++) ssimu2_blur_h_row(g, in + y * stride, out + y * stride, w);
}

/* Columns in strips, so that each row of the strip is read once per step. */
enum { STRIP = 64 };

SSIMU2_BLUR_V(vqx_ssimu2_blur_v_c)
{
    const int radius = g->radius;
    for (int x0 = 0; x0 < w; x0 += STRIP) {
        const int sw = w - x0 < STRIP ? w - x0 : STRIP;
        float y1[STRIP][3] = { { 0 } }, y2[STRIP][3] = { { 0 } };
        for (int n = -radius + 1; n < h; n++) {
            const int top = n - radius - 1, bottom = n + radius - 1;
            const float *in_top = top >= 0 ? in + top * stride + x0 : NULL;
            const float *in_bottom = bottom < h ? in + bottom * stride + x0 : NULL;
            float *dst = n >= 0 ? out + n * stride + x0 : NULL;
            for (int x = 0; x < sw; x++) {
                const float sum = ssimu2_blur_v_sum(in_top ? in_top + x : NULL,
                                                    in_bottom ? in_bottom + x : NULL);
                const float v = ssimu2_blur_v_step(g, sum, y1[x], y2[x]);
                if (dst) dst[x] = v;
            }
        }
    }
}

SSIMU2_SSIM_SUMS(vqx_ssimu2_ssim_sums_c)
{
    for (int y = 0; y < h; y++) {
        const ptrdiff_t o = y * stride;
        for (int x = 0; x < w; x++) {
            const double d = ssimu2_ssim_error(mu1[o + x], mu2[o + x], s11[o + x], s22[o + x],
                                               s12[o + x]);
            sums[0] += d;
            sums[1] += ssimu2_quartic(d);
        }
    }
}

SSIMU2_EDGE_SUMS(vqx_ssimu2_edge_sums_c)
{
    for (int y = 0; y < h; y++) {
        const ptrdiff_t o = y * stride;
        for (int x = 0; x < w; x++) {
            ssimu2_edge_add(ssimu2_edge_diff(img1[o + x], mu1[o + x], img2[o + x], mu2[o + x]),
                            sums);
        }
    }
}

void vqx_ssimu2_dsp_init(Ssimu2DSPContext *c, unsigned cpu_flags)
{
    c->xyb_row = vqx_ssimu2_xyb_row_c;
    c->multiply_row = vqx_ssimu2_multiply_row_c;
    c->downsample = vqx_ssimu2_downsample_c;
    c->blur_h = vqx_ssimu2_blur_h_c;
    c->blur_v = vqx_ssimu2_blur_v_c;
    c->ssim_sums = vqx_ssimu2_ssim_sums_c;
    c->edge_sums = vqx_ssimu2_edge_sums_c;
#if VQX_ARCH_X86
    vqx_ssimu2_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
