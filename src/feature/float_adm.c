/*
 * ADM in single precision, as libvmaf's float_adm (adm.c, adm_tools.c): the
 * same decomposition as the integer ADM (see adm.c), with libvmaf's float
 * operation order, its double-precision steps, and its division by a
 * reciprocal estimate refined by one Newton step. Options beyond the
 * integer extractor's: p-norm, CM bypass, per-level weight overrides,
 * harmonic-mean adm3, skipping one level's AIM.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "feature/adm_csf.h"
#include "feature/float_adm.h"
#include "feature/float_adm_pixel.h"
#include "feature/float_picture.h"

#define PI 3.14159265358979323846
#define CSF_LUMINANCE 100.0

enum FloatAdmCsfMode { CSF_WATSON = 0, CSF_BARTEN = 1, CSF_NATIVE = 2 };

/* Constants of libvmaf's float ADM (adm_tools.c; Netflix, BSD+Patent),
 * written with double literals as there. */
const float vqx_float_adm_db2_lo[4] = { 0.482962913144690, 0.836516303737469, 0.224143868041857,
                                 -0.129409522550921 };
const float vqx_float_adm_db2_hi[4] = { -0.129409522550921, -0.224143868041857, 0.836516303737469,
                                 -0.482962913144690 };

const char *const vqx_float_adm_keys[] = {
    "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
    "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score",
    "adm", "adm_num", "adm_den",
    "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3",
    NULL
};

#define OPT(field) .offset = offsetof(FloatAdmState, field)
#define WEIGHT_OPT(name_, help_, which, scale)                                          \
    { .name = "adm_" name_, .alias = name_, .help = help_, .type = VQX_OPT_DOUBLE,     \
      OPT(weight_override[which][scale]), .def.d = -1.0, .min = -1.0, .max = 10.0,     \
      .flags = VQX_OPT_NAMES_KEY }
/* libvmaf takes 0..9 and runs Watson for all but 1 and 2 */
static const double csf_modes[] = { CSF_WATSON, CSF_BARTEN, CSF_NATIVE };

const VqxOption vqx_float_adm_options[] = {
    { .name = "debug", .help = "also write numerators and denominators",
      .type = VQX_OPT_BOOL, OPT(debug), .def.b = false },
    { .name = "adm_enhn_gain_limit", .alias = "egl",
      .help = "largest enhancement gain credited, >= 1; 1 disables enhancement",
      .type = VQX_OPT_DOUBLE, OPT(gain_limit), .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_norm_view_dist", .alias = "nvd",
      .help = "viewing distance over display height",
      .type = VQX_OPT_DOUBLE, OPT(view_dist), .def.d = 3.0, .min = 0.75, .max = 24.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_noise_weight", .alias = "nw", .help = "weight of the noise floor",
      .type = VQX_OPT_DOUBLE, OPT(noise_weight), .def.d = 0.03125, .min = 0.0, .max = 1500.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_csf_scale", .alias = "scf", .help = "scale of the CSF (adm_csf_mode=1)",
      .type = VQX_OPT_DOUBLE, OPT(csf_scale), .def.d = 1.0, .min = 0.0, .max = 50.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_csf_diag_scale", .alias = "scfd",
      .help = "scale of the CSF's diagonal term (adm_csf_mode=1)",
      .type = VQX_OPT_DOUBLE, OPT(csf_diag_scale), .def.d = 1.0, .min = 0.0, .max = 50.0,
      .flags = VQX_OPT_NAMES_KEY },
    /* libvmaf's float_adm names this alias rdf */
    { .name = "adm_ref_display_height", .alias = "rdf",
      .help = "reference display height in pixels",
      .type = VQX_OPT_INT, OPT(display_height), .def.i = 1080, .min = 1, .max = 4320,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_csf_mode", .alias = "csf",
      .help = "CSF: 0 Watson, 1 Barten, 2 the DLM paper's",
      .type = VQX_OPT_INT, OPT(csf_mode), .def.i = CSF_WATSON, .values = csf_modes,
      .n_values = sizeof(csf_modes) / sizeof(csf_modes[0]), .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_bypass_cm", .alias = "bcm", .help = "1: no contrast masking",
      .type = VQX_OPT_INT, OPT(bypass_cm), .def.i = 0, .min = 0, .max = 1,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_adm3_apply_hm", .alias = "aah",
      .help = "adm3 as the harmonic mean of DLM and AIM",
      .type = VQX_OPT_BOOL, OPT(adm3_harmonic), .def.b = false, .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_p_norm", .alias = "apn", .help = "norm of the band energies",
      .type = VQX_OPT_DOUBLE, OPT(p_norm), .def.d = 3.0, .min = 1.0, .max = 20.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_dlm_weight", .alias = "dlmw",
      .help = "weight of DLM against AIM in adm3; 1 is DLM only",
      .type = VQX_OPT_DOUBLE, OPT(dlm_weight), .def.d = 0.5, .min = 0.0, .max = 1.0,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_min_val", .alias = "min", .help = "lower bound of adm3",
      .type = VQX_OPT_DOUBLE, OPT(min_val), .def.d = 0.0, .min = 0.0, .max = 1.0,
      .flags = VQX_OPT_NAMES_KEY },
    WEIGHT_OPT("f1s0", "weight of the h and v bands at level 0 (-1: from the CSF)", 0, 0),
    WEIGHT_OPT("f1s1", "weight of the h and v bands at level 1", 0, 1),
    WEIGHT_OPT("f1s2", "weight of the h and v bands at level 2", 0, 2),
    WEIGHT_OPT("f1s3", "weight of the h and v bands at level 3", 0, 3),
    WEIGHT_OPT("f2s0", "weight of the d band at level 0 (-1: from the CSF)", 1, 0),
    WEIGHT_OPT("f2s1", "weight of the d band at level 1", 1, 1),
    WEIGHT_OPT("f2s2", "weight of the d band at level 2", 1, 2),
    WEIGHT_OPT("f2s3", "weight of the d band at level 3", 1, 3),
    { .name = "adm_skip_aim_scale", .alias = "sasc", .help = "leave this level out of AIM",
      .type = VQX_OPT_INT, OPT(skip_aim_scale), .def.i = -1, .min = 0, .max = 3,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "adm_skip_scale0", .alias = "ssz", .help = "skip level 0",
      .type = VQX_OPT_BOOL, OPT(skip_scale0), .def.b = false, .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

/* libvmaf divides by an SSE reciprocal estimate (RCPSS) refined by one
 * Newton-Raphson step, and the estimate differs between CPU vendors. The
 * goldens come from AMD Zen, whose estimate of x in [1, 2) is
 * (4096 + t) / 8192 with t a function of the top 12 mantissa bits of x.
 * The table, measured on that CPU, is given as the decrease of t from one
 * entry to the next, starting from 4095; the estimate scales exactly with
 * the exponent of x. */
static const char amd_rcp_steps[] =
    "1212222222122222421222222212222232122222221222224212222222122222"
    "2212222222122222321222222212222232122222221222222212222222122222"
    "2212222222122222221222222212222222122222221222221212222222122222"
    "1212222222122222121222222212222212122222221222221212222222122222"
    "2122122122122122312212212212212231221221221221222122122122122122"
    "3122122122122122212212212212212221221221221221222122122122122122"
    "2122122122122122212212212212212211221221221221221122122122122122"
    "1122122122122122112212212212212211221221221221220122122122122122"
    "2121121212121212312112121212121231211212121212123121121212121212"
    "2121121212121212312112121212121221211212121212122121121212121212"
    "2121121212121212212112121212121211211212121212122121121212121212"
    "1121121212121212112112121212121211211212121212121121121212121212"
    "2112112112112112211211211211211231121121121121122112112112112112"
    "2112112112112112211211211211211221121121121121122112112112112112"
    "1112112112112112211211211211211211121121121121121112112112112112"
    "1112112112112112111211211211211211121121121121120112112112112112"
    "2111121112111121211112111211112121111211121111212111121112111121"
    "2111121112111121211112111211112121111211121111211111121112111121"
    "2111121112111121111112111211112121111211121111211111121112111121"
    "1111121112111121111112111211112111111211121111210111121112111121"
    "1112111111112111111211111111211121121111111121111112111111112111"
    "1112111111112111111211111111211111121111111121111112111111112111"
    "1112111111112111011211111111211111121111111121110112111111112111"
    "1112111111112111011211111111211101121111111121110112111111112111"
    "1111111111111111211111111111111111111111111111112111111111111111"
    "2111111111111111111111111111111111111111111111112111111111111111"
    "1111111111111111111111111111111111111111111111111111111111111111"
    "1111111111111111011111111111111111111111111111111111111111111111"
    "1111110111111111111111011111111121111101111111111111110111111111"
    "1111110111111111111111011111111111111101111111111111110111111111"
    "1111110111111111111111011111111101111101111111111111110111111111"
    "0111110111111111111111011111111101111101111111111111110111111111"
    "0110111111011111111011111101111121101111110111111110111111011111"
    "0110111111011111111011111101111111101111110111111110111111011111"
    "0110111111011111111011111101111111101111110111110110111111011111"
    "0110111111011111111011111101111101101111110111110110111111011111"
    "1101111011110111110111101111011111011110111101111101111011110111"
    "0101111011110111110111101111011111011110111101111101111011110111"
    "0101111011110111110111101111011101011110111101111101111011110111"
    "0101111011110111010111101111011111011110111101110101111011110111"
    "0110110111011101111011011101110111101101110111011110110111011101"
    "1110110111011101111011011101110111101101110111010110110111011101"
    "1110110111011101111011011101110101101101110111011110110111011101"
    "0110110111011101111011011101110101101101110111010110110111011101"
    "1101101101101101110110110110110111011011011011011101101101101101"
    "1101101101101101110110110110110111011011011011011101101101101101"
    "1101101101101101110110110110110111011011011011010101101101101101"
    "1101101101101101010110110110110111011011011011011101101101101101"
    "1011010110110101101101011011010110110101101101012011010110110101"
    "1011010110110101101101011011010110110101101101011011010110110101"
    "2011010110110101101101011011010110110101101101011011010110110101"
    "0011010110110101101101011011010110110101101101011011010110110101"
    "1011010110101101001101011010110110110101101011011011010110101101"
    "0011010110101101101101011010110100110101101011011011010110101101"
    "0011010110101101101101011010110100110101101011010011010110101101"
    "0011010110101101101101011010110100110101101011010011010110101101"
    "1010101011010101101010101101010110101010110101011010101011010101"
    "1010101011010101101010101101010100101010110101011010101011010101"
    "1010101011010101101010101101010110101010110101010010101011010101"
    "1010101011010101101010101101010100101010110101011010101011010101"
    "0010101101010101101010110101010100101011010101011010101101010101"
    "0010101101010101001010110101010110101011010101010010101101010101"
    "0010101101010101001010110101010110101011010101010010101101010101"
    "0010101101010101001010110101010100101011010101010010101101010101";

/* the estimate's mantissa bits, in place for float_adm_dsp.c */
static void reciprocal_table_init(uint32_t table[FLOAT_ADM_RECIP_ENTRIES])
{
    int t = 4095;
    for (int i = 0; i < FLOAT_ADM_RECIP_ENTRIES; i++) {
        t -= amd_rcp_steps[i] - '0';
        table[i] = (uint32_t)t << 11;
    }
}

static void level_weights(const FloatAdmState *s, int scale, float weight[3])
{
    float hv, diag;
    if (s->csf_mode == CSF_BARTEN) {
        hv = vqx_adm_barten_weight(scale, s->view_dist, s->display_height, CSF_LUMINANCE,
                                   s->csf_scale);
        diag = vqx_adm_barten_weight(scale, s->view_dist, s->display_height, CSF_LUMINANCE,
                                     s->csf_diag_scale);
    } else if (s->csf_mode == CSF_NATIVE) {
        hv = vqx_adm_native_weight(scale, false, s->view_dist, s->display_height);
        diag = vqx_adm_native_weight(scale, true, s->view_dist, s->display_height);
    } else {
        hv = vqx_adm_watson_weight(scale, false, s->view_dist, s->display_height);
        diag = vqx_adm_watson_weight(scale, true, s->view_dist, s->display_height);
    }
    if (s->weight_override[0][scale] >= 0) hv = (float)s->weight_override[0][scale];
    if (s->weight_override[1][scale] >= 0) diag = (float)s->weight_override[1][scale];
    weight[ADM_H] = weight[ADM_V] = hv;
    weight[ADM_D] = diag;
}

static inline float noise_floor(const AdmRegion *r, double weight, double p)
{
    return powf((float)((r->right - r->left) * (r->bottom - r->top) * weight),
                (float)(1.0f / p));
}

/* ---- DWT ---- */

static void dwt_row(const float *const src[4], int w, float *lo, float *hi,
                    float *a, float *h, float *v, float *d)
{
    for (int j = 0; j < w; j++) {
        lo[j] = vqx_float_adm_taps(vqx_float_adm_db2_lo, src[0][j], src[1][j], src[2][j], src[3][j]);
        hi[j] = vqx_float_adm_taps(vqx_float_adm_db2_hi, src[0][j], src[1][j], src[2][j], src[3][j]);
    }
    lo[-1] = lo[1], lo[w] = lo[w - 1], lo[w + 1] = lo[w - 2];
    hi[-1] = hi[1], hi[w] = hi[w - 1], hi[w + 1] = hi[w - 2];
    for (int j = 0; j < (w + 1) / 2; j++) {
        const float *p = lo + 2 * j - 1, *q = hi + 2 * j - 1;
        a[j] = vqx_float_adm_taps(vqx_float_adm_db2_lo, p[0], p[1], p[2], p[3]);
        v[j] = vqx_float_adm_taps(vqx_float_adm_db2_hi, p[0], p[1], p[2], p[3]);
        h[j] = vqx_float_adm_taps(vqx_float_adm_db2_lo, q[0], q[1], q[2], q[3]);
        d[j] = vqx_float_adm_taps(vqx_float_adm_db2_hi, q[0], q[1], q[2], q[3]);
    }
}

static const float *picture_row(FloatAdmState *s, const VqxPicture *pic, int y)
{
    const int slot = y & 3;
    if (s->pix_row_of[slot] != y) {
        vqx_float_rows(&s->pic_dsp, s->pix_rows[slot], 0, pic, 0, (unsigned)y, 1, -128.0f);
        s->pix_row_of[slot] = y;
    }
    return s->pix_rows[slot];
}

static void dwt_level(FloatAdmState *s, int scale, const VqxPicture *pic, float *a,
                      float *const band[3])
{
    const int w = scale ? s->level[scale - 1].w : s->w;
    const int h = scale ? s->level[scale - 1].h : s->h;
    for (int k = 0; k < 4; k++) s->pix_row_of[k] = -1;
    for (int i = 0; i < (h + 1) / 2; i++) {
        const float *src[4];
        for (int k = 0; k < 4; k++) {
            const int y = vqx_mirror_hybrid(2 * i - 1 + k, h);
            src[k] = scale ? a + y * s->stride : picture_row(s, pic, y);
        }
        const ptrdiff_t o = i * s->stride;
        dwt_row(src, w, s->lo, s->hi, a + o, band[ADM_H] + o, band[ADM_V] + o,
                band[ADM_D] + o);
    }
}

/* ---- decoupling ---- */

static void decouple(FloatAdmState *s, const FloatAdmLevel *lv)
{
    const AdmRegion g = lv->grown;
    for (int i = g.top; i < g.bottom; i++) {
        const ptrdiff_t o = i * s->stride + g.left;
        const float *const ref[3] = { s->ref_band[0] + o, s->ref_band[1] + o, s->ref_band[2] + o };
        const float *const dis[3] = { s->dis_band[0] + o, s->dis_band[1] + o, s->dis_band[2] + o };
        float *const restored[3] = { s->restored[0] + o, s->restored[1] + o, s->restored[2] + o };
        float *const additive[3] = { s->additive[0] + o, s->additive[1] + o, s->additive[2] + o };
        s->dsp.decouple_row(ref, dis, g.right - g.left, &s->decouple, restored, additive);
    }
}

/* ---- denominator ---- */

static void reference_sums(const FloatAdmState *s, const FloatAdmLevel *lv, float accum[3])
{
    const AdmRegion r = lv->roi;
    accum[0] = accum[1] = accum[2] = 0;
    for (int i = r.top; i < r.bottom; i++) {
        float row[3] = { 0, 0, 0 };
        const ptrdiff_t o = i * s->stride + r.left;
        if (s->p_norm == 3.0) {
            /* libvmaf cubes by products, other p by powf; |w x| - 0 raised
             * to 0 is |w x|: the masked sums with no threshold */
            const float *const x[3] = { s->ref_band[0] + o, s->ref_band[1] + o,
                                        s->ref_band[2] + o };
            s->dsp.cube_sums(x, lv->weight, s->zero_row, r.right - r.left, row);
        } else {
            for (int j = 0; j < r.right - r.left; j++)
                for (int b = 0; b < 3; b++)
                    row[b] += powf(fabsf(lv->weight[b] * s->ref_band[b][o + j]),
                                   (float)s->p_norm);
        }
        for (int b = 0; b < 3; b++) accum[b] += row[b];
    }
}

/* A level's norm from its sums: the p-th root of each band's plus the noise
 * floor, added over the bands. */
static float level_norm(const FloatAdmState *s, const FloatAdmLevel *lv, const float accum[3],
                        double noise_weight)
{
    const float noise = noise_floor(&lv->roi, noise_weight, s->p_norm);
    float norm[3];
    for (int b = 0; b < 3; b++)
        norm[b] = powf(accum[b], (float)(1.0f / s->p_norm)) + noise;
    return norm[ADM_H] + norm[ADM_V] + norm[ADM_D];
}

/* ---- numerator ---- */

/* Masking row y: per orientation, |weighted band| and its 1/30 share, with
 * the window's edge columns (-1 reads 1, w reads w - 1). */
static int masking_row(FloatAdmState *s, const FloatAdmLevel *lv, float *const band[3], int y)
{
    const int slot = y % 3;
    if (s->mask_row_of[slot] == y) return slot;
    s->mask_row_of[slot] = y;
    const AdmRegion g = lv->grown;
    for (int b = 0; b < 3; b++) {
        const float *src = band[b] + y * s->stride;
        float *m = s->mask[b][slot], *a = s->mask_abs[b][slot];
        for (int j = g.left; j < g.right; j++) {
            a[j] = fabsf(lv->weight[b] * src[j]);
            m[j] = vqx_float_adm_mask(a[j]);
        }
        if (g.left == 0) m[-1] = m[1];
        if (g.right == lv->w) m[lv->w] = m[lv->w - 1];
    }
    return slot;
}

static void masked_sums(FloatAdmState *s, const FloatAdmLevel *lv, float *const x[3],
                        float *const mask[3], float accum[3])
{
    const AdmRegion r = lv->roi;
    const int h = lv->h;
    accum[0] = accum[1] = accum[2] = 0;
    for (int k = 0; k < 3; k++) s->mask_row_of[k] = -1;

    for (int i = r.top; i < r.bottom; i++) {
        const int up = masking_row(s, lv, mask, i > 0 ? i - 1 : 1);
        const int mid = masking_row(s, lv, mask, i);
        const int down = masking_row(s, lv, mask, i < h - 1 ? i + 1 : h - 1);
        /* the masking threshold of the row first: a loop the compiler can
         * run on several columns at once */
        float *thr = s->thr_row;
        for (int j = r.left; j < r.right; j++) thr[j] = 0.0f;
        if (!s->bypass_cm) {
            /* per orientation, in libvmaf's order: the row above, the centre
             * row with the centre at 1/15 (added in double), the row below */
            for (int b = 0; b < 3; b++) {
                const float *u = s->mask[b][up], *m = s->mask[b][mid], *d = s->mask[b][down];
                const float *c = s->mask_abs[b][mid];
                for (int j = r.left; j < r.right; j++)
                    thr[j] += vqx_float_adm_window(u + j - 1, m + j - 1, d + j - 1, c[j]);
            }
        }
        float row[3] = { 0, 0, 0 };
        const ptrdiff_t o = i * s->stride;
        if (s->p_norm == 3.0) { /* by products, as libvmaf */
            const float *const rows[3] = { x[0] + o + r.left, x[1] + o + r.left,
                                           x[2] + o + r.left };
            s->dsp.cube_sums(rows, lv->weight, thr + r.left, r.right - r.left, row);
        } else {
            for (int b = 0; b < 3; b++) {
                for (int j = r.left; j < r.right; j++) {
                    float v = fabsf(x[b][o + j] * lv->weight[b]) - thr[j];
                    v = v < 0.0f ? 0.0f : v;
                    row[b] += powf(v, (float)s->p_norm);
                }
            }
        }
        for (int b = 0; b < 3; b++) accum[b] += row[b];
    }
}

/* ---- extractor ---- */

int vqx_float_adm_setup(FloatAdmState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->w < FLOAT_ADM_MIN_SIDE || fmt->h < FLOAT_ADM_MIN_SIDE)
        return vqx_fail(sink, -EINVAL, "float_adm: %ux%u is too small; the 4-level DWT needs "
                        "at least %dx%d", fmt->w, fmt->h, FLOAT_ADM_MIN_SIDE, FLOAT_ADM_MIN_SIDE);
    s->w = (int)fmt->w;
    s->h = (int)fmt->h;
    s->bpc = fmt->bpc;
    reciprocal_table_init(s->recip_table);
    s->decouple = (FloatAdmDecoupleParams){
        .recip = s->recip_table, .eps = (float)1e-30,
        .cos_1deg_sq = (float)(cos(1.0 * PI / 180.0) * cos(1.0 * PI / 180.0)),
        .gain_limit = s->gain_limit };
    vqx_float_adm_dsp_init(&s->dsp, fmt->cpu_flags);
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);

    int w = s->w, h = s->h;
    for (int k = 0; k < ADM_SCALES; k++) {
        FloatAdmLevel *lv = &s->level[k];
        lv->w = w = (w + 1) / 2;
        lv->h = h = (h + 1) / 2;
        lv->roi = vqx_adm_region(w, h);
        lv->grown = vqx_adm_region_grown(lv->roi, w, h);
        level_weights(s, k, lv->weight);
    }
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    FloatAdmState *s = priv;
    const int ret = vqx_float_adm_setup(s, fmt, sink);
    if (ret) return ret;
    s->stride = (s->w + 1) / 2;
    const size_t plane = (size_t)s->stride * (size_t)((s->h + 1) / 2);
    const size_t ring = (size_t)s->stride + 2;
    const size_t pass = (size_t)s->w + 3;
    const size_t n = 14 * plane + 4 * (size_t)s->w + 2 * pass + 18 * ring + 2 * (size_t)s->stride;
    float *p = s->mem = malloc(n * sizeof(float));
    if (!p) return vqx_fail(sink, -ENOMEM, "float_adm: out of memory");
    s->ref_a = p, p += plane;
    s->dis_a = p, p += plane;
    for (int b = 0; b < 3; b++) {
        s->ref_band[b] = p, p += plane;
        s->dis_band[b] = p, p += plane;
        s->restored[b] = p, p += plane;
        s->additive[b] = p, p += plane;
    }
    for (int k = 0; k < 4; k++) s->pix_rows[k] = p, p += s->w;
    s->lo = p + 1, p += pass;
    s->hi = p + 1, p += pass;
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 3; k++) {
            s->mask[b][k] = p + 1, p += ring;
            s->mask_abs[b][k] = p + 1, p += ring;
        }
    }
    s->thr_row = p, p += s->stride;
    s->zero_row = p;
    memset(s->zero_row, 0, (size_t)s->stride * sizeof(float));
    return 0;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    FloatAdmState *s = priv;
    FloatAdmLevelSums sums[ADM_SCALES];
    for (int k = 0; k < ADM_SCALES; k++) {
        const FloatAdmLevel *lv = &s->level[k];
        dwt_level(s, k, ref, s->ref_a, s->ref_band);
        dwt_level(s, k, dis, s->dis_a, s->dis_band);
        if (k == 0 && s->skip_scale0) continue;
        decouple(s, lv);
        reference_sums(s, lv, sums[k][FLOAT_ADM_DEN]);
        masked_sums(s, lv, s->restored, s->additive, sums[k][FLOAT_ADM_NUM]);
        masked_sums(s, lv, s->additive, s->restored, sums[k][FLOAT_ADM_AIM]);
    }
    return vqx_float_adm_emit(s, sums, frame, sink);
}

int vqx_float_adm_emit(const FloatAdmState *s, const FloatAdmLevelSums sums[ADM_SCALES],
                       unsigned frame, VqxSink *sink)
{
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    double scale_num[ADM_SCALES], scale_den[ADM_SCALES];
    for (int k = 0; k < ADM_SCALES; k++) {
        const FloatAdmLevel *lv = &s->level[k];
        float num_k = 0.0f, den_k, aim_k = 0.0f;
        if (k == 0 && s->skip_scale0) {
            den_k = (float)1e-10; /* as libvmaf: scale0 = 0 / 1e-10 */
        } else {
            den_k = level_norm(s, lv, sums[k][FLOAT_ADM_DEN], s->noise_weight);
            num_k = level_norm(s, lv, sums[k][FLOAT_ADM_NUM], s->noise_weight);
            aim_k = level_norm(s, lv, sums[k][FLOAT_ADM_AIM], 0.0);
        }
        num += num_k;
        den += den_k;
        if (k != s->skip_aim_scale) {
            aim_den += den_k;
            aim_num += aim_k;
        }
        scale_num[k] = num_k;
        scale_den[k] = den_k;
    }

    const double limit = 1e-10 * (s->w * s->h) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    double score = 1.0, aim = 0.0; /* libvmaf leaves AIM unset when den is 0 */
    if (den != 0.0) {
        const double ratio = aim_num / aim_den;
        aim = ratio < 1.0f ? ratio : 1.0f;
        score = num / den;
    }
    const double adm3 = s->adm3_harmonic ? 2 * score * aim / (score + aim)
                      : score * s->dlm_weight + (1 - aim) * (1 - s->dlm_weight);

    return vqx_adm_emit_scores(sink, frame, s->debug, s->min_val, score, aim, adm3, num, den,
                               scale_num, scale_den);
}

void vqx_float_adm_close(void *priv)
{
    FloatAdmState *s = priv;
    free(s->mem);
}

const VqxFeatureExtractor vqx_fex_float_adm = {
    .name = "float_adm",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_adm_keys,
    .unsuffixed_keys = 1u << 7, /* "adm": not in libvmaf's provided_features */
    .options = vqx_float_adm_options,
    .state_size = sizeof(FloatAdmState),
    .init = init,
    .extract = extract,
    .close = vqx_float_adm_close,
};
