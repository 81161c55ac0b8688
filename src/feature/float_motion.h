/* float_motion's state, set-up and scoring, shared by the CPU extractor
 * and its CUDA twin (which begins its state with FloatMotionState). */
#ifndef VQX_FEATURE_FLOAT_MOTION_H
#define VQX_FEATURE_FLOAT_MOTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/extractor.h"
#include "feature/float_motion_dsp.h"
#include "feature/float_picture.h"
#include "feature/resample.h"

/* A plane's geometry, and its bilinear halving (motion_add_scale1). */
typedef struct FloatMotionGeometry {
    int w, h;
    ptrdiff_t stride;
    int half_w, half_h;
    ptrdiff_t half_stride;
    VqxResampler halve;     /* bilinear, as libvmaf halves */
} FloatMotionGeometry;

#define FLOAT_MOTION_PLANES 3

typedef struct FloatMotionState {
    bool debug;
    bool force_zero;
    double fps_weight;
    double blend_factor;
    double blend_offset;
    bool add_scale1;
    int filter_size;
    bool add_uv;
    double max_val;

    unsigned n_planes;
    FloatMotionGeometry geo[FLOAT_MOTION_PLANES];
    const float *taps;
    int n_taps;
    FloatMotionDSPContext dsp;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
    float *plane;           /* the frame as floats, one plane at a time */
    float *row;             /* a column-blurred row, with mirrored margins */
    float *blur[3][2];      /* blurred plane of frame n in [p][n & 1] */
    float *half[3][2];      /* the same halved (motion_add_scale1) */
    bool started;
    unsigned last_frame;
    double prev_score;      /* score of frames (n-2, n-1) at frame n */
} FloatMotionState;

extern const char *const vqx_float_motion_keys[];
extern const VqxOption vqx_float_motion_options[];
/* Checks the options against the format; sets the taps, the planes'
 * geometry and the halving's tables (freed by vqx_float_motion_close). */
int vqx_float_motion_setup(FloatMotionState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* The mean absolute difference of a w x h plane pair from its float sum. */
float vqx_float_motion_mean(float total, int w, int h);
/* The pair's score from each plane's float sum of |a - b| of the blurred
 * planes, [p][0], and of their halves, [p][1] (motion_add_scale1). */
double vqx_float_motion_score(const FloatMotionState *s,
                              const float totals[FLOAT_MOTION_PLANES][2]);
/* Scores of frame `frame` (ref's planes already blurred), `score` that of
 * the pair (frame - 1, frame) (ignored at frame 0). */
int vqx_float_motion_emit_frame(FloatMotionState *s, unsigned frame, double score, VqxSink *sink);
int vqx_float_motion_flush(void *state, VqxSink *sink);
void vqx_float_motion_close(void *state);

#endif
