/*
 * feature/resample: every output sample of every method equals libvmaf's
 * vif_scale_frame_s evaluated directly, one pixel at a time (its
 * coordinates, weights and sums written out again here), for shrinking,
 * enlarging, odd sizes and float_motion's halving, with the row entries this
 * CPU's SIMD allows (tests/checkasm/resample.c compares them with the C).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "feature/resample.h"

#include "check.h"

static float mirror_f(float i, float left, float right)
{
    return i < left ? -i : i > right ? 2 * right - i : i;
}

static float cubic(float t)
{
    const float a = -0.75;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

static float lanczos(float x, float a)
{
    const double pi = 3.14159265358979323846;
    if (x == 0.0) return 1.0;
    if (x > -a && x < a) return a * sin(pi * x) * sin(pi * x / a) / (pi * pi * x * x);
    return 0.0;
}

/* One output pixel of libvmaf's vif_scale_frame_s. */
static float resample_pixel(enum VqxResampleMethod m, const float *src, ptrdiff_t stride, int sw,
                            int sh, int dw, int dh, int x, int y)
{
    const float rx = (float)sw / dw, ry = (float)sh / dh;
    if (m == VQX_RESAMPLE_NEAREST)
        return src[(int)(y * ry) * stride + (int)(x * rx)];
    const float xx = (x + 0.5) * rx - 0.5, yy = (y + 0.5) * ry - 0.5;
    if (m == VQX_RESAMPLE_BILINEAR) {
        const int x1 = mirror_f(floor(xx), 0, sw - 1), x2 = mirror_f(ceil(xx), 0, sw - 1);
        const int y1 = mirror_f(floor(yy), 0, sh - 1), y2 = mirror_f(ceil(yy), 0, sh - 1);
        const float dx = xx - x1, dy = yy - y1;
        const float *r1 = src + y1 * stride, *r2 = src + y2 * stride;
        return (1 - dy) * (1 - dx) * r1[x1] + (1 - dy) * dx * r1[x2] +
               dy * (1 - dx) * r2[x1] + dy * dx * r2[x2];
    }
    const int x0 = floor(xx), y0 = floor(yy);
    const float dx = xx - x0, dy = yy - y0;
    const int reach = m == VQX_RESAMPLE_BICUBIC ? 1 : 4;
    const int last = m == VQX_RESAMPLE_BICUBIC ? 2 : 4;
    float value = 0, wsum = 0;
    for (int j = -reach; j <= last; j++) {
        for (int i = -reach; i <= last; i++) {
            const float wx = m == VQX_RESAMPLE_BICUBIC ? cubic(i - dx) : lanczos(i - dx, 4.0f);
            const float wy = m == VQX_RESAMPLE_BICUBIC ? cubic(j - dy) : lanczos(j - dy, 4.0f);
            const float weight = wx * wy;
            wsum += weight;
            value += src[(int)mirror_f(y0 + j, 0, sh - 1) * stride +
                         (int)mirror_f(x0 + i, 0, sw - 1)] * weight;
        }
    }
    return m == VQX_RESAMPLE_LANCZOS4 ? value / wsum : value;
}

int main(void)
{
    static const unsigned sizes[][4] = {
        { 331, 213, 199, 128 },   /* 0.6 */
        { 331, 213, 166, 107 },   /* halving, rounded up: (int)(n * 0.5 + 0.5) */
        { 330, 212, 165, 106 },   /* exact halving */
        { 331, 213, 453, 292 },   /* 1.37 */
        { 97, 61, 194, 122 },     /* 2 */
        { 9, 8, 36, 32 },         /* a tiny frame, enlarged */
    };
    unsigned long long state = 7;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        const unsigned sw = sizes[k][0], sh = sizes[k][1], dw = sizes[k][2], dh = sizes[k][3];
        const ptrdiff_t src_stride = sw + 3, dst_stride = dw + 5;
        float *src = malloc(sizeof(float) * src_stride * sh);
        float *dst = malloc(sizeof(float) * dst_stride * dh);
        for (ptrdiff_t i = 0; i < src_stride * (ptrdiff_t)sh; i++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            src[i] = (float)(state >> 40) / (1 << 16) - 128.0f;
        }
        for (int m = VQX_RESAMPLE_NEAREST; m <= VQX_RESAMPLE_LANCZOS4; m++) {
            VqxResampler r;
            CHECK(!vqx_resampler_init(&r, (enum VqxResampleMethod)m, sw, sh, dw, dh,
                                      vqx_cpu_flags(0)), "init");
            vqx_resample(&r, src, src_stride, dst, dst_stride);
            unsigned bad = 0;
            for (unsigned y = 0; y < dh; y++)
                for (unsigned x = 0; x < dw; x++)
                    bad += dst[y * dst_stride + x] !=
                           resample_pixel((enum VqxResampleMethod)m, src, src_stride, (int)sw,
                                          (int)sh, (int)dw, (int)dh, (int)x, (int)y);
            CHECK(!bad, "%s %ux%u -> %ux%u: %u samples differ from libvmaf's per-pixel evaluation",
                  vqx_resample_names[m], sw, sh, dw, dh, bad);
            vqx_resampler_free(&r);
        }
        free(src);
        free(dst);
    }
    CHECK(vqx_resample_method("lanczos4") == VQX_RESAMPLE_LANCZOS4 &&
          vqx_resample_method("bilinear") == VQX_RESAMPLE_BILINEAR, "method names");
    return check_report();
}
