/*
 * ADM, the Detail Loss Metric of VMAF, in libvmaf's fixed-point form
 * (integer_adm). Per DWT level: the distorted bands are split into the part
 * that restores the reference (r) and the additive impairment (a); the
 * CSF-weighted r, less what the neighbouring impairment masks, is summed as
 * a 3-norm and divided by the 3-norm of the weighted reference (DLM). AIM
 * scores the impairment masked by the restored detail, the same way.
 *
 * Every stage keeps libvmaf's integer widths, shifts and roundings, and the
 * places where its C code wraps around 32 bits (weights above the
 * fixed-point range with adm_csf_mode=1) are reproduced with explicit
 * modular arithmetic, so that the scores are the same doubles.
 *
 * Layout: all bands are int32 planes with the stride of level 0; each level
 * overwrites the approximation band in place. The masking stage runs row by
 * row over a three-row ring, so extract() touches no allocator.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/adm.h"
#include "feature/adm_csf.h"
#include "feature/adm_fixed.h"
#include "feature/extractor.h"

#define PI 3.14159265358979323846

enum AdmCsfMode { CSF_WATSON, CSF_BARTEN, CSF_BLEND, CSF_BLEND_MAE };

/* libvmaf's defaults (integer_adm.h) */
#define DEFAULT_VIEW_DIST 3.0
#define DEFAULT_DISPLAY_HEIGHT 1080
#define CSF_LUMINANCE 100.0

/* Fixed-point constants of libvmaf's integer ADM (integer_adm.h, integer_adm.c;
 * Netflix, BSD+Patent). */
#define RECIP_Q30 1073741824   /* division table: 2^30 / i */
#define ONE_BY_30_Q17 4369     /* level 0 masking: neighbour weight 1/30 */
#define ONE_BY_15_Q17 8738     /* level 0 masking: centre weight 1/15 */
#define ONE_BY_30_Q32 143165577
#define ONE_BY_15_Q32 286331153
/* level 0 weights at the default 3 H on 1080 lines, Watson CSF */
static const uint16_t watson_default_q[3] = { 36453, 36453, 49417 };


const char *const vqx_adm_keys[] = {
    "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
    "integer_adm", "integer_adm_num", "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0", "integer_adm_num_scale1",
    "integer_adm_den_scale1", "integer_adm_num_scale2", "integer_adm_den_scale2",
    "integer_adm_num_scale3", "integer_adm_den_scale3",
    NULL
};

#define OPT(field) .offset = offsetof(AdmState, field)
const VqxOption vqx_adm_options[] = {
    { .name = "debug", .help = "also write numerators and denominators",
      .type = VQX_OPT_BOOL, OPT(debug), .def.b = false },
    { .name = "adm_csf_scale", .alias = "scf",
      .help = "scale of the CSF's horizontal and vertical terms (adm_csf_mode=1)",
      .type = VQX_OPT_DOUBLE, OPT(csf_scale), .def.d = 1.0, .min = 0.0, .max = 50.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_csf_diag_scale", .alias = "scfd",
      .help = "scale of the CSF's diagonal term (adm_csf_mode=1)",
      .type = VQX_OPT_DOUBLE, OPT(csf_diag_scale), .def.d = 1.0, .min = 0.0, .max = 50.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_dlm_weight", .alias = "dlmw",
      .help = "weight of DLM against AIM in adm3; 1 is DLM only",
      .type = VQX_OPT_DOUBLE, OPT(dlm_weight), .def.d = 0.5, .min = 0.0, .max = 1.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_enhn_gain_limit", .alias = "egl",
      .help = "largest enhancement gain credited, >= 1; 1 disables enhancement",
      .type = VQX_OPT_DOUBLE, OPT(gain_limit), .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_norm_view_dist", .alias = "nvd",
      .help = "viewing distance over display height",
      .type = VQX_OPT_DOUBLE, OPT(view_dist), .def.d = DEFAULT_VIEW_DIST, .min = 0.75,
      .max = 24.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_ref_display_height", .alias = "rdh",
      .help = "reference display height in pixels",
      .type = VQX_OPT_INT, OPT(display_height), .def.i = DEFAULT_DISPLAY_HEIGHT, .min = 1,
      .max = 4320, .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_csf_mode", .alias = "csf",
      .help = "CSF: 0 Watson, 1 Barten, 2 Barten/Watson blend, 3 blend with the MAE fix",
      .type = VQX_OPT_INT, OPT(csf_mode), .def.i = CSF_WATSON, .min = 0, .max = 3,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_noise_weight", .alias = "nw", .help = "weight of the noise floor",
      .type = VQX_OPT_DOUBLE, OPT(noise_weight), .def.d = 0.03125, .min = 0.0, .max = 1500.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_skip_aim", .help = "skip AIM (aim and adm3 then use AIM = 0)",
      .type = VQX_OPT_BOOL, OPT(skip_aim), .def.b = false },
    { .name = "adm_skip_scale0", .alias = "ssz", .help = "skip level 0",
      .type = VQX_OPT_BOOL, OPT(skip_scale0), .def.b = false, .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_min_val", .alias = "min", .help = "lower bound of adm3",
      .type = VQX_OPT_DOUBLE, OPT(min_val), .def.d = 0.0, .min = 0.0, .max = 1.0,
      .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

/* ---- two's-complement helpers: libvmaf's C relies on wrap-around ---- */

static inline int32_t wrap32(int64_t v)
{
    return (int32_t)(uint32_t)(uint64_t)v;
}

static inline int32_t abs32(int32_t v)
{
    return v < 0 ? (int32_t)(0u - (uint32_t)v) : v;
}

/* |v| modulo 2^32 without a branch, where the sign is random: gcc can
 * compile abs32 to a mispredicted jump */
static inline uint32_t abs_by_mask(int32_t v)
{
    const uint32_t neg = v < 0 ? ~0u : 0u;
    return ((uint32_t)v ^ neg) - neg;
}

/* double to uint16 and uint32 as x86-64 compilers convert them (through a
 * 32-bit and a 64-bit signed integer) when the value does not fit, as
 * Barten weights do not */
static uint16_t double_to_u16(double v)
{
    return (uint16_t)(uint32_t)(v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN);
}

static uint32_t double_to_u32(double v)
{
    return (uint32_t)(uint64_t)(v > -9223372036854775808.0 && v < 9223372036854775808.0
                                ? (int64_t)v : INT64_MIN);
}

/* a shift from a log2 bound, as libvmaf's (uint32_t)ceil(...) */
static unsigned ceil_to_shift(double x)
{
    return (unsigned)(int64_t)ceil(x);
}

static int64_t round_half(unsigned shift)
{
    return shift ? (int64_t)1 << (shift - 1) : 0;
}

/* ---- CSF weights ---- */

/* (the blend modes' table exists: check_options) */
static void level_weights(const AdmState *s, int scale, float weight[3])
{
    float hv, diag;
    switch (s->csf_mode) {
    case CSF_BARTEN:
        hv = vqx_adm_barten_weight(scale, s->view_dist, s->display_height, CSF_LUMINANCE,
                                   s->csf_scale);
        diag = vqx_adm_barten_weight(scale, s->view_dist, s->display_height, CSF_LUMINANCE,
                                     s->csf_diag_scale);
        break;
    case CSF_BLEND:
    case CSF_BLEND_MAE:
        hv = vqx_adm_blend_weight(scale, false, s->view_dist, s->display_height,
                                  s->csf_mode == CSF_BLEND_MAE);
        diag = vqx_adm_blend_weight(scale, true, s->view_dist, s->display_height,
                                    s->csf_mode == CSF_BLEND_MAE);
        break;
    default:
        hv = vqx_adm_watson_weight(scale, false, s->view_dist, s->display_height);
        diag = vqx_adm_watson_weight(scale, true, s->view_dist, s->display_height);
        break;
    }
    weight[ADM_H] = weight[ADM_V] = hv;
    weight[ADM_D] = diag;
}

/* ---- DWT: one output row of the four bands ---- */

typedef struct DwtRounding {
    int64_t v_add, h_add;
    unsigned v_shift, h_shift;
} DwtRounding;

/* Rounding of the vertical and horizontal passes of levels 1 to 3. Level 0
 * (in dwt_level) shifts by bpc then 16, on samples centred by 2^(bpc-1): the
 * same sums as libvmaf's offset correction, without its 32-bit overflow at
 * 16 bits. */
static const DwtRounding level_rounding[3] = {
    { 0, 16384, 0, 15 }, { 32768, 32768, 16, 16 }, { 32768, 16384, 16, 15 },
};

/* The passes' margins: the horizontal taps of the last outputs reach w and
 * w + 1, the first -1. */
#define DEFINE_MIRROR(name, src_t)                                        \
    static void name(src_t *lo, src_t *hi, int w)                         \
    {                                                                     \
        lo[-1] = lo[1], lo[w] = lo[w - 1], lo[w + 1] = lo[w - 2];         \
        hi[-1] = hi[1], hi[w] = hi[w - 1], hi[w + 1] = hi[w - 2];         \
    }

DEFINE_MIRROR(mirror_16, int16_t)
DEFINE_MIRROR(mirror_32, int32_t)

/* Row y of the picture's luma, centred, from a four-row cache. */
static const int16_t *picture_row(AdmState *s, const VqxPicture *pic, int y)
{
    const int slot = y & 3;
    if (s->pix_row_of[slot] != y) {
        const void *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
        (s->bpc == 8 ? vqx_adm_row_to_int_8bpc : vqx_adm_row_to_int_16bpc)(
            row, s->pix_rows[slot], s->w, s->bpc);
        s->pix_row_of[slot] = y;
    }
    return s->pix_rows[slot];
}

/* Level `scale` of one picture: reads the picture (level 0) or the previous
 * approximation band `a`, and writes `a` and `band` in its place. */
void vqx_adm_dwt_level(AdmState *s, int scale, const VqxPicture *pic, int32_t *a,
                       int32_t *const band[3])
{
    const int w = scale ? s->level[scale - 1].w : s->w;
    const int h = scale ? s->level[scale - 1].h : s->h;
    const DwtRounding first = { (int64_t)1 << (s->bpc - 1), 32768, s->bpc, 16 };
    const DwtRounding *rnd = scale ? &level_rounding[scale - 1] : &first;
    for (int k = 0; k < 4; k++) s->pix_row_of[k] = -1;

    for (int i = 0; i < (h + 1) / 2; i++) {
        const ptrdiff_t o = i * s->stride;
        int32_t *out_h = band[ADM_H] + o, *out_v = band[ADM_V] + o, *out_d = band[ADM_D] + o;
        if (scale) {
            const int32_t *src[4];
            for (int k = 0; k < 4; k++)
                src[k] = a + vqx_adm_tap_index(2 * i - 1 + k, h) * s->stride;
            s->dsp.dwt_vertical_32(src, w, rnd->v_add, rnd->v_shift, s->lo, s->hi);
            mirror_32(s->lo, s->hi, w);
            s->dsp.dwt_horizontal_32(s->lo, s->hi, w, rnd->h_add, rnd->h_shift, a + o, out_h,
                                     out_v, out_d);
        } else {
            const int16_t *src[4];
            for (int k = 0; k < 4; k++)
                src[k] = picture_row(s, pic, vqx_adm_tap_index(2 * i - 1 + k, h));
            s->dsp.dwt_vertical_16(src, w, (int32_t)rnd->v_add, rnd->v_shift, s->lo16, s->hi16);
            mirror_16(s->lo16, s->hi16, w);
            s->dsp.dwt_horizontal_16(s->lo16, s->hi16, w, (int32_t)rnd->h_add, rnd->h_shift,
                                     a + o, out_h, out_v, out_d);
        }
    }
}

/* ---- decoupling into restored and additive parts ---- */

/* k = clamp(t / o, 0, 1) in Q15, by reciprocal lookup after reducing |o| to
 * 15 bits, as libvmaf's adm_decouple_s123 does (its level 0 variant gives the
 * same values on 16-bit bands). No branches: signs, sizes and clamps of the
 * coefficients are random, and mispredicted branches cost more here than
 * computing every case. */
static inline int64_t restore_gain(const int32_t *recip, int32_t o, int32_t t)
{
    const int64_t neg = o < 0 ? -1 : 0;
    const uint32_t mag = abs_by_mask(o);
    /* |o| of 16 or more bits keeps its top 15 (rounded) and shifts k by the rest */
    const unsigned bits = 32 - (unsigned)__builtin_clz(mag | 1);
    const unsigned shift = bits > 15 ? bits - 15 : 0;
    const uint32_t idx = (mag + ((1u << shift) >> 1)) >> shift;
    const int64_t quotient = ((int64_t)recip[idx] * t ^ neg) - neg;
    /* libvmaf's rounding term is an int32: at shift 17 it is -2^31 */
    const int64_t k = (quotient + (int32_t)(1u << (14 + shift))) >> (15 + shift);
    const int64_t clamped = k < 0 ? 0 : k > 32768 ? 32768 : k;
    return o == 0 ? 32768 : clamped;
}

/* Restored part of coefficient o of the reference against t of the
 * distorted picture: k o, or, where the angle test passed and k > 0, the
 * enhancement credit k o * gain_limit, clamped to t (in double, as libvmaf). */
static inline int32_t restored_part(const int32_t *recip, int32_t o, int32_t t,
                                    int32_t same_angle_mask, double gain_limit)
{
    const int64_t k = restore_gain(recip, o, t);
    const int32_t r = wrap32((k * o + 16384) >> 15);
    /* (int32_t)min(e, t) is min(trunc(e), t) as truncation is monotonic and
     * keeps integers; |e| < 2^38 (gain_limit <= 100) fits int64 */
    const int64_t e = (int64_t)(r * gain_limit);
    /* min and max by masks: gcc compiles ?: here to mispredicted branches */
    const int64_t d = e - t, below = d & (d >> 63);
    const int32_t up = (int32_t)(t + below), down = (int32_t)(e - below);
    const int32_t pos = -(int32_t)(o > 0), enhance = same_angle_mask & -(int32_t)(k > 0) &
                                                     -(int32_t)(o != 0);
    const int32_t enhanced = (up & pos) | (down & ~pos);
    return (enhanced & enhance) | (r & ~enhance);
}

/* Rows whose coefficients are all within +-32767 (every row of level 0):
 * there |o| needs no reduction, k's product with the reciprocal has at most
 * 45 bits and every other value fits 32 bits, so 32-bit integers and exact
 * double arithmetic give restore_gain's and restored_part's integers, in
 * loops free of 64-bit products and table lookups that gcc vectorises. */
static bool fits_16(const int32_t *x, int left, int right)
{
    uint32_t outside = 0;
    for (int j = left; j < right; j++) outside |= (uint32_t)x[j] + 32767u > 65534u;
    return !outside;
}

/* The angle test of one row, 1.0 where it passes: |products| < 2^30, so
 * the sums fit 32 bits and convert to the same floats as 64-bit ones. */
static void angle_row_16(const int32_t *oh, const int32_t *ov, const int32_t *th,
                         const int32_t *tv, int left, int right, double cos_1deg_sq,
                         double *same_angle)
{
    for (int j = left; j < right; j++) {
        const int32_t dot = oh[j] * th[j] + ov[j] * tv[j];
        const int32_t o_sq = oh[j] * oh[j] + ov[j] * ov[j];
        const int32_t t_sq = th[j] * th[j] + tv[j] * tv[j];
        const double dotf = (float)dot / 4096.0;
        /* & rather than &&: a branch here stops the vectoriser */
        const bool pass = (dotf >= 0.0f) &
            (dotf * dotf >= cos_1deg_sq * ((float)o_sq / 4096.0) * ((float)t_sq / 4096.0));
        same_angle[j] = pass ? 1.0 : 0.0;
    }
}

static void restore_row_16(const int32_t *o, const int32_t *t, const double *same_angle,
                           int left, int right, double gain_limit, int32_t *r, int32_t *a)
{
    for (int j = left; j < right; j++) {
        const int32_t oj = o[j], tj = t[j];
        const int32_t mag = oj < 0 ? -oj : oj, t_signed = oj < 0 ? -tj : tj;
        /* floor(2^30 / mag), as the table holds: the double quotient is
         * within 2^-23 of the exact one, which is 1/mag >= 2^-15 short of an
         * integer or is one; o = 0 reads 2^30 / 1 and gives r = 0 all the same */
        const double recip = (int32_t)(1073741824.0 / (mag | (mag == 0)));
        /* floor((recip t + 2^14) / 2^15), |.| < 2^30: truncation differs
         * from floor only below 0, which the clamp maps to 0 either way */
        const int32_t k_raw = (int32_t)((recip * t_signed + 16384.0) * (1.0 / 32768));
        const int32_t k = k_raw < 0 ? 0 : k_raw > 32768 ? 32768 : k_raw;
        const int32_t restored = (k * oj + 16384) >> 15;
        const int32_t e = (int32_t)(restored * gain_limit);
        const int32_t enhanced = oj > 0 ? (e < tj ? e : tj) : (e > tj ? e : tj);
        const bool enhance = (same_angle[j] != 0.0) & (k > 0) & (oj != 0);
        r[j] = enhance ? enhanced : restored;
        a[j] = tj - r[j];
    }
}

void vqx_adm_decouple(AdmState *s, int scale)
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion g = lv->grown;
    const double gain_limit = s->gain_limit;
    const double cos_1deg_sq = s->cos_1deg_sq;
    const int32_t *recip = s->recip;
    for (int i = g.top; i < g.bottom; i++) {
        const ptrdiff_t row = i * s->stride;
        const int32_t *o[3], *t[3];
        int32_t *r[3], *a[3];
        bool narrow = true;
        for (int b = 0; b < 3; b++) {
            o[b] = s->ref_band[b] + row, t[b] = s->dis_band[b] + row;
            r[b] = s->restored[b] + row, a[b] = s->additive[b] + row;
            narrow = narrow && fits_16(o[b], g.left, g.right) && fits_16(t[b], g.left, g.right);
        }
        if (narrow) {
            double *same_angle = s->angle_row;
            angle_row_16(o[ADM_H], o[ADM_V], t[ADM_H], t[ADM_V], g.left, g.right, cos_1deg_sq,
                         same_angle);
            for (int b = 0; b < 3; b++)
                restore_row_16(o[b], t[b], same_angle, g.left, g.right, gain_limit, r[b], a[b]);
            continue;
        }
        int32_t *same_angle = s->thr_row; /* as a mask */
        for (int j = g.left; j < g.right; j++) {
            /* the angle between (oh, ov) and (th, tv) is below 1 degree */
            const int32_t oh = o[ADM_H][j], ov = o[ADM_V][j], th = t[ADM_H][j], tv = t[ADM_V][j];
            const int64_t dot = (int64_t)oh * th + (int64_t)ov * tv;
            const int64_t o_sq = (int64_t)oh * oh + (int64_t)ov * ov;
            const int64_t t_sq = (int64_t)th * th + (int64_t)tv * tv;
            const double dotf = (float)dot / 4096.0;
            same_angle[j] = -(int32_t)((dotf >= 0.0f) &
                (dotf * dotf >= cos_1deg_sq * ((float)o_sq / 4096.0) * ((float)t_sq / 4096.0)));
        }
        for (int b = 0; b < 3; b++)
            for (int j = g.left; j < g.right; j++) {
                r[b][j] = restored_part(recip, o[b][j], t[b][j], same_angle[j], gain_limit);
                a[b][j] = wrap32((int64_t)t[b][j] - r[b][j]);
            }
    }
}

/* ---- denominator: 3-norm of the CSF-weighted reference bands ---- */

void vqx_adm_reference_sums(const AdmState *s, int scale, uint64_t accum[3],
                            uint64_t (*rows)[3])
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion r = lv->roi;
    static const unsigned sq_shift[3] = { 31, 30, 31 };
    const unsigned sq = scale ? sq_shift[scale - 1] : 0;
    const unsigned cube_shift = lv->ref_cube_shift;
    const unsigned row_shift = lv->ref_row_shift;
    const uint64_t cube_add = (uint64_t)round_half(cube_shift);
    const uint64_t row_add = (uint64_t)round_half(row_shift);
    for (int b = 0; b < 3; b++) accum[b] = 0;
    for (int i = r.top; i < r.bottom; i++) {
        for (int b = 0; b < 3; b++) {
            const int32_t *src = s->ref_band[b] + i * s->stride;
            uint64_t row = 0;
            if (scale == 0) {
                /* a 32-bit square times a 32-bit value: vectorises */
                for (int j = r.left; j < r.right; j++) {
                    const uint32_t m = (uint16_t)abs_by_mask(src[j]);
                    row += (uint64_t)(m * m) * m;
                }
            } else {
                for (int j = r.left; j < r.right; j++) {
                    /* libvmaf adds 2^sq, not 2^(sq-1), before this shift */
                    const uint64_t m = abs_by_mask(src[j]);
                    row += ((((m * m + ((uint64_t)1 << sq)) >> sq) * m) + cube_add) >> cube_shift;
                }
            }
            if (rows) rows[i - r.top][b] = row;
            accum[b] += (row + row_add) >> row_shift;
        }
    }
}

float vqx_adm_reference_norm(const AdmState *s, int scale, const uint64_t accum[3])
{
    const AdmLevel *lv = &s->level[scale];
    double shift_to_real;
    if (scale == 0) {
        shift_to_real = pow(2, 18 - (int)lv->ref_row_shift);
    } else {
        static const unsigned frac_bits[3] = { 32, 27, 23 };
        shift_to_real = pow(2, (uint32_t)(frac_bits[scale - 1] - lv->ref_row_shift -
                                          lv->ref_cube_shift));
    }
    float norm[3];
    for (int b = 0; b < 3; b++) {
        const double csf = (double)(accum[b] / shift_to_real) * pow(lv->weight[b], 3);
        norm[b] = powf((float)csf, 1.0f / 3.0f) + lv->noise;
    }
    return norm[ADM_H] + norm[ADM_V] + norm[ADM_D];
}

/* ---- numerator: masked 3-norm ---- */

/* Masking row y: for each column, the sum over orientations of the weighted
 * band's |value| / 30 (what a neighbour contributes) and / 15 (what the
 * centre contributes), then the 3-wide horizontal sum of the former. Sums
 * are modular, as libvmaf's int32 sums are. */
static int masking_row(AdmState *s, int scale, int32_t *const mask[3], int y)
{
    const int slot = y % 3;
    if (s->mask_row_of[slot] == y) return slot;
    s->mask_row_of[slot] = y;

    const AdmLevel *lv = &s->level[scale];
    const AdmRegion g = lv->grown;
    uint32_t *sum = (uint32_t *)s->mask_sum[slot];
    vqx_adm_mask_terms(s, scale, mask, y, sum, (uint32_t *)s->mask_centre[slot]);
    /* the window's edge rule: column -1 reads 1, column w reads w - 1 */
    if (g.left == 0) sum[-1] = sum[1];
    if (g.right == lv->w) sum[lv->w] = sum[lv->w - 1];
    uint32_t *hsum = (uint32_t *)s->mask_hsum[slot];
    for (int j = lv->roi.left; j < lv->roi.right; j++)
        hsum[j] = sum[j - 1] + sum[j] + sum[j + 1];
    return slot;
}

void vqx_adm_mask_terms(const AdmState *s, int scale, int32_t *const mask[3], int y,
                        uint32_t *sum, uint32_t *centre)
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion g = lv->grown;
    for (int j = g.left; j < g.right; j++) sum[j] = centre[j] = 0;

    for (int b = 0; b < 3; b++) {
        const int32_t *src = mask[b] + y * s->stride;
        const uint32_t q = lv->q_weight[b];
        if (scale == 0) {
            static const unsigned shift[3] = { 15, 15, 17 };
            static const int32_t add[3] = { 16384, 16384, 65535 };
            for (int j = g.left; j < g.right; j++) {
                const int32_t weighted = (int16_t)(((int32_t)q * src[j] + add[b]) >> shift[b]);
                const int32_t m = abs32(weighted);
                sum[j] += (uint32_t)(int16_t)((ONE_BY_30_Q17 * m + 2048) >> 12);
                centre[j] += (uint32_t)(int16_t)((ONE_BY_15_Q17 * m + 2048) >> 12);
            }
        } else {
            /* libvmaf's rounding term here is (int32_t)(1u << 31), i.e. -2^31 */
            for (int j = g.left; j < g.right; j++) {
                const int32_t weighted = wrap32(((int64_t)q * src[j] + (1 << 27)) >> 28);
                const int64_t m = abs32(weighted);
                sum[j] += (uint32_t)wrap32((ONE_BY_30_Q32 * m + INT32_MIN) >> 32);
                centre[j] += (uint32_t)wrap32((ONE_BY_15_Q32 * m + INT32_MIN) >> 32);
            }
        }
    }
}

/* Fixed point of the masked energy. Level 0: x in Q27 (h, v) and Q29 (d)
 * against a masking sum shifted up by 10 and 12 bits; levels 1-3: x brought
 * to the masking's Q by a 28-bit shift. */
typedef struct MaskedFixedPoint {
    int64_t weight_add;
    unsigned weight_shift, thr_shift[3], sq_shift[3];
} MaskedFixedPoint;

static const MaskedFixedPoint masked_fixed_point[2] = {
    { 0, 0, { 10, 10, 12 }, { 29, 29, 30 } },
    { 1 << 27, 28, { 0, 0, 0 }, { 30, 30, 30 } },
};

void vqx_adm_masked_sums(AdmState *s, int scale, int32_t *const x[3], int32_t *const mask[3],
                         int64_t accum[3], int64_t (*rows)[3])
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion r = lv->roi;
    const int h = lv->h;
    const MaskedFixedPoint *p = &masked_fixed_point[scale > 0];
    int64_t cube_add[3];
    for (int b = 0; b < 3; b++) accum[b] = 0;
    for (int b = 0; b < 3; b++) cube_add[b] = round_half(lv->cube_shift[b]);
    const int64_t row_add = round_half(lv->row_shift);
    for (int k = 0; k < 3; k++) s->mask_row_of[k] = -1;

    for (int i = r.top; i < r.bottom; i++) {
        const int up = masking_row(s, scale, mask, i > 0 ? i - 1 : 1);
        const int mid = masking_row(s, scale, mask, i);
        const int down = masking_row(s, scale, mask, i < h - 1 ? i + 1 : h - 1);
        const uint32_t *hu = (const uint32_t *)s->mask_hsum[up];
        const uint32_t *hm = (const uint32_t *)s->mask_hsum[mid];
        const uint32_t *hd = (const uint32_t *)s->mask_hsum[down];
        const uint32_t *sm = (const uint32_t *)s->mask_sum[mid];
        const uint32_t *cm = (const uint32_t *)s->mask_centre[mid];
        /* eight neighbours at 1/30 and the centre at 1/15 */
        int32_t *thr = s->thr_row;
        for (int j = r.left; j < r.right; j++)
            thr[j] = (int32_t)(hu[j] + hm[j] + hd[j] - sm[j] + cm[j]);
        int64_t row[3] = { 0 };
        for (int b = 0; b < 3; b++) {
            const int32_t *src = x[b] + i * s->stride;
            const int64_t q = lv->q_weight[b];
            const unsigned thr_shift = p->thr_shift[b], sq_shift = p->sq_shift[b];
            const unsigned cube_shift = lv->cube_shift[b];
            /* what exceeds the masking, then its cube: in two loops, so that
             * level 0's first and most rows' second vectorise */
            uint32_t *excess = s->excess_row, wide = 0;
            if (scale == 0) {
                /* level 0 weights without a shift: the product modulo 2^32 */
                for (int j = r.left; j < r.right; j++) {
                    const uint32_t weighted = (uint32_t)src[j] * (uint32_t)q;
                    const int32_t m = (int32_t)(abs_by_mask((int32_t)weighted) -
                                                ((uint32_t)thr[j] << thr_shift));
                    excess[j] = m < 0 ? 0 : (uint32_t)m;
                    wide |= excess[j];
                }
            } else {
                for (int j = r.left; j < r.right; j++) {
                    const int32_t weighted = wrap32((src[j] * q + p->weight_add) >> p->weight_shift);
                    const int32_t m = (int32_t)(abs_by_mask(weighted) -
                                                ((uint32_t)thr[j] << thr_shift));
                    excess[j] = m < 0 ? 0 : (uint32_t)m;
                    wide |= excess[j];
                }
            }
            const uint64_t sq_add = (uint64_t)round_half(sq_shift);
            if (wide < (1u << 30)) {
                /* every m < 2^30: the square has at most 31 bits after its
                 * shift, so it does not wrap, and the cube's terms are
                 * unsigned 32 x 32-bit products; one loop each vectorises */
                uint32_t *square = s->square_row;
                for (int j = r.left; j < r.right; j++)
                    square[j] = (uint32_t)(((uint64_t)excess[j] * excess[j] + sq_add) >> sq_shift);
                uint64_t sum = 0;
                for (int j = r.left; j < r.right; j++)
                    sum += ((uint64_t)square[j] * excess[j] + (uint64_t)cube_add[b]) >> cube_shift;
                row[b] = (int64_t)sum;
            } else {
                for (int j = r.left; j < r.right; j++) {
                    const int64_t m = excess[j];
                    /* the square wraps at 32 bits in libvmaf */
                    const int32_t sq = wrap32((int64_t)((uint64_t)(m * m) + sq_add) >> sq_shift);
                    row[b] += (sq * m + cube_add[b]) >> cube_shift;
                }
            }
        }
        for (int b = 0; b < 3; b++) {
            if (rows) rows[i - r.top][b] = row[b];
            accum[b] += (row[b] + row_add) >> lv->row_shift;
        }
    }
}

/* Sum over the scored region of max(|weighted x| - masking, 0)^3 per
 * orientation, in libvmaf's fixed point, to a float 3-norm per orientation
 * plus the noise floor. */
static float masked_norm(AdmState *s, int scale, int32_t *const x[3], int32_t *const mask[3],
                         float noise)
{
    int64_t accum[3];
    vqx_adm_masked_sums(s, scale, x, mask, accum, NULL);
    return vqx_adm_masked_norm(s, scale, accum, noise);
}

float vqx_adm_masked_norm(const AdmState *s, int scale, const int64_t accum[3], float noise)
{
    const AdmLevel *lv = &s->level[scale];
    float norm[3];
    for (int b = 0; b < 3; b++) {
        float energy;
        if (scale == 0) {
            /* fractional bits: 3 * (6 + 21) - 29 (h, v), 3 * (6 + 23) - 30 (d) */
            const unsigned frac = b == ADM_D ? 57 : 52;
            energy = (float)(accum[b] / pow(2, (uint32_t)(frac - lv->cube_shift[b] - lv->row_shift)));
        } else {
            static const unsigned frac_bits[3] = { 45, 39, 36 };
            const float unit = (float)pow(2, (uint32_t)(frac_bits[scale - 1] - lv->cube_shift[b] -
                                                        lv->row_shift));
            energy = (float)accum[b] / unit;
        }
        norm[b] = powf(energy, 1.0f / 3.0f) + noise;
    }
    return norm[ADM_H] + norm[ADM_V] + norm[ADM_D];
}

/* ---- extractor ---- */

/* Combinations of values that each option's own check lets through; the
 * CUDA twin's state begins with AdmState, and the core checks it with this
 * function too. */
static int check_options(const void *state, char *err, size_t err_len)
{
    const AdmState *s = state;
    /* libvmaf's 16-bit pipeline cannot represent coarser angular resolutions */
    if (s->view_dist * s->display_height < DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT) {
        snprintf(err, err_len, "adm: adm_norm_view_dist * adm_ref_display_height must be at "
                 "least %g, not %g * %d", DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT,
                 s->view_dist, s->display_height);
        return -EINVAL;
    }
    if ((s->csf_mode == CSF_BLEND || s->csf_mode == CSF_BLEND_MAE) &&
        !vqx_adm_blend_has_table(s->view_dist, s->display_height)) {
        snprintf(err, err_len, "adm: adm_csf_mode=%d has no table for adm_norm_view_dist=%g "
                 "and adm_ref_display_height=%d (tables: %s)", s->csf_mode, s->view_dist,
                 s->display_height, vqx_adm_blend_tables);
        return -EINVAL;
    }
    return 0;
}

int vqx_adm_setup(AdmState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->w < ADM_MIN_SIDE || fmt->h < ADM_MIN_SIDE)
        return vqx_fail(sink, -EINVAL, "adm: %ux%u is too small; the 4-level DWT needs at least "
                        "%dx%d", fmt->w, fmt->h, ADM_MIN_SIDE, ADM_MIN_SIDE);

    s->w = (int)fmt->w;
    s->h = (int)fmt->h;
    s->bpc = fmt->bpc;
    s->cos_1deg_sq = (float)(cos(1.0 * PI / 180.0) * cos(1.0 * PI / 180.0));

    int w = s->w, h = s->h;
    for (int k = 0; k < ADM_SCALES; k++) {
        AdmLevel *lv = &s->level[k];
        lv->w = w = (w + 1) / 2;
        lv->h = h = (h + 1) / 2;
        lv->roi = vqx_adm_region(w, h);
        lv->grown = vqx_adm_region_grown(lv->roi, w, h);
        level_weights(s, k, lv->weight);
        const AdmRegion r = lv->roi;
        lv->noise = powf((float)((r.bottom - r.top) * (r.right - r.left) * s->noise_weight),
                         1.0f / 3.0f);
        if (k == 0) {
            const bool default_view =
                fabs(s->view_dist * s->display_height -
                     DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT) < 1.0e-8;
            for (int b = 0; b < 3; b++)
                lv->q_weight[b] = default_view && s->csf_mode == CSF_WATSON ? watson_default_q[b]
                    : double_to_u16(lv->weight[b] * pow(2, b == ADM_D ? 23 : 21));
            lv->cube_shift[ADM_H] = lv->cube_shift[ADM_V] = ceil_to_shift(log2(w) - 4);
            lv->cube_shift[ADM_D] = ceil_to_shift(log2(w) - 3);
        } else {
            for (int b = 0; b < 3; b++) {
                lv->q_weight[b] = double_to_u32(lv->weight[b] * pow(2, 32));
                lv->cube_shift[b] = ceil_to_shift(log2(w));
            }
        }
        lv->row_shift = ceil_to_shift(log2(h));
        if (k == 0) {
            /* keep 2^20 cubes of 16-bit values within 64 bits */
            const int shift = (int)ceil(log2((r.bottom - r.top) * (r.right - r.left)) - 20);
            lv->ref_row_shift = shift > 0 ? (unsigned)shift : 0;
            lv->ref_cube_shift = 0;
        } else {
            lv->ref_cube_shift = ceil_to_shift(log2(r.right - r.left));
            lv->ref_row_shift = ceil_to_shift(log2(r.bottom - r.top));
        }
    }
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    AdmState *s = priv;
    const int ret = vqx_adm_setup(s, fmt, sink);
    if (ret) return ret;

    /* one block: the angle row, 14 band planes, 2 pass rows, 9 ring rows,
     * 3 scratch rows, the reciprocal table, then the 16-bit rows: 4 input
     * rows, 2 pass rows */
    s->stride = (s->w + 1) / 2;
    const size_t plane = (size_t)s->stride * (size_t)((s->h + 1) / 2);
    const size_t ring = (size_t)s->stride + 2;
    const size_t pass = (size_t)s->w + 3;
    const size_t n32 = 14 * plane + 2 * pass + 9 * ring + 3 * (size_t)s->stride + 32769;
    const size_t n16 = 4 * (size_t)s->w + 2 * pass;
    /* the double row first, for its alignment */
    double *row = s->mem = malloc((size_t)s->stride * sizeof(double) + n32 * sizeof(int32_t) +
                                  n16 * sizeof(int16_t));
    if (!row) return vqx_fail(sink, -ENOMEM, "adm: out of memory");
    s->angle_row = row;
    int32_t *p = (int32_t *)(row + s->stride);
    s->ref_a = p, p += plane;
    s->dis_a = p, p += plane;
    for (int b = 0; b < 3; b++) {
        s->ref_band[b] = p, p += plane;
        s->dis_band[b] = p, p += plane;
        s->restored[b] = p, p += plane;
        s->additive[b] = p, p += plane;
    }
    s->lo = p + 1, p += pass;
    s->hi = p + 1, p += pass;
    for (int k = 0; k < 3; k++) {
        s->mask_sum[k] = p + 1, p += ring;
        s->mask_hsum[k] = p + 1, p += ring;
        s->mask_centre[k] = p + 1, p += ring;
    }
    s->thr_row = p, p += s->stride;
    s->excess_row = (uint32_t *)p, p += s->stride;
    s->square_row = (uint32_t *)p, p += s->stride;
    s->recip = p, p += 32769;
    s->recip[0] = 0;
    for (int i = 1; i <= 32768; i++) s->recip[i] = RECIP_Q30 / i;
    int16_t *q = (int16_t *)p;
    for (int k = 0; k < 4; k++) s->pix_rows[k] = q, q += s->w;
    s->lo16 = q + 1, q += pass;
    s->hi16 = q + 1;
    vqx_adm_dsp_init(&s->dsp, fmt->cpu_flags);
    return 0;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    AdmState *s = priv;
    float scale_num[ADM_SCALES], scale_den[ADM_SCALES], scale_aim[ADM_SCALES];

    for (int k = 0; k < ADM_SCALES; k++) {
        vqx_adm_dwt_level(s, k, ref, s->ref_a, s->ref_band);
        vqx_adm_dwt_level(s, k, dis, s->dis_a, s->dis_band);
        float num_k = 0.0f, den_k = 0.0f, aim_k = 0.0f;
        if (k == 0 && s->skip_scale0) {
            den_k = (float)1e-10; /* as libvmaf: scale0 = 0 / 1e-10 */
        } else {
            vqx_adm_decouple(s, k);
            uint64_t ref_sums[3];
            vqx_adm_reference_sums(s, k, ref_sums, NULL);
            den_k = vqx_adm_reference_norm(s, k, ref_sums);
            num_k = masked_norm(s, k, s->restored, s->additive, s->level[k].noise);
            if (!s->skip_aim)
                aim_k = masked_norm(s, k, s->additive, s->restored, 0.0f);
        }
        scale_num[k] = num_k;
        scale_den[k] = den_k;
        scale_aim[k] = aim_k;
    }
    return vqx_adm_emit(s, scale_num, scale_den, scale_aim, frame, sink);
}

int vqx_adm_emit(const AdmState *s, const float scale_num[ADM_SCALES],
                 const float scale_den[ADM_SCALES], const float scale_aim[ADM_SCALES],
                 unsigned frame, VqxSink *sink)
{
    double num = 0, den = 0, aim_num = 0;
    for (int k = 0; k < ADM_SCALES; k++) {
        num += scale_num[k];
        den += scale_den[k];
        aim_num += scale_aim[k];
    }

    const double limit = 1e-10 * (s->w * s->h) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    /* libvmaf leaves AIM unset when den is 0; vqx reports no impairment */
    const double score = den == 0.0 ? 1.0 : num / den;
    const double aim = den == 0.0 ? 0.0 : aim_num / den;
    const double adm3 = score * s->dlm_weight + (1 - aim) * (1 - s->dlm_weight);

    double num_d[ADM_SCALES], den_d[ADM_SCALES];
    for (int k = 0; k < ADM_SCALES; k++) {
        num_d[k] = scale_num[k];
        den_d[k] = scale_den[k];
    }
    return vqx_adm_emit_scores(sink, frame, s->debug, s->min_val, score, aim, adm3, num, den,
                               num_d, den_d);
}

int vqx_adm_emit_scores(VqxSink *sink, unsigned frame, bool debug, double min_val,
                        double score, double aim, double adm3, double num, double den,
                        const double scale_num[ADM_SCALES], const double scale_den[ADM_SCALES])
{
    int err = vqx_emit(sink, ADM_KEY_ADM2, frame, score);
    err |= vqx_emit(sink, ADM_KEY_AIM, frame, aim);
    err |= vqx_emit(sink, ADM_KEY_ADM3, frame, adm3 > min_val ? adm3 : min_val);
    for (int k = 0; k < ADM_SCALES; k++)
        err |= vqx_emit(sink, ADM_KEY_SCALE0 + k, frame, scale_num[k] / scale_den[k]);
    if (!debug) return err;
    err |= vqx_emit(sink, ADM_KEY_ADM, frame, score);
    err |= vqx_emit(sink, ADM_KEY_NUM, frame, num);
    err |= vqx_emit(sink, ADM_KEY_DEN, frame, den);
    for (int k = 0; k < ADM_SCALES; k++) {
        err |= vqx_emit(sink, ADM_KEY_NUM_SCALE0 + 2 * k, frame, scale_num[k]);
        err |= vqx_emit(sink, ADM_KEY_NUM_SCALE0 + 2 * k + 1, frame, scale_den[k]);
    }
    return err;
}

static void close_adm(void *priv)
{
    AdmState *s = priv;
    free(s->mem);
}

const VqxFeatureExtractor vqx_fex_adm = {
    .name = "adm",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_adm_keys,
    .options = vqx_adm_options,
    .state_size = sizeof(AdmState),
    .check_options = check_options,
    .init = init,
    .extract = extract,
    .close = close_adm,
};
