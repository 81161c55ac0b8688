/* The CUDA twin of float_motion: the device blurs each frame's reference
 * planes (and halves them with motion_add_scale1), keeps them for the next
 * frame, and sums the absolute differences with the previous frame's as
 * the CPU does (kernels.h); the host scores them with float_motion.c's own
 * statements, frames in order. */
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/float_motion.h"

/* The ring's size divides the block count and is at least 2. */
_Static_assert(VQX_DEVICE_BLOCKS >= 2, "float_motion's ring needs two blocks or more");

typedef struct FloatMotionTwin {
    FloatMotionState cpu; /* first: the options live there */
    unsigned bpc, slots;
    float *taps;
    /* per plane: frame n's blurred plane (and its half) in slot n % slots */
    float *blurred[FLOAT_MOTION_PLANES][VQX_DEVICE_BLOCKS];
    float *halved[FLOAT_MOTION_PLANES][VQX_DEVICE_BLOCKS];
    int *row_index[FLOAT_MOTION_PLANES], *col_index[FLOAT_MOTION_PLANES];
    float *row_weight[FLOAT_MOTION_PLANES], *col_weight[FLOAT_MOTION_PLANES];
    float *mid, *row_sums;
} FloatMotionTwin;

/* The halving's axis tables of plane p on the device. */
static int upload_halving(FloatMotionTwin *t, unsigned p, VqxDevice *dev, VqxSink *sink)
{
    const FloatMotionGeometry *g = &t->cpu.geo[p];
    const VqxResampler *r = &g->halve;
    const size_t rows = 2 * (size_t)g->half_h, cols = 2 * (size_t)g->half_w;
    int ret = vqx_device_alloc(dev, rows * sizeof(int), (void **)&t->row_index[p], sink);
    if (!ret) ret = vqx_device_alloc(dev, cols * sizeof(int), (void **)&t->col_index[p], sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, rows, &t->row_weight[p], sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, cols, &t->col_weight[p], sink);
    const size_t ib = sizeof(int), fb = sizeof(float);
    if (!ret) ret = vqx_device_upload_table(dev, t->row_index[p], r->rows.index, rows * ib, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->col_index[p], r->cols.index, cols * ib, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->row_weight[p], r->rows.weight, rows * fb, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->col_weight[p], r->cols.weight, cols * fb, sink);
    return ret;
}

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    FloatMotionTwin *t = priv;
    int ret = vqx_float_motion_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_result_bytes(dev, sizeof(float[FLOAT_MOTION_PLANES][2]));
    if (t->cpu.force_zero) return 0;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA | (t->cpu.add_uv ? VQX_DEVICE_CHROMA : 0));
    t->bpc = fmt->bpc;
    /* The graph of block b runs the frames n = b (mod BLOCKS), so the
     * slots of n and n - 1 are fixed at capture when the ring's size
     * divides BLOCKS. */
    t->slots = 2;
    while (VQX_DEVICE_BLOCKS % t->slots) t->slots++;
    const size_t luma = (size_t)fmt->w * fmt->h;
    ret = vqx_device_alloc_floats(dev, (size_t)t->cpu.n_taps, &t->taps, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->taps, t->cpu.taps,
                                            sizeof(float) * (size_t)t->cpu.n_taps, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, luma, &t->mid, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, fmt->h, &t->row_sums, sink);
    for (unsigned p = 0; p < t->cpu.n_planes && !ret; p++) {
        const FloatMotionGeometry *g = &t->cpu.geo[p];
        for (unsigned i = 0; i < t->slots && !ret; i++) {
            ret = vqx_device_alloc_floats(dev, (size_t)g->w * g->h, &t->blurred[p][i], sink);
            if (!ret && t->cpu.add_scale1)
                ret = vqx_device_alloc_floats(dev, (size_t)g->half_w * g->half_h,
                                              &t->halved[p][i], sink);
        }
        if (!ret && t->cpu.add_scale1) ret = upload_halving(t, p, dev, sink);
    }
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const FloatMotionTwin *t = priv;
    if (t->cpu.force_zero) return 0;
    const unsigned n = f->block + VQX_DEVICE_BLOCKS; /* a frame of the block, >= 1 */
    const unsigned present = n % t->slots, past = (n - 1) % t->slots;
    float (*totals)[2] = f->result;
    int ret = 0;
    for (unsigned p = 0; p < t->cpu.n_planes && !ret; p++) {
        const FloatMotionGeometry *g = &t->cpu.geo[p];
        const bool halve = t->cpu.add_scale1;
        const VqxCudaFloatMotionPlane job = {
            .src = f->ref[p], .pitch = f->pitch[p] / (t->bpc == 8 ? 1 : 2),
            .w = g->w, .h = g->h, .bpc = t->bpc, .taps = t->taps, .n_taps = t->cpu.n_taps,
            .mid = t->mid, .present = t->blurred[p][present], .past = t->blurred[p][past],
            .row_index = halve ? t->row_index[p] : NULL, .col_index = t->col_index[p],
            .row_weight = t->row_weight[p], .col_weight = t->col_weight[p],
            .half_w = g->half_w, .half_h = g->half_h,
            .half_present = t->halved[p][present], .half_past = t->halved[p][past],
            .row_sums = t->row_sums,
        };
        ret = vqx_device_launched(dev, vqx_cuda_float_motion_plane(&job, totals[p], f->stream),
                                  "float_motion");
    }
    return ret;
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    FloatMotionTwin *t = priv;
    const double score =
        t->cpu.force_zero || !frame ? 0.0 : vqx_float_motion_score(&t->cpu, result);
    return vqx_float_motion_emit_frame(&t->cpu, frame, score, sink);
}

const VqxFeatureExtractor vqx_fex_float_motion_cuda = {
    .name = "float_motion",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_float_motion_keys,
    .options = vqx_float_motion_options,
    .state_size = sizeof(FloatMotionTwin),
    .flush = vqx_float_motion_flush,
    .close = vqx_float_motion_close,
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
