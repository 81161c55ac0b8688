/*
 * ciede: mean CIEDE2000 colour difference of the two pictures, each pixel
 * taken from BT.709 limited-range YUV to CIELAB (D65), written as
 * 45 - 20 log10(mean dE00), equal to libvmaf's ciede where libvmaf reads
 * the right samples (see docs/ciede.md: 4:2:2 and odd sizes).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bitdepth.h"
#include "feature/extractor.h"

#define PI 3.14159265358979323846

typedef struct Lab {
    float l, a, b;
} Lab;

/* Converting a colour to CIELAB costs six pow calls; neighbouring pixels
 * often share a colour, so a small direct-mapped cache of (Y, U, V) -> Lab
 * halves the run time. An empty slot holds a key no sample triple makes. */
#define CACHE_BITS 14
#define NO_KEY UINT64_MAX
typedef struct LabCacheEntry {
    uint64_t key;
    Lab lab;
} LabCacheEntry;

typedef struct CiedeState {
    unsigned ss_x, ss_y;      /* chroma subsampling shifts */
    bool wide;                /* 16-bit samples */
    /* limited-range offsets and gains for the bit depth */
    double luma_offset, chroma_offset, luma_gain, chroma_gain;
    LabCacheEntry *cache;     /* 1 << CACHE_BITS entries */
} CiedeState;

static const char *const keys[] = { "ciede2000", NULL };

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    (void)sink;
    CiedeState *s = priv;
    s->ss_x = fmt->layout == VQX_PIX_420 || fmt->layout == VQX_PIX_422;
    s->ss_y = fmt->layout == VQX_PIX_420;
    s->wide = fmt->bpc > 8;
    const double scale = 1 << (fmt->bpc - 8);
    s->luma_offset = 16. * scale;
    s->chroma_offset = 128. * scale;
    s->luma_gain = 1. / (219. * scale);
    s->chroma_gain = 1. / (224. * scale);
    s->cache = malloc(sizeof(LabCacheEntry) << CACHE_BITS);
    if (!s->cache) return -ENOMEM;
    for (unsigned i = 0; i < 1u << CACHE_BITS; i++) s->cache[i].key = NO_KEY;
    return 0;
}

/* Types below (float or double at each step) are libvmaf's, for equal
 * results; its ciede follows the av-metrics port of Sharma et al. 2005. */

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

static Lab to_lab(const CiedeState *s, double y, double u, double v)
{
    y = (y - s->luma_offset) * s->luma_gain;
    u = (u - s->chroma_offset) * s->chroma_gain;
    v = (v - s->chroma_offset) * s->chroma_gain;

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
    return (Lab){
        .l = (float)(116.0 * fy - 16.0),
        .a = (float)(500.0 * (fx - fy)),
        .b = (float)(200.0 * (fy - fz)),
    };
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

/* The rotation term R_T (blue region correction). */
static float rotation(float chroma_mean, float hue_mean)
{
    const float t = (float)((to_degrees(hue_mean) - 275.0) * (1.0 / 25.0));
    const float c7 = powf(chroma_mean, 7);
    return (float)(-2.0 * sqrt(c7 / (c7 + powf(25.f, 7))) *
                   sin(to_radians((float)(60.0 * exp(-(powf(t, 2)))))));
}

/* CIEDE2000 difference from p to q, weights kL = 0.65, kC = 1, kH = 4. */
static float delta_e00(Lab p, Lab q)
{
    const float dl = q.l - p.l;
    const float l_mean = (p.l + q.l) / 2;
    const float c1 = (float)sqrt(pow(p.a, 2) + pow(p.b, 2));
    const float c2 = (float)sqrt(pow(q.a, 2) + pow(q.b, 2));
    const float c_mean = (c1 + c2) / 2;
    const double c_mean7 = pow(c_mean, 7);
    const double a_stretch = 1 - sqrt(c_mean7 / (c_mean7 + pow(25, 7)));
    const float a1 = (float)(p.a + (p.a / 2) * a_stretch);
    const float a2 = (float)(q.a + (q.a / 2) * a_stretch);
    const float cp1 = (float)sqrt(pow(a1, 2) + pow(p.b, 2));
    const float cp2 = (float)sqrt(pow(a2, 2) + pow(q.b, 2));
    const float cp_mean = (cp1 + cp2) / 2;
    const float dc = cp2 - cp1;
    const float sl = (float)(1. + 0.015 * pow(l_mean - 50, 2) / sqrt(20 + pow(l_mean - 50, 2)));
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
    return (float)sqrt(pow(lightness, 2) + pow(chroma, 2) + pow(hue, 2) + rt * chroma * hue);
}

static Lab lab_of(CiedeState *s, unsigned y, unsigned u, unsigned v)
{
    const uint64_t key = (uint64_t)y << 32 | (uint64_t)u << 16 | v;
    LabCacheEntry *e = &s->cache[(key * 0x9E3779B97F4A7C15u) >> (64 - CACHE_BITS)];
    if (e->key != key) {
        e->key = key;
        e->lab = to_lab(s, y, u, v);
    }
    return e->lab;
}

static inline unsigned sample(const void *row, unsigned x, bool wide)
{
    return wide ? ((const uint16_t *)row)[x] : ((const uint8_t *)row)[x];
}

/* Each luma sample with the chroma sample that covers it: (x >> ss_x,
 * y >> ss_y) in planes of ceil(w / 2) and ceil(h / 2) when subsampled. */
static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    CiedeState *s = priv;
    const unsigned w = ref->w[0], h = ref->h[0];
    const bool wide = s->wide;
    double sum = 0.;
    for (unsigned y = 0; y < h; y++) {
        const unsigned cy = y >> s->ss_y;
        const void *ry = PIXEL_ROW(uint8_t, ref->data[0], ref->stride[0], y);
        const void *ru = PIXEL_ROW(uint8_t, ref->data[1], ref->stride[1], cy);
        const void *rv = PIXEL_ROW(uint8_t, ref->data[2], ref->stride[2], cy);
        const void *dy = PIXEL_ROW(uint8_t, dis->data[0], dis->stride[0], y);
        const void *du = PIXEL_ROW(uint8_t, dis->data[1], dis->stride[1], cy);
        const void *dv = PIXEL_ROW(uint8_t, dis->data[2], dis->stride[2], cy);
        for (unsigned x = 0; x < w; x++) {
            const unsigned cx = x >> s->ss_x;
            const unsigned y1 = sample(ry, x, wide), u1 = sample(ru, cx, wide), v1 = sample(rv, cx, wide);
            const unsigned y2 = sample(dy, x, wide), u2 = sample(du, cx, wide), v2 = sample(dv, cx, wide);
            /* Equal colours differ by exactly +0: nothing to add. */
            if (y1 == y2 && u1 == u2 && v1 == v2) continue;
            sum += delta_e00(lab_of(s, y1, u1, v1), lab_of(s, y2, u2, v2));
        }
    }
    const double score = 45. - 20. * log10(sum / (w * h));
    return vqx_emit(sink, 0, frame, score);
}

static void close_ciede(void *priv)
{
    free(((CiedeState *)priv)->cache);
}

const VqxFeatureExtractor vqx_fex_ciede = {
    .name = "ciede",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = keys,
    .state_size = sizeof(CiedeState),
    .init = init,
    .extract = extract,
    .close = close_ciede,
};
