/*
 * The host part of motion's device twins, shared by the backends. The
 * device computes each frame's SAD against its own copy of the earlier
 * luma, kept in a ring of `slots` planes; the host turns the SADs into
 * scores with motion.c's own statements, frames in order. A backend's
 * twin state begins with MotionTwin and adds its record.
 */
#ifndef VQX_DEVICE_MOTION_TWIN_H
#define VQX_DEVICE_MOTION_TWIN_H

#include "device/device.h"
#include "feature/motion.h"

/* The ring's size divides the block count and is at least the depth (2
 * at most), so it is at most the block count. */
_Static_assert(VQX_DEVICE_BLOCKS >= 2, "motion's ring needs two blocks or more");

typedef struct MotionTwin {
    MotionState cpu; /* first: the options live there */
    unsigned slots;  /* planes of the ring of earlier lumas: frame n's at n % slots; 0 with
                        motion_force_zero, which needs no device work */
} MotionTwin;

/* The result block: the frame's SAD (uint64), which vqx_motion_collect
 * takes. */
int vqx_motion_twin_init(MotionTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink);
/* The ring slots that the recorded work of block `block` reads (frame
 * n - depth) and writes (frame n), for the frames n of the block. */
void vqx_motion_twin_slots(const MotionTwin *t, unsigned block, unsigned *past, unsigned *present);

#endif
