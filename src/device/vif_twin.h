/*
 * The host part of integer vif's device twins, shared by the backends:
 * the pyramid's geometry, what the twin asks of the device, and the scores
 * from the read-back sums (vif.c's own statements). The device computes
 * every scale's four integer sums (VifSums); with vif_skip_scale0, scale
 * 0 only makes scale 1, as on the CPU. A backend's twin state begins with
 * VifTwin and adds its record.
 */
#ifndef VQX_DEVICE_VIF_TWIN_H
#define VQX_DEVICE_VIF_TWIN_H

#include <stdbool.h>

#include "device/device.h"
#include "feature/vif.h"

typedef struct VifTwin {
    VifState cpu; /* first: the options and the log2 table live there */
    unsigned w[VIF_SCALES], h[VIF_SCALES];
} VifTwin;

/* The result block: VifSums per scale, scale s at index s. */
int vqx_vif_twin_init(VifTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink);
/* Whether the device computes scale `scale`'s sums. */
bool vqx_vif_twin_scored(const VifTwin *t, unsigned scale);
int vqx_vif_twin_collect(void *state, const void *result, unsigned frame, VqxSink *sink);

#endif
