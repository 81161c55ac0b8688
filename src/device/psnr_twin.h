/*
 * The host part of psnr's device twins, shared by the backends: the
 * plane geometry, what the twin asks of the device, and the scores from
 * the read-back sums (psnr.c's own statements). A backend's twin state
 * begins with PsnrTwin and adds its record.
 */
#ifndef VQX_DEVICE_PSNR_TWIN_H
#define VQX_DEVICE_PSNR_TWIN_H

#include "device/device.h"
#include "feature/psnr.h"

typedef struct PsnrTwin {
    PsnrState cpu; /* first: the options live there */
    unsigned w[3], h[3];
} PsnrTwin;

/* The result block: the sum of squared errors of plane p at word p. */
int vqx_psnr_twin_init(PsnrTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink);
int vqx_psnr_twin_collect(void *state, const void *result, unsigned frame, VqxSink *sink);

#endif
