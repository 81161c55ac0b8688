/*
 * The host part of speed_chroma's and speed_temporal's device twins, shared
 * by the backends: the options and plan (speed.c's set-up), what the twin
 * asks of the device, and, from each plane's read-back record
 * (device/speed_record.h), the entropies and the scores with speed.c's own
 * statements, frames in order. A backend's twin state begins with
 * SpeedChromaTwin or SpeedTemporalTwin and adds its record.
 *
 * The device runs each analysed plane through speed.c's chain up to the
 * variances: load (samples * inv_scale + offset, or the difference of two
 * such), prescale, decimate, demean, covariance, eigenvalues, QR, solve.
 */
#ifndef VQX_DEVICE_SPEED_TWIN_H
#define VQX_DEVICE_SPEED_TWIN_H

#include <stddef.h>

#include "device/device.h"
#include "device/speed_record.h"
#include "feature/speed.h"

/* Bytes of one plane's record. */
static inline size_t vqx_speed_record_bytes(unsigned n_blocks)
{
    return sizeof(float) * VQX_SPEED_RECORD_WORDS(n_blocks);
}

/* vqx_float_rows' conversion of a bpc-bit sample: sample * scale + offset. */
float vqx_speed_twin_scale(unsigned bpc);
#define VQX_SPEED_TWIN_OFFSET (-128.0f)

/* speed_chroma: records ref U, dis U, ref V, dis V. */
typedef struct SpeedChromaTwin {
    SpeedChromaState cpu; /* first: the options live there */
    size_t record_bytes;
} SpeedChromaTwin;

#define VQX_SPEED_CHROMA_PLANES 4

int vqx_speed_chroma_twin_init(SpeedChromaTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev,
                               VqxSink *sink);
int vqx_speed_chroma_twin_collect(void *state, const void *result, unsigned frame,
                                  VqxSink *sink);

/* speed_temporal: records the reference's difference (previous minus
 * current), then the distorted picture's (previous distorted minus the
 * current distorted, or the current reference with use_ref_diff). The
 * first frame's records are not read: its score is 0. */
typedef struct SpeedTemporalTwin {
    SpeedTemporalState cpu; /* first: the options live there */
    size_t record_bytes;
} SpeedTemporalTwin;

#define VQX_SPEED_TEMPORAL_PLANES 2

int vqx_speed_temporal_twin_init(SpeedTemporalTwin *t, const VqxFrameFormat *fmt,
                                 VqxDevice *dev, VqxSink *sink);
int vqx_speed_temporal_twin_collect(void *state, const void *result, unsigned frame,
                                    VqxSink *sink);

#endif
