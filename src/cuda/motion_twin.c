/* The CUDA twin of motion: the device computes each frame's SAD against its
 * own copy of the earlier luma; the host turns it into scores with
 * motion.c's own statements, frames in order. */
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/motion.h"

/* The ring's size divides the block count and is at least the depth (2
 * at most), so it is at most the block count. */
_Static_assert(VQX_DEVICE_BLOCKS >= 2, "motion's ring needs two blocks or more");

typedef struct MotionTwin {
    MotionState cpu; /* first: the options live there */
    /* a ring of earlier lumas: frame n's at slot n % slots */
    void *history[VQX_DEVICE_BLOCKS];
    unsigned slots;
    uint32_t *row_sums;
    unsigned rows;      /* rows per block */
} MotionTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    MotionTwin *t = priv;
    int ret = vqx_motion_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_result_bytes(dev, sizeof(uint64_t));
    if (t->cpu.force_zero) return 0;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    t->rows = vqx_cuda_motion_rows(t->cpu.w, t->cpu.h, t->cpu.bpc);
    /* A graph runs the frames n = block (mod BLOCKS), so the slots of n
     * and of n - depth are fixed at capture when the ring's size divides
     * BLOCKS; at least depth slots keep frame n - depth until frame n has
     * read it (the graphs run in order on one stream, and each reads its
     * slot before it overwrites it). */
    t->slots = t->cpu.depth;
    while (VQX_DEVICE_BLOCKS % t->slots) t->slots++;
    for (unsigned d = 0; d < t->slots && !ret; d++)
        ret = vqx_device_alloc(dev, t->cpu.row_bytes * t->cpu.h, &t->history[d], sink);
    if (!ret) ret = vqx_device_alloc(dev, t->cpu.h * sizeof(uint32_t), (void **)&t->row_sums, sink);
    return ret;
}

/* The graph of block b runs the frames n = b (mod BLOCKS): every frame is
 * launched (motion is temporal), so frame n - depth sits in slot
 * (b - depth) % slots and frame n goes to slot b % slots. */
static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    MotionTwin *t = priv;
    if (t->cpu.force_zero) return 0;
    const unsigned n = f->block + VQX_DEVICE_BLOCKS; /* a frame of the block, >= depth */
    const void *past = t->history[(n - t->cpu.depth) % t->slots];
    void *present = t->history[n % t->slots];
    const unsigned bps = t->cpu.bpc == 8 ? 1 : 2;
    int ret = vqx_device_launched(dev, vqx_cuda_motion_sad(
        past, f->ref[0], f->pitch[0] / bps, t->cpu.w, t->cpu.h, t->cpu.bpc, t->rows, t->row_sums,
        f->result, NULL, f->stream), "motion");
    if (!ret) ret = vqx_device_launched(dev, vqx_cuda_copy(present, f->ref[0],
        t->cpu.row_bytes * t->cpu.h, f->stream), "motion history");
    return ret;
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    MotionTwin *t = priv;
    const uint64_t sad = *(const uint64_t *)result;
    const double score = t->cpu.force_zero || frame < vqx_motion_first_scored(&t->cpu) ? 0.0 :
                         vqx_motion_sad_score(&t->cpu, sad);
    return vqx_motion_emit(&t->cpu, frame, score, sink);
}

const VqxFeatureExtractor vqx_fex_motion_cuda = {
    .name = "motion",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_motion_keys,
    .options = vqx_motion_options,
    .state_size = sizeof(MotionTwin),
    .flush = vqx_motion_flush,
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
