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
 * Layout: bands are int32 rows with the stride of level 0. The
 * approximation bands are planes, which each level overwrites in place;
 * extract() keeps the other bands in rings of the rows still read
 * (vqx_adm_level_sums), the staged functions (adm_fixed.h) in planes. The
 * masking runs row by row over three-row rings; extract() touches no
 * allocator. Every per-sample stage is an entry of AdmDSPContext
 * (adm_dsp.h); this file walks the rows and regions and keeps the
 * per-level constants.
 */
#include <errno.h>
#include <limits.h>
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

/* Level 0 weights at the default 3 H on 1080 lines, Watson CSF, from
 * libvmaf's integer ADM (integer_adm.h; Netflix, BSD+Patent). */
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

/* ---- conversions as libvmaf's C makes them ---- */

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

static AdmBands planes(int32_t *const plane[3])
{
    return (AdmBands){ { plane[0], plane[1], plane[2] }, INT_MAX };
}

static int32_t *band_row(const AdmState *s, const AdmBands *x, int b, int y)
{
    return x->b[b] + (ptrdiff_t)(y % x->rows) * s->stride;
}

/* Row y of picture p's luma (0: reference, 1: distorted), centred, from a
 * four-row cache. */
static const int16_t *picture_row(AdmState *s, const VqxPicture *pic, int p, int y)
{
    const int slot = y & 3;
    if (s->pix_row_of[p][slot] != y) {
        const void *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
        (s->bpc == 8 ? s->dsp.row_to_int_8 : s->dsp.row_to_int_16)(row, s->pix_rows[p][slot],
                                                                   s->w, s->bpc);
        s->pix_row_of[p][slot] = y;
    }
    return s->pix_rows[p][slot];
}

/* The input of a level's DWT: its size and the passes' rounding. */
typedef struct DwtLevel {
    int scale, w, h;
    AdmDwtRounding rnd;
} DwtLevel;

static DwtLevel dwt_level_of(const AdmState *s, int scale)
{
    return (DwtLevel){ .scale = scale, .w = scale ? s->level[scale - 1].w : s->w,
                       .h = scale ? s->level[scale - 1].h : s->h,
                       .rnd = adm_dwt_rounding(scale, s->bpc) };
}

/* Output row i of the DWT of picture p: reads the picture (level 0) or
 * rows 2i - 1 to 2i + 2 of the previous approximation band `a`, and writes
 * row i of `a` (no later row reads it) and of `band`. */
static void dwt_row(AdmState *s, const DwtLevel *d, const VqxPicture *pic, int p, int32_t *a,
                    const AdmBands *band, int i)
{
    const AdmDwtRounding *rnd = &d->rnd;
    const ptrdiff_t o = i * s->stride;
    int32_t *out_h = band_row(s, band, ADM_H, i), *out_v = band_row(s, band, ADM_V, i);
    int32_t *out_d = band_row(s, band, ADM_D, i);
    if (d->scale) {
        const int32_t *src[4];
        for (int k = 0; k < 4; k++)
            src[k] = a + vqx_mirror_hybrid(2 * i - 1 + k, d->h) * s->stride;
        s->dsp.dwt_vertical_32(src, d->w, rnd->v_add, rnd->v_shift, s->lo, s->hi);
        mirror_32(s->lo, s->hi, d->w);
        s->dsp.dwt_horizontal_32(s->lo, s->hi, d->w, rnd->h_add, rnd->h_shift, a + o, out_h,
                                 out_v, out_d);
    } else {
        const int16_t *src[4];
        for (int k = 0; k < 4; k++)
            src[k] = picture_row(s, pic, p, vqx_mirror_hybrid(2 * i - 1 + k, d->h));
        s->dsp.dwt_vertical_16(src, d->w, (int32_t)rnd->v_add, rnd->v_shift, s->lo16, s->hi16);
        mirror_16(s->lo16, s->hi16, d->w);
        s->dsp.dwt_horizontal_16(s->lo16, s->hi16, d->w, (int32_t)rnd->h_add, rnd->h_shift,
                                 a + o, out_h, out_v, out_d);
    }
}

void vqx_adm_dwt_level(AdmState *s, int scale, const VqxPicture *pic, int32_t *a,
                       int32_t *const band[3])
{
    const DwtLevel d = dwt_level_of(s, scale);
    const AdmBands out = planes(band);
    const int p = a == s->dis_a;
    for (int k = 0; k < 4; k++) s->pix_row_of[p][k] = -1;
    for (int i = 0; i < (d.h + 1) / 2; i++) dwt_row(s, &d, pic, p, a, &out, i);
}

/* ---- decoupling into restored and additive parts ---- */

static void decouple_row(const AdmState *s, int scale, const AdmBands *ref, const AdmBands *dis,
                         const AdmBands *restored, const AdmBands *additive, int i)
{
    const AdmRegion g = s->level[scale].grown;
    const int32_t *o[3], *t[3];
    int32_t *r[3], *a[3];
    for (int b = 0; b < 3; b++) {
        o[b] = band_row(s, ref, b, i) + g.left, t[b] = band_row(s, dis, b, i) + g.left;
        r[b] = band_row(s, restored, b, i) + g.left, a[b] = band_row(s, additive, b, i) + g.left;
    }
    s->dsp.decouple(o, t, g.right - g.left, s->recip, s->cos_1deg_sq, s->gain_limit, r, a);
}

void vqx_adm_decouple(AdmState *s, int scale)
{
    const AdmRegion g = s->level[scale].grown;
    const AdmBands ref = planes(s->ref_band), dis = planes(s->dis_band);
    const AdmBands restored = planes(s->restored), additive = planes(s->additive);
    for (int i = g.top; i < g.bottom; i++)
        decouple_row(s, scale, &ref, &dis, &restored, &additive, i);
}

/* ---- denominator: 3-norm of the CSF-weighted reference bands ---- */

/* Row y's sums (h, v, d) of the reference's cubes, before the row's shift. */
static void reference_row(const AdmState *s, int scale, const AdmBands *ref, int y,
                          uint64_t row[3])
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion r = lv->roi;
    const int w = r.right - r.left;
    for (int b = 0; b < 3; b++) {
        const int32_t *src = band_row(s, ref, b, y) + r.left;
        row[b] = scale ? s->dsp.reference_cubes_32(src, w, adm_reference_sq_shift(scale),
                                                   lv->ref_cube_shift)
                       : s->dsp.reference_cubes_16(src, w);
    }
}

static void add_reference_row(const AdmState *s, int scale, const uint64_t row[3],
                              uint64_t accum[3])
{
    const unsigned shift = s->level[scale].ref_row_shift;
    for (int b = 0; b < 3; b++) accum[b] += adm_round_row_u64(row[b], shift);
}

void vqx_adm_reference_sums(const AdmState *s, int scale, uint64_t accum[3],
                            uint64_t (*rows)[3])
{
    const AdmRegion r = s->level[scale].roi;
    const AdmBands ref = planes(s->ref_band);
    for (int b = 0; b < 3; b++) accum[b] = 0;
    for (int i = r.top; i < r.bottom; i++) {
        uint64_t row[3];
        reference_row(s, scale, &ref, i, row);
        if (rows) memcpy(rows[i - r.top], row, sizeof(row));
        add_reference_row(s, scale, row, accum);
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

static void mask_terms(const AdmState *s, int scale, const int32_t *const row[3], uint32_t *sum,
                       uint32_t *centre)
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion g = lv->grown;
    const int32_t *x[3] = { row[0] + g.left, row[1] + g.left, row[2] + g.left };
    (scale ? s->dsp.mask_terms_32 : s->dsp.mask_terms_16)(x, g.right - g.left, lv->q_weight,
                                                          sum + g.left, centre + g.left);
}

void vqx_adm_mask_terms(const AdmState *s, int scale, int32_t *const mask[3], int y,
                        uint32_t *sum, uint32_t *centre)
{
    const int32_t *row[3];
    for (int b = 0; b < 3; b++) row[b] = mask[b] + y * s->stride;
    mask_terms(s, scale, row, sum, centre);
}

/* Masking terms of row y of `mask` in ring slot y % 3, with the mirrored
 * entries the threshold's window reads: column -1 reads 1, column w reads
 * w - 1. */
static int masking_row(const AdmState *s, AdmMaskRing *ring, int scale, const AdmBands *mask, int y)
{
    const int slot = y % 3;
    if (ring->row_of[slot] == y) return slot;
    ring->row_of[slot] = y;

    const AdmLevel *lv = &s->level[scale];
    const AdmRegion g = lv->grown;
    uint32_t *sum = ring->sum[slot];
    const int32_t *row[3];
    for (int b = 0; b < 3; b++) row[b] = band_row(s, mask, b, y);
    mask_terms(s, scale, row, sum, ring->centre[slot]);
    if (g.left == 0) sum[-1] = sum[1];
    if (g.right == lv->w) sum[lv->w] = sum[lv->w - 1];
    return slot;
}

static void reset_ring(AdmMaskRing *ring)
{
    for (int k = 0; k < 3; k++) ring->row_of[k] = -1;
}

/* Row y's masked cubes (h, v, d) of x against the masking of `mask`
 * (rows y - 1 to y + 1, mirrored, through `ring`), before the row's shift. */
static void masked_row(AdmState *s, AdmMaskRing *ring, int scale, const AdmBands *x,
                       const AdmBands *mask, int y, int64_t row[3])
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion r = lv->roi;
    const int h = lv->h, w = r.right - r.left;
    const int up = masking_row(s, ring, scale, mask, y > 0 ? y - 1 : 1);
    const int mid = masking_row(s, ring, scale, mask, y);
    const int down = masking_row(s, ring, scale, mask, y < h - 1 ? y + 1 : h - 1);
    const uint32_t *sum[3] = { ring->sum[up] + r.left, ring->sum[mid] + r.left,
                               ring->sum[down] + r.left };
    uint32_t *thr = s->thr_row + r.left;
    s->dsp.mask_threshold(sum, ring->centre[mid] + r.left, w, thr);
    for (int b = 0; b < 3; b++)
        row[b] = (scale ? s->dsp.masked_cubes_32 : s->dsp.masked_cubes_16)(
            band_row(s, x, b, y) + r.left, thr, w, lv->q_weight[b],
            adm_masked_thr_shift(scale, b), adm_masked_sq_shift(scale, b), lv->cube_shift[b]);
}

static void add_masked_row(const AdmState *s, int scale, const int64_t row[3],
                           int64_t accum[3])
{
    const unsigned shift = s->level[scale].row_shift;
    for (int b = 0; b < 3; b++) accum[b] += adm_round_row(row[b], shift);
}

void vqx_adm_masked_sums(AdmState *s, int scale, int32_t *const x[3], int32_t *const mask[3],
                         int64_t accum[3], int64_t (*rows)[3])
{
    const AdmRegion r = s->level[scale].roi;
    const AdmBands xb = planes(x), maskb = planes(mask);
    reset_ring(&s->mask[0]);
    for (int b = 0; b < 3; b++) accum[b] = 0;
    for (int i = r.top; i < r.bottom; i++) {
        int64_t row[3];
        masked_row(s, &s->mask[0], scale, &xb, &maskb, i, row);
        if (rows) memcpy(rows[i - r.top], row, sizeof(row));
        add_masked_row(s, scale, row, accum);
    }
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

    /* one block: 14 band planes (extract() uses the approximations' only;
     * the others serve the staged functions), 30 band ring rows, 2 pass
     * rows, 12 masking ring rows, the threshold row, the reciprocal table,
     * then the 16-bit rows: 8 input rows, 2 pass rows */
    s->stride = (s->w + 1) / 2;
    const size_t plane = (size_t)s->stride * (size_t)((s->h + 1) / 2);
    const size_t ring = (size_t)s->stride + 2;
    const size_t pass = (size_t)s->w + 3;
    const size_t n32 = 14 * plane + 31 * (size_t)s->stride + 2 * pass + 12 * ring + 32769;
    const size_t n16 = 8 * (size_t)s->w + 2 * pass;
    int32_t *p = s->mem = malloc(n32 * sizeof(int32_t) + n16 * sizeof(int16_t));
    if (!p) return vqx_fail(sink, -ENOMEM, "adm: out of memory");
    s->ref_a = p, p += plane;
    s->dis_a = p, p += plane;
    for (int b = 0; b < 3; b++) {
        s->ref_band[b] = p, p += plane;
        s->dis_band[b] = p, p += plane;
        s->restored[b] = p, p += plane;
        s->additive[b] = p, p += plane;
    }
    for (int k = 0; k < 4; k++) {
        /* the DWT's rows (reference, distorted), then the decoupled parts' */
        s->ring[k].rows = k < 2 ? 2 : 3;
        for (int b = 0; b < 3; b++) s->ring[k].b[b] = p, p += s->ring[k].rows * s->stride;
    }
    s->lo = p + 1, p += pass;
    s->hi = p + 1, p += pass;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++) {
            s->mask[m].sum[k] = (uint32_t *)p + 1, p += ring;
            s->mask[m].centre[k] = (uint32_t *)p + 1, p += ring;
        }
    s->thr_row = (uint32_t *)p, p += s->stride;
    s->recip = p, p += 32769;
    for (int i = 0; i <= 32768; i++) s->recip[i] = adm_reciprocal((uint32_t)i);
    int16_t *q = (int16_t *)p;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 4; k++) s->pix_rows[m][k] = q, q += s->w;
    s->lo16 = q + 1, q += pass;
    s->hi16 = q + 1;
    vqx_adm_dsp_init(&s->dsp, fmt->cpu_flags);
    return 0;
}

/* Each output row of the DWT is decoupled at once, and each scored row
 * summed once the masking rows below it exist. The bands live in rings of
 * the rows still read (2 of the DWT's, 3 of the decoupled parts, whose
 * masking window reaches a row back and ahead), so that the stages work in
 * cache. */
void vqx_adm_level_sums(AdmState *s, int scale, const VqxPicture *ref, const VqxPicture *dis,
                        AdmLevelSums *sums)
{
    const AdmLevel *lv = &s->level[scale];
    const AdmRegion g = lv->grown, r = lv->roi;
    const DwtLevel d = dwt_level_of(s, scale);
    memset(sums, 0, sizeof(*sums));
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 4; k++) s->pix_row_of[p][k] = -1;
    reset_ring(&s->mask[0]);
    reset_ring(&s->mask[1]);
    const AdmBands *rb = &s->ring[0], *db = &s->ring[1];
    const AdmBands *restored = &s->ring[2], *additive = &s->ring[3];
    for (int i = 0; i <= lv->h; i++) {
        if (i < lv->h) {
            dwt_row(s, &d, ref, 0, s->ref_a, rb, i);
            dwt_row(s, &d, dis, 1, s->dis_a, db, i);
            if (i >= g.top && i < g.bottom) decouple_row(s, scale, rb, db, restored, additive, i);
        }
        /* row y's masking window reaches row y + 1 */
        const int y = i - 1;
        if (y < r.top || y >= r.bottom) continue;
        uint64_t ref_row[3];
        int64_t row[3];
        reference_row(s, scale, rb, y, ref_row);
        add_reference_row(s, scale, ref_row, sums->ref);
        masked_row(s, &s->mask[0], scale, restored, additive, y, row);
        add_masked_row(s, scale, row, sums->num);
        if (s->skip_aim) continue;
        masked_row(s, &s->mask[1], scale, additive, restored, y, row);
        add_masked_row(s, scale, row, sums->aim);
    }
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    AdmState *s = priv;
    float scale_num[ADM_SCALES], scale_den[ADM_SCALES], scale_aim[ADM_SCALES];

    for (int k = 0; k < ADM_SCALES; k++) {
        float num_k = 0.0f, den_k = 0.0f, aim_k = 0.0f;
        if (k == 0 && s->skip_scale0) {
            vqx_adm_dwt_level(s, k, ref, s->ref_a, s->ref_band);
            vqx_adm_dwt_level(s, k, dis, s->dis_a, s->dis_band);
            den_k = (float)1e-10; /* as libvmaf: scale0 = 0 / 1e-10 */
        } else {
            AdmLevelSums sums;
            vqx_adm_level_sums(s, k, ref, dis, &sums);
            den_k = vqx_adm_reference_norm(s, k, sums.ref);
            num_k = vqx_adm_masked_norm(s, k, sums.num, s->level[k].noise);
            if (!s->skip_aim) aim_k = vqx_adm_masked_norm(s, k, sums.aim, 0.0f);
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
