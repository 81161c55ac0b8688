#include <errno.h>
#include <stdio.h>

#include "cuda/calls.h"

static VqxCudaCounters counters;

static void count(uint64_t *c, uint64_t n)
{
    __atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

void vqx_cuda_counters(VqxCudaCounters *out)
{
    out->uploads = __atomic_load_n(&counters.uploads, __ATOMIC_RELAXED);
    out->upload_bytes = __atomic_load_n(&counters.upload_bytes, __ATOMIC_RELAXED);
    out->readbacks = __atomic_load_n(&counters.readbacks, __ATOMIC_RELAXED);
    out->readback_bytes = __atomic_load_n(&counters.readback_bytes, __ATOMIC_RELAXED);
    out->syncs = __atomic_load_n(&counters.syncs, __ATOMIC_RELAXED);
    out->allocations = __atomic_load_n(&counters.allocations, __ATOMIC_RELAXED);
    out->graph_launches = __atomic_load_n(&counters.graph_launches, __ATOMIC_RELAXED);
    out->device_copies = __atomic_load_n(&counters.device_copies, __ATOMIC_RELAXED);
    out->device_copy_bytes = __atomic_load_n(&counters.device_copy_bytes, __ATOMIC_RELAXED);
}

int vqx_cu_check(cudaError_t code, const char *what, char *err, size_t len)
{
    if (code == cudaSuccess) return 0;
    snprintf(err, len, "cuda: %s: %s (%s)", what, cudaGetErrorString(code), cudaGetErrorName(code));
    return code == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

cudaError_t vqx_cu_malloc(void **ptr, size_t bytes)
{
    count(&counters.allocations, 1);
    return cudaMalloc(ptr, bytes);
}

cudaError_t vqx_cu_host_alloc(void **ptr, size_t bytes)
{
    count(&counters.allocations, 1);
    /* portable: a context other than the one current here (the caller's,
     * or the primary one) may copy from it */
    return cudaHostAlloc(ptr, bytes, cudaHostAllocPortable);
}

void vqx_cu_free(void *ptr)
{
    if (ptr) cudaFree(ptr);
}

void vqx_cu_host_free(void *ptr)
{
    if (ptr) cudaFreeHost(ptr);
}

cudaError_t vqx_cu_upload(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    count(&counters.uploads, 1);
    count(&counters.upload_bytes, bytes);
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
}

cudaError_t vqx_cu_frame_blocks(void *const *dst, const void *const *src, const size_t *bytes,
                                unsigned n, bool from_device, cudaStream_t stream)
{
    count(from_device ? &counters.device_copies : &counters.uploads, 1);
    cudaError_t code = cudaSuccess;
    for (unsigned i = 0; i < n && code == cudaSuccess; i++) {
        count(from_device ? &counters.device_copy_bytes : &counters.upload_bytes, bytes[i]);
        code = cudaMemcpyAsync(dst[i], src[i], bytes[i],
                               from_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice,
                               stream);
    }
    return code;
}

cudaError_t vqx_cu_readback(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    count(&counters.readbacks, 1);
    count(&counters.readback_bytes, bytes);
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
}

cudaError_t vqx_cu_event_sync(cudaEvent_t event)
{
    count(&counters.syncs, 1);
    return cudaEventSynchronize(event);
}

cudaError_t vqx_cu_stream_sync(cudaStream_t stream)
{
    count(&counters.syncs, 1);
    return cudaStreamSynchronize(stream);
}

cudaError_t vqx_cu_device_sync(void)
{
    count(&counters.syncs, 1);
    return cudaDeviceSynchronize();
}

cudaError_t vqx_cu_graph_launch(cudaGraphExec_t graph, cudaStream_t stream)
{
    count(&counters.graph_launches, 1);
    return cudaGraphLaunch(graph, stream);
}
