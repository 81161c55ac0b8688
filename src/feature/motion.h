#ifndef VQX_FEATURE_MOTION_H
#define VQX_FEATURE_MOTION_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "bitdepth.h"
#include "feature/extractor.h"
#include "feature/motion_dsp.h"
#include "feature/motion_pixel.h"

typedef struct MotionState {
    bool force_zero;
    double blend_factor;
    double blend_offset;
    double fps_weight;
    double max_val;
    bool five_frame_window;
    bool moving_average;
    bool debug;

    unsigned w, h, bpc;
    size_t row_bytes;
    unsigned depth;         /* frame n's SAD is against frame n - depth: 1, or 2 with the window */
    int32_t *row;
    MotionDSPContext dsp;
    unsigned n_frames;      /* frames seen */
    double sad[3];          /* SAD score of frame n in slot n % 3 */
    double prev_processed;  /* motion3 before averaging, of the frame before */
} MotionState;

/* Shared by the CPU extractor and its device twins. */
extern const char *const vqx_motion_keys[];
extern const VqxOption vqx_motion_options[];
/* Checks the geometry and sets the state's constants; allocates nothing. */
int vqx_motion_setup(MotionState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* First frame with a SAD score (1, or 2 with the five-frame window). */
unsigned vqx_motion_first_scored(const MotionState *s);
/* The extractor's collect, for its twins too (their state begins with a
 * MotionState): the result block is the frame's SAD, the plane sum of
 * vqx_motion_sad (uint64); frames come in order. */
int vqx_motion_collect(void *state, const void *result, unsigned frame, VqxSink *sink);
int vqx_motion_flush(void *state, VqxSink *sink);

/*
 * Sum over the plane of |blur(prev - cur)|, in libvmaf 3.2's integer_motion
 * fixed point, by the scalar C (the extractor runs vqx_motion_plane_sad on
 * its table). `row` holds w + 2 * VQX_MOTION_RADIUS int32 values (a margin
 * of VQX_MOTION_RADIUS on each side). w and h are at least 3 (the mirrored
 * borders need it).
 */
BF_DECL(uint64_t, vqx_motion_sad, const void *prev, ptrdiff_t prev_stride,
        const void *cur, ptrdiff_t cur_stride, int32_t *row,
        unsigned w, unsigned h, unsigned bpc);

/* Its two stages, the table's C entries (the CUDA kernel checks compare
 * with them): row y of the difference blurred down the columns into
 * mid[0..w), and the row's sum of |blur along the row| modulo 2^32 (mid
 * needs VQX_MOTION_RADIUS margins, which it mirrors). */
MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_8bpc);
MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_16bpc);
MOTION_ROW_SAD(vqx_motion_row_sad);

#endif
