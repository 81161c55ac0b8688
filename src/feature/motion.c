/*
 * Integer motion, libvmaf 3.2's "motion" extractor.
 *
 * Per frame n, the SAD score compares the luma of frame n with that of frame
 * n-1 (n-2 with the five-frame window): mean |blur(prev - cur)| in 8-bit
 * units, times motion_fps_weight, capped at motion_max_val; 0 for the first
 * frame(s). motion2 of frame i is the smaller of two neighbouring SAD scores
 * (frames i and i+1; i-1 and i+1 with the five-frame window), or the frame's
 * own score at the end; motion3 is motion2 blended above motion_blend_offset,
 * capped, and with motion_moving_average averaged with the previous frame's.
 * Frames before the first SAD score take motion2 = 0 and motion3 = the
 * blended first score.
 *
 * The SADs of the frames run in parallel (extract reads frame n - 1 or
 * n - 2 from the core, which keeps it); collect takes them in order and
 * writes motion2/motion3 of frame i as soon as the SAD score of frame i+1
 * is known, the last frame's at the flush.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "feature/extractor.h"
#include "feature/motion.h"


enum { KEY_SAD, KEY_MOTION, KEY_MOTION2, KEY_MOTION3 };

const char *const vqx_motion_keys[] = {
    "VMAF_integer_feature_motion_sad_score",
    "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score",
    "VMAF_integer_feature_motion3_score",
    NULL
};

/* Names, aliases, defaults and ranges from libvmaf integer_motion.c. */
const VqxOption vqx_motion_options[] = {
    { .name = "motion_force_zero", .alias = "force_0", .help = "force every motion score to zero",
      .type = VQX_OPT_BOOL, .offset = offsetof(MotionState, force_zero), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_blend_factor", .alias = "mbf", .help = "weight of the score above motion_blend_offset",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(MotionState, blend_factor), .def.d = 1.0,
      .min = 0.0, .max = 1.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_blend_offset", .alias = "mbo", .help = "score above which motion_blend_factor applies",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(MotionState, blend_offset), .def.d = 40.0,
      .min = 0.0, .max = 1000.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_fps_weight", .alias = "mfw", .help = "frame-rate correction factor of the score",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(MotionState, fps_weight), .def.d = 1.0,
      .min = 0.0, .max = 5.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_max_val", .alias = "mmxv", .help = "cap of the scores",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(MotionState, max_val), .def.d = 10000.0,
      .min = 0.0, .max = 10000.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_five_frame_window", .alias = "mffw", .help = "compare with the frame two back",
      .type = VQX_OPT_BOOL, .offset = offsetof(MotionState, five_frame_window), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "motion_moving_average", .alias = "mma", .help = "average motion3 with the previous frame's",
      .type = VQX_OPT_BOOL, .offset = offsetof(MotionState, moving_average), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "debug", .help = "also write the SAD score as integer_motion",
      .type = VQX_OPT_BOOL, .offset = offsetof(MotionState, debug), .def.b = false },
    { 0 }
};

static double cap(double v, double max)
{
    return v < max ? v : max;
}

/* Above the offset, only blend_factor of the excess counts. */
static double blend(double v, double factor, double offset)
{
    return v * factor + (1 - factor) * (offset < v ? offset : v);
}

unsigned vqx_motion_first_scored(const MotionState *s)
{
    return s->five_frame_window ? 2 : 1;
}

int vqx_motion_setup(MotionState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->w < 3 || fmt->h < 3)
        return vqx_fail(sink, -EINVAL, "motion: frames must be at least 3x3, not %ux%u",
                        fmt->w, fmt->h);
    s->w = fmt->w;
    s->h = fmt->h;
    s->bpc = fmt->bpc;
    s->row_bytes = (size_t)fmt->w * (fmt->bpc == 8 ? 1 : 2);
    s->depth = s->five_frame_window ? 2 : 1;
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    MotionState *s = priv;
    const int ret = vqx_motion_setup(s, fmt, sink);
    if (ret) return ret;
    s->row = malloc(sizeof(*s->row) * (fmt->w + 2 * VQX_MOTION_RADIUS));
    if (!s->row) return -ENOMEM;
    vqx_motion_dsp_init(&s->dsp, s->bpc, fmt->cpu_flags);
    return 0;
}

/* motion2 and motion3 of frame i. */
static int emit_smoothed(MotionState *s, VqxSink *sink, unsigned i, double motion2)
{
    const double processed = cap(blend(motion2, s->blend_factor, s->blend_offset), s->max_val);
    const double motion3 = s->moving_average ? (processed + s->prev_processed) / 2.0 : processed;
    s->prev_processed = processed;
    /* one after the other: the order of writes orders the keys */
    const int err = vqx_emit(sink, KEY_MOTION2, i, motion2);
    return err | vqx_emit(sink, KEY_MOTION3, i, motion3);
}

/* Frames before the first SAD score: motion2 0, motion3 `stamp`. */
static int emit_unscored(MotionState *s, VqxSink *sink, unsigned n, double stamp)
{
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        err |= vqx_emit(sink, KEY_MOTION2, i, 0.0);
        err |= vqx_emit(sink, KEY_MOTION3, i, stamp);
    }
    s->prev_processed = stamp;
    return err;
}

static double sad_score(const MotionState *s, uint64_t sad)
{
    return cap((double)sad / 256. / ((double)s->w * s->h) * s->fps_weight, s->max_val);
}

/* The result block: the frame's SAD against frame n - depth (uint64). */
static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    (void)dis;
    MotionState *s = priv;
    if (s->force_zero || frame < vqx_motion_first_scored(s)) return 0;
    const VqxPicture *past = vqx_earlier_picture(sink, s->depth, false);
    *(uint64_t *)vqx_result(sink) = vqx_motion_plane_sad(&s->dsp, past->data[0], past->stride[0],
                                                         ref->data[0], ref->stride[0], s->row,
                                                         s->w, s->h, s->bpc);
    return 0;
}

/* Records frame n's SAD score (0 before the first scored frame) and emits
 * what it completes. Frames come in order. */
static int emit_frame(MotionState *s, unsigned n, double score, VqxSink *sink)
{
    s->n_frames = n + 1; /* every frame comes, in order */
    const unsigned first = vqx_motion_first_scored(s);
    s->sad[n % 3] = score;

    int err = vqx_emit(sink, KEY_SAD, n, score);
    if (s->debug) err |= vqx_emit(sink, KEY_MOTION, n, score);

    if (n == first) {
        err |= emit_unscored(s, sink, first, cap(blend(score, s->blend_factor, s->blend_offset),
                                                 s->max_val));
    } else if (n > first) {
        /* frame n - 1 now has its later neighbour */
        const unsigned lo = s->five_frame_window ? n - 2 : n - 1;
        double motion2 = score;
        if (lo >= first && s->sad[lo % 3] < score) motion2 = s->sad[lo % 3];
        err |= emit_smoothed(s, sink, n - 1, motion2);
    }
    return err;
}

int vqx_motion_collect(void *state, const void *result, unsigned frame, VqxSink *sink)
{
    MotionState *s = state;
    const double score = s->force_zero || frame < vqx_motion_first_scored(s) ? 0.0 :
                         sad_score(s, *(const uint64_t *)result);
    return emit_frame(s, frame, score, sink);
}

int vqx_motion_flush(void *priv, VqxSink *sink)
{
    MotionState *s = priv;
    const unsigned n = s->n_frames;
    if (!n) return 0;
    if (n <= vqx_motion_first_scored(s)) return emit_unscored(s, sink, n, 0.0);
    return emit_smoothed(s, sink, n - 1, s->sad[(n - 1) % 3]);
}

static void close_motion(void *priv)
{
    MotionState *s = priv;
    free(s->row);
}

const VqxFeatureExtractor vqx_fex_motion = {
    .name = "motion",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_motion_keys,
    /* libvmaf computes motion2 and motion3 of every frame in its flush */
    .flush_keys = 1u << KEY_MOTION2 | 1u << KEY_MOTION3,
    /* motion2 of n takes the SAD scores of n and n + 1 (the five-frame
     * window: n - 1 and n + 1, each against the frame two back: 3 before),
     * motion_moving_average motion3 of n - 1 as well (one more); motion3 of
     * the frames before the first SAD score is that score's (frame 2 with
     * the five-frame window: 2 after) */
    .frames_before = 4,
    .frames_after = 2,
    .pictures_before = 2, /* frame n - 2 with the five-frame window */
    .result_size = sizeof(uint64_t),
    .options = vqx_motion_options,
    .state_size = sizeof(MotionState),
    .init = init,
    .extract = extract,
    .collect = vqx_motion_collect,
    .flush = vqx_motion_flush,
    .close = close_motion,
};
