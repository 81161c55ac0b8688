/*
 * SSIMULACRA 2's per-sample statements, as static inline functions that the
 * scalar C (ssimulacra2_dsp.c) runs and a device twin can compile unchanged
 * (VQX_HOSTDEV). Each is libjxl's arithmetic for one value, in its order and
 * with its fused multiply-adds: libjxl computes these stages with Highway
 * vectors whose MulAdd is one FMA on the x86 targets it dispatches to (AVX2
 * and above), so fmaf() here gives its float bit for bit.
 *
 * Constants are libjxl's (BSD-3-Clause, the JPEG XL Project Authors), each
 * marked with the file it comes from.
 */
#ifndef VQX_FEATURE_SSIMULACRA2_PIXEL_H
#define VQX_FEATURE_SSIMULACRA2_PIXEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hostdev.h"

/* ---- YUV to 16-bit R'G'B' (vqx's own step: docs/ssimulacra2.md) ---- */

/* What one frame format's YUV samples become: Y' = (Y - y_offset) * y_scale,
 * Cb' and Cr' likewise with c_offset, c_scale; then the matrix's R', G', B'
 * in double. */
typedef struct Ssimu2YuvCoeffs {
    double y_offset, y_scale, c_offset, c_scale;
    double cr_to_r, cb_to_g, cr_to_g, cb_to_b;
} Ssimu2YuvCoeffs;

/* A value of [0, 1] (clamped) as the nearest of 0..65535. */
VQX_HOSTDEV static inline uint16_t ssimu2_to_u16(double v)
{
    v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
    return (uint16_t)(v * 65535.0 + 0.5);
}

VQX_HOSTDEV static inline void ssimu2_yuv_to_rgb16(const Ssimu2YuvCoeffs *k, unsigned y,
                                                   unsigned cb, unsigned cr, uint16_t rgb[3])
{
    const double yn = ((double)y - k->y_offset) * k->y_scale;
    const double cbn = ((double)cb - k->c_offset) * k->c_scale;
    const double crn = ((double)cr - k->c_offset) * k->c_scale;
    rgb[0] = ssimu2_to_u16(yn + k->cr_to_r * crn);
    rgb[1] = ssimu2_to_u16(yn - k->cb_to_g * cbn - k->cr_to_g * crn);
    rgb[2] = ssimu2_to_u16(yn + k->cb_to_b * cbn);
}

/* ---- sRGB decoding (libjxl lib/jxl/cms/transfer_functions-inl.h, TF_SRGB) ---- */

/* A 16-bit sample as libjxl reads a 16-bit PNG: the integer times the float
 * 1/65535 (lib/jxl/enc_external_image.cc), then sRGB's display value by
 * libjxl's rational approximation (Horner with FMAs, one IEEE division). */
VQX_HOSTDEV static inline float ssimu2_linear_from_u16(unsigned v)
{
    const float x = (float)v * (1.0f / 65535.0f);
    if (!(x > 0.04045f)) return x * (1.0f / 12.92f);
    float p = 8.210152774e-01f, q = 6.521209011e-03f;
    p = fmaf(p, x, 7.961564959e-01f);
    q = fmaf(q, x, -5.512498495e-02f);
    p = fmaf(p, x, 1.624820318e-01f);
    q = fmaf(q, x, 4.987528350e-01f);
    p = fmaf(p, x, 1.043637593e-02f);
    q = fmaf(q, x, 1.076976492e+00f);
    p = fmaf(p, x, 2.200248328e-04f);
    q = fmaf(q, x, 2.631846970e-01f);
    return p / q;
}

/* ---- XYB (libjxl lib/jxl/enc_xyb.cc, lib/jxl/cms/opsin_params.h) ---- */

#define SSIMU2_OPSIN_BIAS 0.0037930732552754493f
#define SSIMU2_M00 0.30f
#define SSIMU2_M02 0.078f
#define SSIMU2_M01 (1.0f - SSIMU2_M02 - SSIMU2_M00)
#define SSIMU2_M10 0.23f
#define SSIMU2_M12 0.078f
#define SSIMU2_M11 (1.0f - SSIMU2_M12 - SSIMU2_M10)
#define SSIMU2_M20 0.24342268924547819f
#define SSIMU2_M21 0.20476744424496821f
#define SSIMU2_M22 (1.0f - SSIMU2_M20 - SSIMU2_M21)

/* cbrt(x) + add for x >= 0 as libjxl's CubeRootAndAdd (lib/jxl/base/
 * fast_math-inl.h, after Agner Fog's vectorclass): an exponent guess, three
 * Newton steps, a last correction, with its fused operations. */
VQX_HOSTDEV static inline float ssimu2_cbrt_add(float x, float add)
{
    int32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    const int32_t guess = bits == 0 ? 0 : 0x54800000 - (bits >> 23) * 0x002AAAAA;
    float r;
    memcpy(&r, &guess, sizeof(r));
    const float x_3 = (1.0f / 3) * x;
    for (int i = 0; i < 3; i++) {
        const float r2 = r * r;
        r = fmaf(-x_3, r2 * r2, (4.0f / 3) * r);
    }
    float r2 = r * r;
    r = fmaf(1.0f / 3, fmaf(-x, r2 * r2, r), r);
    r2 = r * r;
    return fmaf(r2, x, add);
}

/* One linear sRGB pixel to SSIMULACRA 2's positive XYB (libjxl's
 * LinearRGBToXYB, then MakePositiveXYB of tools/ssimulacra2.cc).
 * neg_bias_cbrt: -cbrtf(SSIMU2_OPSIN_BIAS). */
VQX_HOSTDEV static inline void ssimu2_xyb(float r, float g, float b, float neg_bias_cbrt,
                                          float xyb[3])
{
    float m0 = fmaf(SSIMU2_M00, r, fmaf(SSIMU2_M01, g, fmaf(SSIMU2_M02, b, SSIMU2_OPSIN_BIAS)));
    float m1 = fmaf(SSIMU2_M10, r, fmaf(SSIMU2_M11, g, fmaf(SSIMU2_M12, b, SSIMU2_OPSIN_BIAS)));
    float m2 = fmaf(SSIMU2_M20, r, fmaf(SSIMU2_M21, g, fmaf(SSIMU2_M22, b, SSIMU2_OPSIN_BIAS)));
    m0 = ssimu2_cbrt_add(m0 < 0.0f ? 0.0f : m0, neg_bias_cbrt);
    m1 = ssimu2_cbrt_add(m1 < 0.0f ? 0.0f : m1, neg_bias_cbrt);
    m2 = ssimu2_cbrt_add(m2 < 0.0f ? 0.0f : m2, neg_bias_cbrt);
    const float x = 0.5f * (m0 - m1), y = 0.5f * (m0 + m1);
    xyb[0] = x * 14.0f + 0.42f;
    xyb[1] = y + 0.01f;
    xyb[2] = (m2 - y) + 0.55f;
}

/* ---- blur (libjxl tools/gauss_blur.cc) ---- */

/* libjxl's recursive Gaussian of sigma 1.5 (after Charalampidis 2016):
 * three second-order filters k = 1, 3, 5. The vertical pass runs each
 * filter's recurrence with n2 and d1; the horizontal one is unrolled 4
 * outputs at a time as libjxl unrolls it: lane j of a group takes the
 * group's inputs times mul_in and the two outputs before the group times
 * mul_prev and mul_prev2. */
typedef struct Ssimu2Gauss {
    int radius;
    float n2[3], d1[3];
    float mul_in[3][4], mul_prev[3][4], mul_prev2[3][4];
} Ssimu2Gauss;

/* One output of the vertical pass from sum (the inputs radius + 1 above
 * and radius - 1 below, zero outside) and each filter's two outputs
 * before it, which it shifts. */
VQX_HOSTDEV static inline float ssimu2_blur_v_step(const Ssimu2Gauss *g, float sum, float y1[3],
                                                   float y2[3])
{
    float v[3];
    for (int k = 0; k < 3; k++) {
        v[k] = fmaf(g->n2[k], sum, fmaf(-g->d1[k], y1[k], -y2[k]));
        y2[k] = y1[k];
        y1[k] = v[k];
    }
    return v[0] + (v[1] + v[2]);
}

/* One output of the horizontal pass outside the groups of 4: libjxl's
 * scalar recurrence, lane 0 of its multipliers. */
VQX_HOSTDEV static inline float ssimu2_blur_h_step(const Ssimu2Gauss *g, float sum, float prev[3],
                                                   float prev2[3])
{
    float o[3];
    for (int k = 0; k < 3; k++) {
        o[k] = sum * g->mul_in[k][0];
        o[k] = fmaf(g->mul_prev2[k][0], prev2[k], o[k]);
        prev2[k] = prev[k];
        o[k] = fmaf(g->mul_prev[k][0], prev[k], o[k]);
        prev[k] = o[k];
    }
    return o[0] + (o[1] + o[2]);
}

/* A group of 4 outputs of the horizontal pass from its 4 input sums; prev
 * and prev2 become the group's last two outputs of each filter. */
VQX_HOSTDEV static inline void ssimu2_blur_h_group(const Ssimu2Gauss *g, const float sum[4],
                                                   float prev[3], float prev2[3], float out[4])
{
    float o[3][4];
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 4; j++) {
            float v = sum[0] * g->mul_in[k][j];
            for (int t = 1; t <= j; t++) v = fmaf(g->mul_in[k][j - t], sum[t], v);
            v = fmaf(g->mul_prev2[k][j], prev2[k], v);
            o[k][j] = fmaf(g->mul_prev[k][j], prev[k], v);
        }
        prev2[k] = o[k][2];
        prev[k] = o[k][3];
    }
    for (int j = 0; j < 4; j++) out[j] = o[0][j] + (o[1][j] + o[2][j]);
}

/* The horizontal pass's input sum at output n: in[left] + in[right], each
 * zero outside the row (libjxl adds the zero). */
VQX_HOSTDEV static inline float ssimu2_zero_padded_sum(const float *in, int left, int right, int w)
{
    return (left >= 0 ? in[left] : 0.0f) + (right < w ? in[right] : 0.0f);
}

/* The horizontal pass of one row of w >= 1 samples, in libjxl's sequence
 * (docs/ssimulacra2.md): the scalar recurrence, groups of 4, the scalar
 * recurrence again. */
VQX_HOSTDEV static inline void ssimu2_blur_h_row(const Ssimu2Gauss *g, const float *in,
                                                 float *out, int w)
{
    const int radius = g->radius;
    float prev[3] = { 0.0f, 0.0f, 0.0f }, prev2[3] = { 0.0f, 0.0f, 0.0f };
    int n = -radius + 1;
    /* libjxl's scalar head runs up to radius + 1 rounded up to 4 lanes. */
    const int head_end = (radius + 1 + 3) / 4 * 4;
    for (; n < (head_end < w ? head_end : w); n++) {
        const float sum = ssimu2_zero_padded_sum(in, n - radius - 1, n + radius - 1, w);
        const float v = ssimu2_blur_h_step(g, sum, prev, prev2);
        if (n >= 0) out[n] = v;
    }
    /* Groups of 4 outputs, each lane from the group's inputs and the two
     * outputs before the group (libjxl's unrolled loop). */
    for (; n < w - radius + 1 - 3; n += 4) {
        float sum[4];
        for (int j = 0; j < 4; j++) sum[j] = in[n + j - radius - 1] + in[n + j + radius - 1];
        ssimu2_blur_h_group(g, sum, prev, prev2, out + n);
    }
    for (; n < w; n++) {
        const float sum = ssimu2_zero_padded_sum(in, n - radius - 1, n + radius - 1, w);
        out[n] = ssimu2_blur_h_step(g, sum, prev, prev2);
    }
}

/* The vertical pass's input sum at an output: top and bottom are the
 * samples radius + 1 above and radius - 1 below, NULL outside the column.
 * libjxl adds the sample below, or zero, to the one above only when the
 * one above exists. */
VQX_HOSTDEV static inline float ssimu2_blur_v_sum(const float *top, const float *bottom)
{
    const float below = bottom ? *bottom : 0.0f;
    return top ? *top + below : below;
}

/* ---- 2x2 halving (libjxl tools/ssimulacra2.cc, Downsample) ---- */

/* Output (ox, oy) of the 2x2 mean of a w x h plane, the last column and
 * row repeated when odd: libjxl's float sum from 0, row by row, then / 4. */
VQX_HOSTDEV static inline float ssimu2_downsample_at(const float *in, ptrdiff_t stride, int w,
                                                     int h, int ox, int oy)
{
    const float *row0 = in + 2 * oy * stride;
    const float *row1 = 2 * oy + 1 < h ? row0 + stride : row0;
    const int x0 = 2 * ox, x1 = x0 + 1 < w ? x0 + 1 : x0;
    float sum = row0[x0];
    sum += row0[x1];
    sum += row1[x0];
    sum += row1[x1];
    return sum * 0.25f;
}

/* ---- error maps (libjxl tools/ssimulacra2.cc, SSIMMap and EdgeDiffMap) ---- */

#define SSIMU2_C2 0.0009f

/* 1 - SSIM' of one sample (no luminance denominator), clamped at 0; the
 * float and double steps are libjxl's. */
VQX_HOSTDEV static inline double ssimu2_ssim_error(float mu1, float mu2, float s11, float s22,
                                                   float s12)
{
    const float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
    const float num_m = (float)(1.0 - (double)((mu1 - mu2) * (mu1 - mu2)));
    const float num_s = 2 * (s12 - mu12) + SSIMU2_C2;
    const float denom_s = (s11 - mu11) + (s22 - mu22) + SSIMU2_C2;
    const double d = 1.0 - (double)(num_m * num_s / denom_s);
    return d > 0.0 ? d : 0.0;
}

/* The edge ratio minus 1: > 0 where the distorted image has an edge the
 * original lacks (ringing, blocking), < 0 where it lost one (blur). */
VQX_HOSTDEV static inline double ssimu2_edge_diff(float img1, float mu1, float img2, float mu2)
{
    return (1.0 + (double)fabsf(img2 - mu2)) / (1.0 + (double)fabsf(img1 - mu1)) - 1.0;
}

VQX_HOSTDEV static inline double ssimu2_quartic(double x)
{
    x *= x;
    return x * x;
}

/* Term k of one edge difference: 0 artifact, 1 artifact^4, 2 detail lost,
 * 3 detail lost^4. */
VQX_HOSTDEV static inline double ssimu2_edge_term(double d, int k)
{
    const double artifact = d > 0.0 ? d : 0.0, detail_lost = -d > 0.0 ? -d : 0.0;
    const double v = k < 2 ? artifact : detail_lost;
    return k & 1 ? ssimu2_quartic(v) : v;
}

/* sums[0..3] += artifact, artifact^4, detail lost, detail lost^4 of one
 * edge difference. */
VQX_HOSTDEV static inline void ssimu2_edge_add(double d, double sums[4])
{
    for (int k = 0; k < 4; k++) sums[k] += ssimu2_edge_term(d, k);
}

#endif
