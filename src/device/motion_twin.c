/* The host part of motion's device twins (motion_twin.h). */
#include "device/motion_twin.h"

#include <stdint.h>

int vqx_motion_twin_init(MotionTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    const int ret = vqx_motion_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_result_bytes(dev, sizeof(uint64_t));
    t->slots = 0;
    if (t->cpu.force_zero) return 0;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    /* A block's recorded work runs the frames n = block (mod BLOCKS), so the
     * slots of n and of n - depth are fixed at recording when the ring's
     * size divides BLOCKS; at least depth slots keep frame n - depth until
     * frame n has read it (the blocks run in order, and each reads its
     * slot before it overwrites it). */
    t->slots = t->cpu.depth;
    while (VQX_DEVICE_BLOCKS % t->slots) t->slots++;
    return 0;
}

void vqx_motion_twin_slots(const MotionTwin *t, unsigned block, unsigned *past, unsigned *present)
{
    const unsigned n = block + VQX_DEVICE_BLOCKS; /* a frame of the block, >= depth */
    *past = (n - t->cpu.depth) % t->slots;
    *present = n % t->slots;
}
