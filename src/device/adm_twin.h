/*
 * The host part of integer adm's device twins, shared by the backends:
 * the per-level constants (adm.c's set-up), what the twin asks of the
 * device, each level's input size, and the scores from the read-back
 * integer sums (adm.c's own norms and scores). A backend's twin state
 * begins with AdmTwin and adds its record.
 */
#ifndef VQX_DEVICE_ADM_TWIN_H
#define VQX_DEVICE_ADM_TWIN_H

#include "device/device.h"
#include "feature/adm_fixed.h"

typedef struct AdmTwin {
    AdmState cpu; /* first: the options and the per-level constants live there */
} AdmTwin;

/* The result block, per level (level 0 first): the reference's cubes h, v,
 * d (uint64), the masked cubes of the restored part h, v, d and of the
 * additive part (AIM) h, v, d (int64); a skipped level 0 leaves its zeros. */
#define VQX_ADM_TWIN_SUMS 9

/* Sets up the constants and cpu.stride (the band rows' pitch). */
int vqx_adm_twin_init(AdmTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink);
/* The size of level k's input: the picture, or level k - 1's bands. */
void vqx_adm_twin_input(const AdmState *s, int k, int *w, int *h);
/* Whether level k is scored (not a skipped level 0). */
bool vqx_adm_twin_scored(const AdmState *s, int k);
int vqx_adm_twin_collect(void *state, const void *result, unsigned frame, VqxSink *sink);

#endif
