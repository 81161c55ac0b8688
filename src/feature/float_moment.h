/* float_moment's keys and scoring, shared by the CPU extractor and its
 * CUDA twin. */
#ifndef VQX_FEATURE_FLOAT_MOMENT_H
#define VQX_FEATURE_FLOAT_MOMENT_H

#include "feature/extractor.h"
#include "feature/float_moment_dsp.h"

extern const char *const vqx_float_moment_keys[];
/* Scores a frame of w x h luma samples from its sums (float_moment_dsp.h's order). */
int vqx_float_moment_emit(const double sum[FLOAT_MOMENT_SUMS], unsigned w, unsigned h,
                          unsigned frame, VqxSink *sink);

#endif
