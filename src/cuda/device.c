#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "cuda/calls.h"
#include "device/copier.h"
#include "cuda/device.h"
#include "cuda/kernels.h"

/* A member's branch of the graph: its kernels run beside the other
 * twins' (the small launches of coarse scales and deep levels do not fill
 * the device alone). */
typedef struct Branch {
    cudaStream_t stream;
    cudaEvent_t joined;
} Branch;

typedef struct CudaDevice {
    VqxDevice base;
    CUcontext context;          /* the caller's, NULL: the primary context */
    /* the device-memory pictures' overflow search: per plane, the first
     * offending sample's index (pinned, read back) and its device copy */
    uint32_t *first_over_host, *first_over_dev;
    cudaStream_t compute, upload;
    cudaEvent_t uploaded[VQX_DEVICE_BLOCKS], done[VQX_DEVICE_BLOCKS];
    cudaGraphExec_t graph[VQX_DEVICE_BLOCKS];
    cudaEvent_t forked;         /* the branches start after the result block's zeroing */

    Branch *branches;           /* one per member */

    VqxDeviceInput in;          /* the input block's layout: rows packed */
    uint8_t *staging[VQX_DEVICE_BLOCKS], *input[VQX_DEVICE_BLOCKS];
    uint8_t *result_dev[VQX_DEVICE_BLOCKS], *result_host[VQX_DEVICE_BLOCKS];

    void **allocs;
    unsigned n_allocs;

    VqxCopier copier;           /* caller's pictures into the staging block */

    /* optional GPU timing of the chain (benchmark) */
    cudaEvent_t t_begin[VQX_DEVICE_BLOCKS], t_end[VQX_DEVICE_BLOCKS];
} CudaDevice;

static CudaDevice *cuda(VqxDevice *dev)
{
    return (CudaDevice *)dev;
}

static int fail(CudaDevice *dev, cudaError_t code, const char *what)
{
    const int ret = vqx_cu_check(code, what, dev->base.error, sizeof(dev->base.error));
    if (ret) dev->base.failed = true;
    return ret;
}


typedef CUresult (*CtxSetCurrent)(CUcontext);
static CtxSetCurrent ctx_set_current;

/* The caller's context, current on this thread: CUDA's runtime then works
 * in it (the runtime API has no call of its own for another context). */
static int bind(VqxDevice *base)
{
    CudaDevice *dev = cuda(base);
    if (!dev->context) return 0;
    const CUresult code = ctx_set_current(dev->context);
    if (code == CUDA_SUCCESS) return 0;
    return vqx_device_fail(base, -EIO, "cuda: cuCtxSetCurrent of the caller's context failed "
                           "(CUresult %d)", (int)code);
}

static const VqxDeviceOps cuda_ops;

int vqx_cuda_device_open(VqxDevice **out, unsigned gpu, void *cuda_context, char *err, size_t len)
{
    int n = 0;
    cudaError_t code = cudaGetDeviceCount(&n);
    if (code != cudaSuccess || n == 0) {
        snprintf(err, len, "backend cuda: no CUDA device (%s)",
                 code != cudaSuccess ? cudaGetErrorString(code) : "none found");
        return -ENODEV;
    }
    if (!cuda_context && gpu >= (unsigned)n) {
        snprintf(err, len, "backend cuda: no GPU %u (%d found: 0 to %d)", gpu, n, n - 1);
        return -ENODEV;
    }
    if (cuda_context && !ctx_set_current) {
        enum cudaDriverEntryPointQueryResult found;
        void *fn = NULL;
        code = cudaGetDriverEntryPointByVersion("cuCtxSetCurrent", &fn, 4000, cudaEnableDefault,
                                                &found);
        if (code != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn) {
            snprintf(err, len, "backend cuda: the driver has no cuCtxSetCurrent (%s)",
                     cudaGetErrorString(code));
            return -ENODEV;
        }
        ctx_set_current = (CtxSetCurrent)fn;
    }
    CudaDevice *dev = calloc(1, sizeof(*dev));
    if (!dev) {
        snprintf(err, len, "out of memory");
        return -ENOMEM;
    }
    dev->base.ops = &cuda_ops;
    *out = &dev->base;
    dev->context = cuda_context;
    int ret = bind(&dev->base);
    if (ret) snprintf(err, len, "%s", dev->base.error);
    else if (!cuda_context) ret = vqx_cu_check(cudaSetDevice((int)gpu), "cudaSetDevice", err, len);
    if (!ret) ret = vqx_cu_check(cudaStreamCreateWithFlags(&dev->compute, cudaStreamNonBlocking),
                                 "cudaStreamCreate", err, len);
    if (!ret) ret = vqx_cu_check(cudaStreamCreateWithFlags(&dev->upload, cudaStreamNonBlocking),
                                 "cudaStreamCreate", err, len);
    for (int s = 0; s < VQX_DEVICE_BLOCKS && !ret; s++) {
        ret = vqx_cu_check(cudaEventCreateWithFlags(&dev->uploaded[s], cudaEventDisableTiming),
                           "cudaEventCreate", err, len);
        if (!ret) ret = vqx_cu_check(cudaEventCreateWithFlags(&dev->done[s], cudaEventDisableTiming),
                                     "cudaEventCreate", err, len);
    }
    if (ret) vqx_device_close(out);
    return ret;
}

static void cuda_quiesce(VqxDevice *base)
{
    CudaDevice *dev = cuda(base);
    if (bind(base)) return;
    if (dev->compute) cudaStreamSynchronize(dev->compute);
    if (dev->upload) cudaStreamSynchronize(dev->upload);
}

static void cuda_close(VqxDevice *base)
{
    CudaDevice *dev = cuda(base);
    vqx_copier_stop(&dev->copier);
    /* let work in flight end before its memory goes */
    cuda_quiesce(base);
    vqx_cu_host_free(dev->first_over_host);
    vqx_cu_free(dev->first_over_dev);
    for (int s = 0; s < VQX_DEVICE_BLOCKS; s++) {
        if (dev->graph[s]) cudaGraphExecDestroy(dev->graph[s]);
        if (dev->uploaded[s]) cudaEventDestroy(dev->uploaded[s]);
        if (dev->done[s]) cudaEventDestroy(dev->done[s]);
        if (dev->t_begin[s]) cudaEventDestroy(dev->t_begin[s]);
        if (dev->t_end[s]) cudaEventDestroy(dev->t_end[s]);
        vqx_cu_host_free(dev->staging[s]);
        vqx_cu_host_free(dev->result_host[s]);
    }
    for (unsigned i = 0; i < dev->n_allocs; i++) vqx_cu_free(dev->allocs[i]);
    free(dev->allocs);
    for (unsigned i = 0; dev->branches && i < base->n_members; i++) {
        if (dev->branches[i].stream) cudaStreamDestroy(dev->branches[i].stream);
        if (dev->branches[i].joined) cudaEventDestroy(dev->branches[i].joined);
    }
    free(dev->branches);
    if (dev->forked) cudaEventDestroy(dev->forked);
    if (dev->compute) cudaStreamDestroy(dev->compute);
    if (dev->upload) cudaStreamDestroy(dev->upload);
    vqx_device_free_members(base);
    free(dev);
}

/* ---- for twins ---- */

static int device_alloc(CudaDevice *dev, size_t bytes, void **ptr)
{
    void **list = realloc(dev->allocs, (dev->n_allocs + 1) * sizeof(*list));
    if (!list) return vqx_device_fail(&dev->base, -ENOMEM, "out of memory");
    dev->allocs = list;
    *ptr = NULL;
    int ret = fail(dev, vqx_cu_malloc(ptr, bytes ? bytes : 1), "cudaMalloc");
    if (ret) return ret;
    dev->allocs[dev->n_allocs++] = *ptr;
    return fail(dev, cudaMemset(*ptr, 0, bytes), "cudaMemset");
}

int vqx_device_alloc(VqxDevice *dev, size_t bytes, void **ptr, VqxSink *sink)
{
    const int ret = device_alloc(cuda(dev), bytes, ptr);
    return ret ? vqx_fail(sink, ret, "%s", dev->error) : 0;
}

int vqx_device_alloc_floats(VqxDevice *dev, size_t n, float **ptr, VqxSink *sink)
{
    return vqx_device_alloc(dev, n * sizeof(float), (void **)ptr, sink);
}

int vqx_device_upload_table(VqxDevice *dev, void *dst, const void *src, size_t bytes,
                            VqxSink *sink)
{
    const int ret = fail(cuda(dev), cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice),
                         "cudaMemcpy (table)");
    return ret ? vqx_fail(sink, ret, "%s", dev->error) : 0;
}

int vqx_device_launched(VqxDevice *dev, int cuda_status, const char *what)
{
    return fail(cuda(dev), (cudaError_t)cuda_status, what);
}

/* ---- for the context ---- */

static int capture(CudaDevice *dev, unsigned s)
{
    VqxDevice *base = &dev->base;
    int ret = fail(dev, cudaStreamBeginCapture(dev->compute, cudaStreamCaptureModeThreadLocal),
                   "cudaStreamBeginCapture");
    if (ret) return ret;
    ret = fail(dev, cudaMemsetAsync(dev->result_dev[s], 0, base->result_size, dev->compute),
               "cudaMemsetAsync");
    if (!ret) ret = fail(dev, cudaEventRecord(dev->forked, dev->compute), "cudaEventRecord");
    for (unsigned i = 0; !ret && i < base->n_members; i++) {
        const VqxDeviceMember *m = &base->members[i];
        const Branch *b = &dev->branches[i];
        ret = fail(dev, cudaStreamWaitEvent(b->stream, dev->forked, 0), "cudaStreamWaitEvent");
        if (ret) break;
        VqxDeviceFrame f = { .stream = b->stream, .block = s,
                             .result = dev->result_dev[s] + m->result_off };
        for (unsigned p = 0; p < dev->in.n_planes; p++) {
            f.ref[p] = dev->input[s] + dev->in.plane_off[0][p];
            f.dis[p] = dev->input[s] + dev->in.plane_off[1][p];
            f.pitch[p] = dev->in.row_bytes[p];
        }
        ret = m->fex->record(m->state, &f, base);
        if (ret && !base->error[0])
            snprintf(base->error, sizeof(base->error), "%s: cannot record its kernels", m->fex->name);
        if (!ret) ret = fail(dev, cudaEventRecord(b->joined, b->stream), "cudaEventRecord");
        if (!ret) ret = fail(dev, cudaStreamWaitEvent(dev->compute, b->joined, 0),
                             "cudaStreamWaitEvent");
    }
    cudaGraph_t graph = NULL;
    /* ends the capture in any case; the first failure keeps its message */
    const cudaError_t end = cudaStreamEndCapture(dev->compute, &graph);
    if (!ret) ret = fail(dev, end, "cudaStreamEndCapture");
    if (!ret) ret = fail(dev, cudaGraphInstantiate(&dev->graph[s], graph, 0), "cudaGraphInstantiate");
    if (graph) cudaGraphDestroy(graph);
    return ret;
}

static int cuda_start(VqxDevice *base, const VqxFrameFormat *fmt)
{
    CudaDevice *dev = cuda(base);
    /* rows packed: pool pictures are copied as they are */
    vqx_device_layout_input(base, fmt, 1, &dev->in);
    dev->branches = calloc(base->n_members ? base->n_members : 1, sizeof(*dev->branches));
    if (!dev->branches) return vqx_device_fail(base, -ENOMEM, "out of memory");
    int ret = 0;
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS && !ret; s++) {
        void *p;
        if (dev->in.frame_bytes) {
            ret = device_alloc(dev, dev->in.frame_bytes, &p);
            if (ret) break;
            dev->input[s] = p;
        }
        ret = fail(dev, vqx_cu_host_alloc(&p, base->result_size), "cudaHostAlloc (results)");
        if (ret) break;
        dev->result_host[s] = p;
        ret = device_alloc(dev, base->result_size, &p);
        if (ret) break;
        dev->result_dev[s] = p;
    }
    if (!ret) ret = fail(dev, cudaEventCreateWithFlags(&dev->forked, cudaEventDisableTiming),
                         "cudaEventCreate");
    for (unsigned i = 0; i < base->n_members && !ret; i++) {
        Branch *b = &dev->branches[i];
        ret = fail(dev, cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking),
                   "cudaStreamCreate");
        if (!ret) ret = fail(dev, cudaEventCreateWithFlags(&b->joined, cudaEventDisableTiming),
                             "cudaEventCreate");
    }
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS && !ret; s++) ret = capture(dev, s);
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS && !ret && base->profile; s++) {
        ret = fail(dev, cudaEventCreate(&dev->t_begin[s]), "cudaEventCreate");
        if (!ret) ret = fail(dev, cudaEventCreate(&dev->t_end[s]), "cudaEventCreate");
    }
    if (!ret) vqx_copier_start(&dev->copier, &dev->in);
    /* the zeroing and tables of the set-up ran on the default stream */
    if (!ret) ret = fail(dev, vqx_cu_device_sync(), "cudaDeviceSynchronize");
    return ret;
}

static int cuda_finish(VqxDevice *base, unsigned s, const unsigned char **results)
{
    CudaDevice *dev = cuda(base);
    int ret = fail(dev, vqx_cu_event_sync(dev->done[s]), "frame results");
    if (ret) return ret;
    if (base->profile) {
        float ms = 0;
        ret = fail(dev, cudaEventElapsedTime(&ms, dev->t_begin[s], dev->t_end[s]), "cudaEventElapsedTime");
        if (ret) return ret;
        base->gpu_ms += ms;
        base->gpu_frames++;
    }
    *results = dev->result_host[s];
    return 0;
}

static int cuda_launch(VqxDevice *base, unsigned s, const VqxPicture *ref, const VqxPicture *dis,
                       unsigned index, enum VqxFrameMemory memory, bool *held)
{
    (void)index;
    CudaDevice *dev = cuda(base);
    int ret = 0;
    *held = false;
    if (dev->in.frame_bytes && memory != VQX_FRAME_CALLER) {
        /* the pictures' planes are copied as they are: their pool memory is
         * pinned or on the device, and their rows are packed as the block's */
        void *dst[6];
        const void *src[6];
        size_t bytes[6];
        unsigned n = 0;
        for (unsigned which = 0; which < 2; which++) {
            const VqxPicture *pic = which ? dis : ref;
            for (unsigned p = 0; p < dev->in.n_planes; p++, n++) {
                dst[n] = dev->input[s] + dev->in.plane_off[which][p];
                src[n] = pic->data[p];
                bytes[n] = dev->in.row_bytes[p] * dev->in.plane_h[p];
            }
        }
        ret = fail(dev, vqx_cu_frame_blocks(dst, src, bytes, n, memory == VQX_FRAME_DEVICE,
                                            dev->upload), memory == VQX_FRAME_DEVICE ?
                   "device copy" : "upload");
        *held = true;
    } else if (dev->in.frame_bytes) {
        /* pinned on the block's first frame of caller's memory: a stream of
         * pool pictures never needs it (at 4K, 100 MB pinned is 50 ms) */
        if (!dev->staging[s]) {
            void *p = NULL;
            ret = fail(dev, vqx_cu_host_alloc(&p, dev->in.frame_bytes), "cudaHostAlloc (staging)");
            dev->staging[s] = p;
        }
        if (!ret) {
            vqx_copier_copy(&dev->copier, dev->staging[s], ref, dis);
            ret = fail(dev, vqx_cu_upload(dev->input[s], dev->staging[s], dev->in.frame_bytes,
                                          dev->upload), "upload");
        }
    }
    if (dev->in.frame_bytes) {
        if (!ret) ret = fail(dev, cudaEventRecord(dev->uploaded[s], dev->upload), "cudaEventRecord");
        if (!ret) ret = fail(dev, cudaStreamWaitEvent(dev->compute, dev->uploaded[s], 0),
                             "cudaStreamWaitEvent");
    }
    if (!ret && base->profile) ret = fail(dev, cudaEventRecord(dev->t_begin[s], dev->compute), "cudaEventRecord");
    if (!ret) ret = fail(dev, vqx_cu_graph_launch(dev->graph[s], dev->compute), "cudaGraphLaunch");
    if (!ret && base->profile) ret = fail(dev, cudaEventRecord(dev->t_end[s], dev->compute), "cudaEventRecord");
    if (!ret) ret = fail(dev, vqx_cu_readback(dev->result_host[s], dev->result_dev[s],
                                              base->result_size, dev->compute), "read-back");
    if (!ret) ret = fail(dev, cudaEventRecord(dev->done[s], dev->compute), "cudaEventRecord");
    return ret;
}

void *vqx_device_host_alloc(size_t bytes)
{
    void *p = NULL;
    return vqx_cu_host_alloc(&p, bytes) == cudaSuccess ? p : NULL;
}

void vqx_device_host_free(void *ptr)
{
    vqx_cu_host_free(ptr);
}

static void *cuda_memory_alloc(VqxDevice *dev, size_t bytes)
{
    (void)dev;
    void *p = NULL;
    return vqx_cu_malloc(&p, bytes) == cudaSuccess ? p : NULL;
}

static void cuda_memory_free(VqxDevice *dev, void *ptr)
{
    (void)dev;
    vqx_cu_free(ptr);
}

static int cuda_find_overflow(VqxDevice *base, const VqxPicture *const pics[2], unsigned planes,
                              unsigned *which, VqxSampleOverflow *at)
{
    CudaDevice *dev = cuda(base);
    const size_t words = 6 * sizeof(uint32_t); /* picture k, plane p: word 3 k + p */
    int ret = 0;
    if (!dev->first_over_dev) {
        void *p = NULL;
        ret = fail(dev, vqx_cu_malloc(&p, words), "cudaMalloc");
        dev->first_over_dev = p;
        if (!ret) ret = fail(dev, vqx_cu_host_alloc(&p, words), "cudaHostAlloc");
        if (!ret) dev->first_over_host = p;
        if (ret) return ret;
    }
    const uint16_t peak = (uint16_t)((1u << pics[0]->bpc) - 1);
    ret = fail(dev, cudaMemsetAsync(dev->first_over_dev, 0xff, words, dev->upload),
               "cudaMemsetAsync");
    for (unsigned k = 0; k < 2; k++) {
        const VqxPicture *pic = pics[k];
        for (unsigned p = 0; p < vqx_picture_planes(pic) && !ret; p++) {
            if (!(planes >> p & 1)) continue;
            ret = fail(dev, (cudaError_t)vqx_cuda_first_over_peak(pic->data[p], pic->w[p],
                                                                  pic->h[p],
                                                                  (size_t)pic->stride[p] / 2,
                                                                  peak,
                                                                  dev->first_over_dev + 3 * k + p,
                                                                  dev->upload),
                       "sample check");
        }
    }
    if (!ret) ret = fail(dev, vqx_cu_readback(dev->first_over_host, dev->first_over_dev, words,
                                              dev->upload), "read-back");
    if (!ret) ret = fail(dev, vqx_cu_stream_sync(dev->upload), "sample check");
    for (unsigned k = 0; k < 2 && !ret; k++) {
        const VqxPicture *pic = pics[k];
        for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
            const uint32_t i = dev->first_over_host[3 * k + p];
            if (!(planes >> p & 1) || i == UINT32_MAX) continue;
            uint16_t value = 0;
            const uint16_t *row = (const uint16_t *)((const uint8_t *)pic->data[p] +
                                                     (size_t)(i / pic->w[p]) * pic->stride[p]);
            ret = fail(dev, cudaMemcpy(&value, row + i % pic->w[p], sizeof(value),
                                       cudaMemcpyDeviceToHost), "read-back");
            if (ret) return ret;
            *which = k;
            *at = (VqxSampleOverflow){ .plane = p, .x = i % pic->w[p], .y = i / pic->w[p],
                                       .value = value };
            return 1;
        }
    }
    return ret;
}

static const VqxDeviceOps cuda_ops = {
    .quiesce = cuda_quiesce,
    .close = cuda_close,
    .bind = bind,
    .start = cuda_start,
    .launch = cuda_launch,
    .finish = cuda_finish,
    .memory_alloc = cuda_memory_alloc,
    .memory_free = cuda_memory_free,
    .find_overflow = cuda_find_overflow,
    .pinned_pool = true,
};
