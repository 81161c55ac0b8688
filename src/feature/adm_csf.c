/*
 * ADM band weights. The constants below are data from libvmaf
 * (src/feature/integer_adm.h, adm_tools.h, barten_csf_tools.h,
 * adm_csf_tools.h; Netflix, BSD+Patent), which cites their sources:
 * Watson, Yang, Solomon, Villasenor, "Visibility of Wavelet Quantization
 * Noise", IEEE TIP 6(8), 1997 (Tables IV and V); Mantiuk et al., HDR-VDP-2,
 * ACM TOG 30(4), 2011 (Barten CSF parameters); Li et al., IEEE TMM 13(5),
 * 2011 (native CSF). The casts mark where libvmaf stores a double in a float.
 */
#include <math.h>
#include <stdbool.h>

#include "feature/adm_csf.h"

#define PI 3.14159265358979323846

/* Float tables are written with double literals, as libvmaf writes them, so
 * that each value is the same float (a float literal may round differently). */

/* ---- Watson et al. 1997, luma, 7-9 biorthogonal basis ---- */

static const float watson_a = 0.495, watson_k = 0.466, watson_f0 = 0.401;
/* gain per orientation: ll, lh (vertical), hh (diagonal), hl (horizontal) */
static const float watson_g[4] = { 1.501, 1.0, 0.534, 1.0 };
/* basis function amplitudes A[level][orientation] (Table V, transposed) */
static const float watson_amplitude[4][4] = {
    { 0.62171, 0.67234, 0.72709, 0.67234 },
    { 0.34537, 0.41317, 0.49428, 0.41317 },
    { 0.18004, 0.22727, 0.28688, 0.22727 },
    { 0.091401, 0.11792, 0.15214, 0.11792 },
};

float vqx_adm_pixels_per_degree(double view_dist, int display_height)
{
    return (float)(view_dist * display_height * PI / 180.0);
}

float vqx_adm_watson_weight(int scale, bool diagonal, double view_dist, int display_height)
{
    const int theta = diagonal ? 2 : 1;
    const float r = vqx_adm_pixels_per_degree(view_dist, display_height);
    const float t = (float)log10(pow(2.0, scale + 1) * watson_f0 * watson_g[theta] / r);
    const float q = (float)(2.0 * watson_a * pow(10.0, watson_k * t * t) /
                            watson_amplitude[scale][theta]);
    return 1.0f / q;
}

/* ---- Barten's CSF as in HDR-VDP-2.2.1 ---- */

/* luminance anchors (cd/m2) of the measured parameter sets */
static const float barten_lum[6] = { 0.002, 0.02, 0.2, 2.0, 20.0, 150.0 };
static const float barten_param[6][5] = {
    { 0.0160737, 0.991265, 3.74038, 0.50722, 4.46044 },
    { 0.383873, 0.800889, 3.54104, 0.682505, 4.94958 },
    { 0.929301, 0.476505, 4.37453, 0.750315, 5.28678 },
    { 1.29776, 0.405782, 4.40602, 0.935314, 5.61425 },
    { 1.49222, 0.334278, 3.79542, 1.07327, 6.4635 },
    { 1.46213, 0.394533, 2.7755, 1.16577, 7.45665 },
};
static const float barten_sa[4] = { 30.162, 4.0627, 1.6596, 0.2712 };
static const float barten_mtf_a[4] = { 0.424838596301290, 0.572435103936480,
                                       0.000167576239164937, 0.00255872352306433 };
static const float barten_mtf_b[4] = { 0.028, 0.37, 37.0, 360.0 };

static float lerp_at(float x0, float y0, float x1, float y1, float x)
{
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

static float rod_cone_sensitivity(float luminance)
{
    return (float)(barten_sa[0] * pow(pow(barten_sa[1] / luminance, barten_sa[2]) + 1,
                                      -barten_sa[3]));
}

static float optical_mtf(float frequency)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++)
        mtf = (float)(mtf + barten_mtf_a[i] * exp(-barten_mtf_b[i] * frequency));
    return mtf;
}

float vqx_adm_barten_weight(int scale, double view_dist, int display_height,
                            double luminance, double gain)
{
    const float r = vqx_adm_pixels_per_degree(view_dist, display_height);
    const float rho = (float)(r / pow(2, scale + 1));

    const double lum = luminance > barten_lum[5] ? barten_lum[5]
                     : luminance < barten_lum[0] ? barten_lum[0] : luminance;
    int lo = 0, hi = 0;
    for (int i = 0; i < 5; i++) {
        if (lum >= barten_lum[i] && lum <= barten_lum[i + 1]) {
            lo = i;
            hi = i + 1;
            break;
        }
    }
    const float x0 = (float)log10(barten_lum[lo]);
    const float x1 = (float)log10(barten_lum[hi]);
    const float x = (float)log10(lum);
    float p[4];
    for (int k = 0; k < 4; k++)
        p[k] = lerp_at(x0, barten_param[lo][k + 1], x1, barten_param[hi][k + 1], x);

    const float a = (float)(1.0f + pow(p[0] * rho, p[1]));
    const float b = (float)(1.0f / pow(1 - exp(-pow(rho / 7, 2)), p[2]));
    const float neural = (float)(p[3] / pow(a * b, 0.5));
    const float csf = neural * optical_mtf(rho) * rod_cone_sensitivity((float)luminance);
    return (float)(csf * gain);
}

/* ---- Barten/Watson blends of the v1.0.16 models: [diagonal][scale] ---- */

typedef float BlendTable[2][4];

static const BlendTable blend_1080_3h = {
    { 0.01183, 0.025026, 0.04295, 0.058621 }, { 0.004302, 0.011778, 0.023918, 0.035901 } };
static const BlendTable blend_1080_5h = {
    { 0.004212, 0.014809, 0.029642, 0.047464 }, { 0.000984, 0.005852, 0.0146, 0.027574 } };
static const BlendTable blend_2160_3h = {
    { 0.00226, 0.01183, 0.025026, 0.04295 }, { 0.000479, 0.004302, 0.011778, 0.023918 } };
static const BlendTable blend_2160_5h = {
    { 0.000092, 0.004212, 0.014809, 0.029642 }, { 0.000050, 0.000984, 0.005852, 0.0146 } };
static const BlendTable blend_720_3h = {
    { 0.018715, 0.035637, 0.052798, 0.061509 }, { 0.007999, 0.018396, 0.031851, 0.037718 } };
static const BlendTable blend_720_5h = {
    { 0.010144, 0.022561, 0.040309, 0.05672 }, { 0.003463, 0.010282, 0.021839, 0.034641 } };
static const BlendTable blend_480_3h = {
    { 0.027961, 0.045875, 0.060275, 0.056234 }, { 0.013572, 0.026277, 0.036959, 0.034511 } };
static const BlendTable blend_480_5h = {
    { 0.016781, 0.032822, 0.05032, 0.061594 }, { 0.00691, 0.016545, 0.029917, 0.037777 } };

/* with the L1 optimization fix (adm_csf_mode 3) */
static const BlendTable blend_mae_1080_3h = {
    { 0.011249, 0.022606, 0.035930, 0.045673 }, { 0.004097, 0.010921, 0.021430, 0.031313 } };
static const BlendTable blend_mae_1080_5h = {
    { 0.004052, 0.013939, 0.026298, 0.038833 }, { 0.000927, 0.005544, 0.013415, 0.024515 } };
static const BlendTable blend_mae_2160_3h = {
    { 0.002166, 0.011249, 0.022606, 0.035930 }, { 0.000447, 0.004097, 0.010921, 0.021430 } };
static const BlendTable blend_mae_2160_5h = {
    { 0.000077, 0.004052, 0.013939, 0.026298 }, { 0.000045, 0.000927, 0.005544, 0.013415 } };
static const BlendTable blend_mae_720_3h = {
    { 0.017329, 0.030870, 0.042134, 0.047410 }, { 0.007509, 0.016707, 0.028072, 0.032722 } };
static const BlendTable blend_mae_720_5h = {
    { 0.009689, 0.020577, 0.034162, 0.044523 }, { 0.003302, 0.009579, 0.019661, 0.030318 } };
static const BlendTable blend_mae_480_3h = {
    { 0.024969, 0.037825, 0.046676, 0.043974 }, { 0.012511, 0.023424, 0.032139, 0.030166 } };
static const BlendTable blend_mae_480_5h = {
    { 0.015665, 0.028766, 0.040612, 0.047483 }, { 0.006514, 0.015107, 0.026476, 0.032776 } };

static const struct {
    int height;
    double view_dist;
    const BlendTable *legacy, *mae;
} blend_tables[] = {
    { 1080, 3.0, &blend_1080_3h, &blend_mae_1080_3h },
    { 1080, 5.0, &blend_1080_5h, &blend_mae_1080_5h },
    /* 2160 at 1.5 H has the pixels per degree of 1080 at 3 H */
    { 2160, 1.5, &blend_1080_3h, &blend_mae_1080_3h },
    { 2160, 3.0, &blend_2160_3h, &blend_mae_2160_3h },
    { 2160, 5.0, &blend_2160_5h, &blend_mae_2160_5h },
    { 720, 3.0, &blend_720_3h, &blend_mae_720_3h },
    { 720, 5.0, &blend_720_5h, &blend_mae_720_5h },
    { 480, 3.0, &blend_480_3h, &blend_mae_480_3h },
    { 480, 5.0, &blend_480_5h, &blend_mae_480_5h },
};

const char vqx_adm_blend_tables[] = "1080 at 3 and 5, 2160 at 1.5, 3 and 5, 720 and 480 at 3 and 5";

static int blend_index(double view_dist, int display_height)
{
    for (unsigned i = 0; i < sizeof(blend_tables) / sizeof(blend_tables[0]); i++)
        if (blend_tables[i].height == display_height && blend_tables[i].view_dist == view_dist)
            return (int)i;
    return -1;
}

bool vqx_adm_blend_has_table(double view_dist, int display_height)
{
    return blend_index(view_dist, display_height) >= 0;
}

float vqx_adm_blend_weight(int scale, bool diagonal, double view_dist, int display_height,
                           bool mae)
{
    const int i = blend_index(view_dist, display_height);
    if (i < 0) return NAN;
    const BlendTable *t = mae ? blend_tables[i].mae : blend_tables[i].legacy;
    return (*t)[diagonal][scale];
}

/* ---- native CSF of the DLM paper ---- */

float vqx_adm_native_weight(int scale, bool diagonal, double view_dist, int display_height)
{
    const float r = vqx_adm_pixels_per_degree(view_dist, display_height);
    float rho = (float)(r / pow(2, scale + 1));
    /* oblique effect: diagonal bands are seen less well */
    if (diagonal)
        rho = (float)(rho / 0.7);
    return (float)((0.31 + 0.69 * rho) * exp(-0.29 * rho));
}
