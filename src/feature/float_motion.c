/*
 * Float motion, libvmaf's "float_motion" extractor.
 *
 * Each reference frame, as floats offset by -128, is blurred by a separable
 * 5-tap filter (3 taps, or none, with motion_filter_size). motion of frame n
 * is the mean absolute difference of the blurred frames n-1 and n (plus the
 * same on the frames bilinearly halved with motion_add_scale1, plus the
 * chroma planes' with motion_add_uv), times motion_fps_weight, capped at
 * motion_max_val. motion2 of frame n is the smaller of the scores of frames
 * n and n+1 (the last frame keeps its own, frame 0 has 0); motion3 is motion2
 * blended above motion_blend_offset (frame 0 takes frame 1's).
 *
 * The score of the pair (n-1, n) is computed once and kept: libvmaf computes
 * it again at frame n+1, with the same result.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "feature/float_motion.h"
#include "feature/float_picture.h"
#include "feature/float_sample.h"

#define MAX_RADIUS 2
/* Rows whose sums of |a - b| one call of the table's row_sads takes. */
#define SAD_ROWS 16

/* Filters, from libvmaf motion_tools.h, Netflix, BSD+Patent. */
static const float blur5[5] = { 0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f };
static const float blur3[3] = { 0.166378498f, 0.667243004f, 0.166378498f };
static const float identity5[5] = { 0.0f, 0.0f, 1.0f, 0.0f, 0.0f };

enum { KEY_MOTION, KEY_MOTION2, KEY_MOTION3 };

const char *const vqx_float_motion_keys[] = {
    "VMAF_feature_motion_score",
    "VMAF_feature_motion2_score",
    "VMAF_feature_motion3_score",
    NULL
};

/* libvmaf takes 0..9 and runs 5 taps for all but 1 and 3 */
static const double filter_sizes[] = { 1, 3, 5 };

/* Names, aliases, defaults and ranges from libvmaf float_motion.c. */
const VqxOption vqx_float_motion_options[] = {
    { .name = "debug", .help = "also write the unfiltered score as motion",
      .type = VQX_OPT_BOOL, .offset = offsetof(FloatMotionState, debug), .def.b = true },
    { .name = "motion_force_zero", .alias = "force_0", .help = "force every motion score to zero",
      .type = VQX_OPT_BOOL, .offset = offsetof(FloatMotionState, force_zero), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_fps_weight", .alias = "mfw", .help = "frame-rate correction factor of the score",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatMotionState, fps_weight), .def.d = 1.0,
      .min = 0.0, .max = 5.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_blend_factor", .alias = "mbf", .help = "weight of the score above motion_blend_offset",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatMotionState, blend_factor), .def.d = 1.0,
      .min = 0.0, .max = 1.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_blend_offset", .alias = "mbo", .help = "score above which motion_blend_factor applies",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatMotionState, blend_offset), .def.d = 40.0,
      .min = 0.0, .max = 1000.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_add_scale1", .alias = "mdc", .help = "add the score of the frames halved",
      .type = VQX_OPT_BOOL, .offset = offsetof(FloatMotionState, add_scale1), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_filter_size", .alias = "mfs", .help = "blur taps: 1 (none), 3 or 5",
      .type = VQX_OPT_INT, .offset = offsetof(FloatMotionState, filter_size), .def.i = 5,
      .values = filter_sizes,
      .n_values = sizeof(filter_sizes) / sizeof(filter_sizes[0]), .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_add_uv", .alias = "mau", .help = "add the scores of the chroma planes",
      .type = VQX_OPT_BOOL, .offset = offsetof(FloatMotionState, add_uv), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_max_val", .alias = "mmxv", .help = "cap of the scores",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatMotionState, max_val), .def.d = 10000.0,
      .min = 0.0, .max = 10000.0, .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

static bool luma_only(const void *priv)
{
    return !((const FloatMotionState *)priv)->add_uv;
}

static double cap(double v, double max)
{
    return v < max ? v : max;
}

static double blend(double v, double factor, double offset)
{
    return v * factor + (1 - factor) * (offset < v ? offset : v);
}

/* Separable blur, columns then rows, one output row at a time. */
static void blur_plane(const FloatMotionDSPContext *c, const float *taps, int n_taps,
                       const float *src, float *dst, float *row, int w, int h, ptrdiff_t stride)
{
    const int radius = n_taps / 2;
    float *const mid = row + MAX_RADIUS;
    for (int y = 0; y < h; y++) {
        const float *r[FLOAT_MOTION_MAX_TAPS];
        for (int k = 0; k < n_taps; k++)
            r[k] = src + vqx_reflect101(y - radius + k, h) * stride;
        c->blur_columns(taps, n_taps, r, w, mid);
        for (int m = 1; m <= radius; m++) {
            mid[-m] = mid[m];
            mid[w - 1 + m] = mid[w - 1 - m];
        }
        c->blur_row(taps, n_taps, mid, w, dst + y * stride);
    }
}

/* Sum of |a - b| over the plane, per row in float then over the rows, as
 * libvmaf adds. (It adds through double; for a sum of two floats that
 * rounds the same.) */
static float total_abs_diff(const FloatMotionDSPContext *c, const float *a, const float *b,
                            int w, int h, ptrdiff_t stride)
{
    float total = 0, line[SAD_ROWS];
    for (int y = 0; y < h; y += SAD_ROWS) {
        const int n = h - y < SAD_ROWS ? h - y : SAD_ROWS;
        c->row_sads(a + y * stride, b + y * stride, stride, w, n, line);
        for (int r = 0; r < n; r++) total += line[r];
    }
    return total;
}

float vqx_float_motion_mean(float total, int w, int h)
{
    return total / (float)((int64_t)w * h);
}

int vqx_float_motion_setup(FloatMotionState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (s->add_uv && fmt->layout == VQX_PIX_400)
        return vqx_fail(sink, -EINVAL, "float_motion: motion_add_uv needs chroma planes, input is 4:0:0");

    s->taps = s->filter_size == 1 ? identity5 : s->filter_size == 3 ? blur3 : blur5;
    s->n_taps = s->filter_size == 3 ? 3 : 5;
    vqx_float_motion_dsp_init(&s->dsp, fmt->cpu_flags);
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    s->n_planes = s->add_uv ? 3 : 1;
    for (unsigned p = 0; p < s->n_planes; p++) {
        FloatMotionGeometry *g = &s->geo[p];
        g->w = (int)vqx_plane_w(fmt, p);
        g->h = (int)vqx_plane_h(fmt, p);
        if (g->w < 3 || g->h < 3)
            return vqx_fail(sink, -EINVAL, "float_motion: planes must be at least 3x3, plane %u is %dx%d",
                            p, g->w, g->h);
        g->stride = (ptrdiff_t)vqx_float_stride((unsigned)g->w);
        if (!s->add_scale1) continue;
        g->half_w = (int)(g->w * 0.5 + 0.5);
        g->half_h = (int)(g->h * 0.5 + 0.5);
        g->half_stride = (ptrdiff_t)vqx_float_stride((unsigned)g->half_w);
        if (vqx_resampler_init(&g->halve, VQX_RESAMPLE_BILINEAR, (unsigned)g->w, (unsigned)g->h,
                               (unsigned)g->half_w, (unsigned)g->half_h, fmt->cpu_flags))
            return -ENOMEM;
    }
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    FloatMotionState *s = priv;
    const int ret = vqx_float_motion_setup(s, fmt, sink);
    if (ret) return ret;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const FloatMotionGeometry *g = &s->geo[p];
        for (int i = 0; i < 2; i++) {
            s->blur[p][i] = malloc(sizeof(float) * (size_t)g->stride * (size_t)g->h);
            if (!s->blur[p][i]) return -ENOMEM;
            if (!s->add_scale1) continue;
            s->half[p][i] = malloc(sizeof(float) * (size_t)g->half_stride * (size_t)g->half_h);
            if (!s->half[p][i]) return -ENOMEM;
        }
    }
    s->plane = malloc(sizeof(float) * (size_t)s->geo[0].stride * fmt->h);
    s->row = malloc(sizeof(float) * (fmt->w + 2 * MAX_RADIUS));
    if (!s->plane || !s->row) return -ENOMEM;
    return 0;
}

double vqx_float_motion_score(const FloatMotionState *s,
                              const float totals[FLOAT_MOTION_PLANES][2])
{
    double score = 0.0;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const FloatMotionGeometry *g = &s->geo[p];
        float plane_score = vqx_float_motion_mean(totals[p][0], g->w, g->h);
        if (s->add_scale1) plane_score += vqx_float_motion_mean(totals[p][1], g->half_w, g->half_h);
        if (p == 0) score = plane_score;
        else score += plane_score;
    }
    return score;
}

/* Score of the pair (blurred frames in slots a and b). */
static double pair_score(const FloatMotionState *s, unsigned a, unsigned b)
{
    float totals[FLOAT_MOTION_PLANES][2] = { { 0 } };
    for (unsigned p = 0; p < s->n_planes; p++) {
        const FloatMotionGeometry *g = &s->geo[p];
        totals[p][0] = total_abs_diff(&s->dsp, s->blur[p][a], s->blur[p][b], g->w, g->h,
                                      g->stride);
        if (s->add_scale1)
            totals[p][1] = total_abs_diff(&s->dsp, s->half[p][a], s->half[p][b], g->half_w,
                                          g->half_h, g->half_stride);
    }
    return vqx_float_motion_score(s, totals);
}

int vqx_float_motion_emit_frame(FloatMotionState *s, unsigned frame, double score, VqxSink *sink)
{
    int err = 0;
    if (s->force_zero) {
        err = vqx_emit(sink, KEY_MOTION2, frame, 0.0);
        err |= vqx_emit(sink, KEY_MOTION3, frame, 0.0);
        if (s->debug) err |= vqx_emit(sink, KEY_MOTION, frame, 0.0);
        return err;
    }
    s->started = true;
    s->last_frame = frame;
    if (frame == 0) {
        err = vqx_emit(sink, KEY_MOTION2, 0, 0.0);
        if (s->debug) err |= vqx_emit(sink, KEY_MOTION, 0, 0.0);
        return err;
    }

    if (s->debug) err |= vqx_emit(sink, KEY_MOTION, frame, cap(score * s->fps_weight, s->max_val));
    if (frame == 1) {
        err |= vqx_emit(sink, KEY_MOTION3, 0,
                        cap(blend(score * s->fps_weight, s->blend_factor, s->blend_offset), s->max_val));
    } else {
        const double low = s->prev_score < score ? s->prev_score : score;
        err |= vqx_emit(sink, KEY_MOTION2, frame - 1, cap(low * s->fps_weight, s->max_val));
        err |= vqx_emit(sink, KEY_MOTION3, frame - 1,
                        cap(blend(low * s->fps_weight, s->blend_factor, s->blend_offset), s->max_val));
    }
    s->prev_score = score;
    return err;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    (void)dis;
    FloatMotionState *s = priv;
    if (s->force_zero) return vqx_float_motion_emit_frame(s, frame, 0.0, sink);
    const unsigned cur = frame & 1;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const FloatMotionGeometry *g = &s->geo[p];
        vqx_float_plane(&s->pic_dsp, s->plane, g->stride, ref, p, -128.0f);
        blur_plane(&s->dsp, s->taps, s->n_taps, s->plane, s->blur[p][cur], s->row, g->w, g->h,
                   g->stride);
        if (s->add_scale1)
            vqx_resample(&g->halve, s->blur[p][cur], g->stride, s->half[p][cur], g->half_stride);
    }
    return vqx_float_motion_emit_frame(s, frame, frame ? pair_score(s, cur ^ 1, cur) : 0.0, sink);
}

int vqx_float_motion_flush(void *priv, VqxSink *sink)
{
    FloatMotionState *s = priv;
    if (s->force_zero || !s->started) return 0;
    if (s->last_frame == 0) return vqx_emit(sink, KEY_MOTION3, 0, 0.0);
    const double weighted = s->prev_score * s->fps_weight;
    const int err = vqx_emit(sink, KEY_MOTION2, s->last_frame, cap(weighted, s->max_val));
    return err | vqx_emit(sink, KEY_MOTION3, s->last_frame,
                          cap(blend(weighted, s->blend_factor, s->blend_offset), s->max_val));
}

void vqx_float_motion_close(void *priv)
{
    FloatMotionState *s = priv;
    for (unsigned p = 0; p < 3; p++) {
        for (int i = 0; i < 2; i++) {
            free(s->blur[p][i]);
            free(s->half[p][i]);
        }
        vqx_resampler_free(&s->geo[p].halve);
    }
    free(s->plane);
    free(s->row);
}

const VqxFeatureExtractor vqx_fex_float_motion = {
    .name = "float_motion",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_float_motion_keys,
    /* motion2 of n is the smaller score of the pairs (n - 1, n), (n, n + 1) */
    .frames_before = 1,
    .frames_after = 1,
    .options = vqx_float_motion_options,
    .state_size = sizeof(FloatMotionState),
    .luma_only = luma_only,
    .init = init,
    .extract = extract,
    .flush = vqx_float_motion_flush,
    .close = vqx_float_motion_close,
};
