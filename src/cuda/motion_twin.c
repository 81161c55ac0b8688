/* The CUDA twin of motion: the SAD on the device, the host part in
 * device/motion_twin.h. */
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "device/motion_twin.h"

typedef struct MotionCudaTwin {
    MotionTwin host; /* first: the CPU's state leads it */
    void *history[VQX_DEVICE_BLOCKS];
    uint32_t *row_sums;
    unsigned rows;      /* rows per block */
} MotionCudaTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    MotionCudaTwin *t = priv;
    int ret = vqx_motion_twin_init(&t->host, fmt, dev, sink);
    if (ret || !t->host.slots) return ret;
    const MotionState *m = &t->host.cpu;
    t->rows = vqx_cuda_motion_rows(m->w, m->h, m->bpc);
    for (unsigned d = 0; d < t->host.slots && !ret; d++)
        ret = vqx_device_alloc(dev, m->row_bytes * m->h, &t->history[d], sink);
    if (!ret) ret = vqx_device_alloc(dev, m->h * sizeof(uint32_t), (void **)&t->row_sums, sink);
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    MotionCudaTwin *t = priv;
    if (!t->host.slots) return 0;
    const MotionState *m = &t->host.cpu;
    unsigned past, present;
    vqx_motion_twin_slots(&t->host, f->block, &past, &present);
    const unsigned bps = m->bpc == 8 ? 1 : 2;
    int ret = vqx_device_launched(dev, vqx_cuda_motion_sad(
        t->history[past], f->ref[0], f->pitch[0] / bps, m->w, m->h, m->bpc, t->rows, t->row_sums,
        f->result, NULL, f->stream), "motion");
    if (!ret) ret = vqx_device_launched(dev, vqx_cuda_copy(t->history[present], f->ref[0],
        m->row_bytes * m->h, f->stream), "motion history");
    return ret;
}

const VqxFeatureExtractor vqx_fex_motion_cuda = {
    .name = "motion",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_motion_keys,
    .options = vqx_motion_options,
    .state_size = sizeof(MotionCudaTwin),
    .flush = vqx_motion_flush,
    .device_init = device_init,
    .record = record,
    .collect = vqx_motion_collect,
};
