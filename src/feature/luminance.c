/*
 * EOTFs and luma ranges. The formulas are the standards'; the evaluation
 * order follows libvmaf's luminance_tools so that thresholds derived from
 * them land on the same code values.
 */
#include <math.h>
#include <string.h>

#include "feature/luminance.h"

VqxLumaRange vqx_luma_range_limited(int bitdepth)
{
    return (VqxLumaRange){ 16 << (bitdepth - 8), 235 << (bitdepth - 8) };
}

VqxLumaRange vqx_luma_range_full(int bitdepth)
{
    return (VqxLumaRange){ 0, (1 << bitdepth) - 1 };
}

double vqx_eotf_bt1886(double signal)
{
    const double gamma = 2.4, white = 300.0, black = 0.01;
    const double white_root = pow(white, 1.0 / gamma);
    const double black_root = pow(black, 1.0 / gamma);
    const double gain = pow(white_root - black_root, gamma);
    const double lift = black_root / (white_root - black_root);
    return gain * pow(fmax(signal + lift, 0), gamma);
}

double vqx_eotf_pq(double signal)
{
    /* ST 2084 constants */
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double e = pow(signal, 1.0 / m2);
    const double num = fmax(e - c1, 0);
    return 10000 * pow(num / (c2 - c3 * e), 1.0 / m1);
}

VqxEotf vqx_eotf_from_name(const char *name)
{
    if (!strcmp(name, "bt1886")) return vqx_eotf_bt1886;
    if (!strcmp(name, "pq")) return vqx_eotf_pq;
    return NULL;
}

double vqx_luminance(int code, VqxLumaRange range, VqxEotf eotf)
{
    const int c = code < range.black ? range.black : code > range.white ? range.white : code;
    return eotf((double)(c - range.black) / (range.white - range.black));
}
