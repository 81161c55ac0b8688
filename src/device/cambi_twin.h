/*
 * The host part of cambi's device twins, shared by the backends: the
 * options, keys and geometries are cambi.c's (CambiState); the device runs
 * each picture's stages, and the host forms the scores from the five
 * pooled means of each picture with cambi.c's own statements. A twin
 * sets up with vqx_cambi_setup, then asks for the luma. A backend's
 * twin state begins with CambiState and adds its record and its collect.
 */
#ifndef VQX_DEVICE_CAMBI_TWIN_H
#define VQX_DEVICE_CAMBI_TWIN_H

#include <stddef.h>

#include "device/device.h"
#include "feature/cambi.h"

enum { CAMBI_DIS, CAMBI_SRC };

/* The pictures scored (the source too with full_ref) and their geometries. */
unsigned vqx_cambi_twin_pictures(const CambiState *s);
const CambiGeometry *vqx_cambi_twin_geometry(const CambiState *s, unsigned pic);
/* The most samples of a picture, and of its scale 0, over the pictures. */
void vqx_cambi_twin_largest(const CambiState *s, size_t *samples, size_t *scale0);
/* The contrast kernels' constants: the widest window's half side. */
unsigned vqx_cambi_twin_max_pad(const CambiState *s);
/* Emits frame `frame`'s scores from the pooled means ([CAMBI_DIS / CAMBI_SRC][scale]). */
int vqx_cambi_twin_emit(const CambiState *s, unsigned frame, const double mean[2][CAMBI_SCALES],
                        VqxSink *sink);

#endif
