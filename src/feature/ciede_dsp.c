/* ciede's DSP table: the scalar C of the YUV to CIELAB conversion and of
 * the CIEDE2000 difference, and the dispatch. Types below (float or double
 * at each step) and libm calls are libvmaf's, for equal results; its ciede
 * follows the av-metrics port of Sharma et al. 2005. */
#include <math.h>

#include "feature/ciede_dsp.h"

#if VQX_ARCH_X86
#include "x86/ciede.h"
#endif

#define PI 3.14159265358979323846

CiedeYuvScale vqx_ciede_yuv_scale(unsigned bpc)
{
    const double scale = 1 << (bpc - 8);
    return (CiedeYuvScale){
        .luma_offset = 16. * scale,
        .chroma_offset = 128. * scale,
        .luma_gain = 1. / (219. * scale),
        .chroma_gain = 1. / (224. * scale),
    };
}

/* sRGB transfer inverse with libvmaf's threshold 10/255. */
static double linearize(double c)
{
    if (c > 10. / 255.) return pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

/* CIELAB companding of a white-normalised XYZ component, kept as float. */
static float lab_f(double t)
{
    if (t > 216.0 / 24389.0) return (float)pow(t, 1.0 / 3.0);
    return (float)((24389.0 / 27.0 * t + 16.0) * (1.0 / 116.0));
}

CiedeLab vqx_ciede_to_lab(const CiedeYuvScale *s, unsigned y_in, unsigned u_in, unsigned v_in)
{
    const double y = (y_in - s->luma_offset) * s->luma_gain;
    const double u = (u_in - s->chroma_offset) * s->chroma_gain;
    const double v = (v_in - s->chroma_offset) * s->chroma_gain;

    /* BT.709 YUV to R'G'B', then linear RGB to XYZ (D65). */
    const double r = linearize(y + 1.28033 * v);
    const double g = linearize(y - 0.21482 * u - 0.38059 * v);
    const double b = linearize(y + 2.12798 * u);
    const double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    const double yy = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    const double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;

    const double fx = lab_f(x * (1.0 / 0.95047));
    const double fy = lab_f(yy);
    const double fz = lab_f(z * (1.0 / 1.08883));
    return (CiedeLab){
        .l = (float)(116.0 * fy - 16.0),
        .a = (float)(500.0 * (fx - fy)),
        .b = (float)(200.0 * (fy - fz)),
    };
}

/* libvmaf's pow(x, 2) of a float x: the double product, exact (two 24-bit
 * significands need 48 bits), which is what pow returns for a representable
 * result (docs/ciede.md, "Proofs"). */
static double square(float x)
{
    return (double)x * x;
}

/* Hue angle in [0, 2 pi), 0 for a neutral colour. */
static float hue_angle(float b, float a)
{
    if (b == 0.0 && a == 0.0) return 0.0f;
    float h = (float)atan2(b, a);
    if (h < 0.0) h = (float)(h + 2. * PI);
    return h;
}

/* Hue difference h2 - h1 brought into [-pi, pi]; 0 when either colour is
 * neutral. */
static float hue_difference(float chroma1, float chroma2, float h1, float h2)
{
    if (chroma1 == 0.0 || chroma2 == 0.0) return 0.0f;
    const float d = h2 - h1;
    if (fabsf(h1 - h2) <= PI) return d;
    return (float)(h2 <= h1 ? d + 2. * PI : d - 2. * PI);
}

/* Mean hue, taking the short way round the circle. */
static float mean_hue(float h1, float h2)
{
    if (fabs(h1 - h2) > PI) return (float)((h1 + h2 + 2.0 * PI) / 2.0);
    return (float)((h1 + h2) / 2.0);
}

/* The hue weighting function T of CIEDE2000. */
static float hue_weighting(float h)
{
    return (float)(1.0 - 0.17 * cos(h - PI / 6.0) + 0.24 * cos(2.0 * h) +
                   0.32 * cos(3.0 * h + PI / 30.0) - 0.20 * cos(4.0 * h - 7.0 * PI / 20.0));
}

static float to_degrees(float radians)
{
    return (float)(radians * (180.0 / PI));
}

static float to_radians(float degrees)
{
    return (float)(degrees * (PI / 180.0));
}

/* The rotation term R_T (blue region correction). powf(25, 7) is
 * 6103515625 rounded to float; libvmaf's powf(t, 2) is t * t in float
 * (docs/ciede.md, "Proofs"). */
static float rotation(float chroma_mean, float hue_mean)
{
    const float t = (float)((to_degrees(hue_mean) - 275.0) * (1.0 / 25.0));
    const float c7 = powf(chroma_mean, 7);
    return (float)(-2.0 * sqrt(c7 / (c7 + 6103515625.0f)) * sin(to_radians((float)(60.0 * exp(-(t * t))))));
}

/* pow(25, 7) is 6103515625, exact in double. */
float vqx_ciede_delta_e00(CiedeLab p, CiedeLab q)
{
    const float dl = q.l - p.l;
    const float l_mean = (p.l + q.l) / 2;
    const float c1 = (float)sqrt(square(p.a) + square(p.b));
    const float c2 = (float)sqrt(square(q.a) + square(q.b));
    const float c_mean = (c1 + c2) / 2;
    const double c_mean7 = pow(c_mean, 7);
    const double a_stretch = 1 - sqrt(c_mean7 / (c_mean7 + 6103515625.0));
    const float a1 = (float)(p.a + (p.a / 2) * a_stretch);
    const float a2 = (float)(q.a + (q.a / 2) * a_stretch);
    const float cp1 = (float)sqrt(square(a1) + square(p.b));
    const float cp2 = (float)sqrt(square(a2) + square(q.b));
    const float cp_mean = (cp1 + cp2) / 2;
    const float dc = cp2 - cp1;
    const float sl = (float)(1. + 0.015 * square(l_mean - 50) / sqrt(20 + square(l_mean - 50)));
    const float sc = (float)(1. + 0.045 * cp_mean);
    const float h1 = hue_angle(p.b, a1);
    const float h2 = hue_angle(q.b, a2);
    const float dh = hue_difference(c1, c2, h1, h2);
    const float dh_big = (float)(2.0 * sqrt(cp1 * cp2) * sin(dh / 2.0));
    const float h_mean = mean_hue(h1, h2);
    const float sh = (float)(1.0 + 0.015 * cp_mean * hue_weighting(h_mean));
    const float rt = rotation(cp_mean, h_mean);

    const float lightness = dl / (0.65f * sl);
    const float chroma = dc / (1.0f * sc);
    const float hue = dh_big / (4.0f * sh);
    return (float)sqrt(square(lightness) + square(chroma) + square(hue) + rt * chroma * hue);
}

CIEDE_DELTA_E(vqx_ciede_delta_e)
{
    for (size_t i = 0; i < n; i++) de[i] = vqx_ciede_delta_e00(p[i], q[i]);
}

void vqx_ciede_dsp_init(CiedeDSPContext *c, unsigned cpu_flags)
{
    c->delta_e = vqx_ciede_delta_e;
#if VQX_ARCH_X86
    vqx_ciede_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
