#include <errno.h>
#include <stdio.h>

#include "cuda/calls.h"

static VqxDeviceCounters counters;

void vqx_cuda_counters(VqxDeviceCounters *out)
{
    vqx_counters_load(&counters, out);
}

int vqx_cu_check(cudaError_t code, const char *what, char *err, size_t len)
{
    if (code == cudaSuccess) return 0;
    snprintf(err, len, "cuda: %s: %s (%s)", what, cudaGetErrorString(code), cudaGetErrorName(code));
    return code == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

cudaError_t vqx_cu_malloc(void **ptr, size_t bytes)
{
    vqx_count(&counters.allocations, 1);
    return cudaMalloc(ptr, bytes);
}

cudaError_t vqx_cu_host_alloc(void **ptr, size_t bytes)
{
    vqx_count(&counters.allocations, 1);
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
    vqx_count(&counters.uploads, 1);
    vqx_count(&counters.upload_bytes, bytes);
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
}

cudaError_t vqx_cu_frame_blocks(void *const *dst, const void *const *src, const size_t *bytes,
                                unsigned n, bool from_device, cudaStream_t stream)
{
    vqx_count(from_device ? &counters.device_copies : &counters.uploads, 1);
    cudaError_t code = cudaSuccess;
    for (unsigned i = 0; i < n && code == cudaSuccess; i++) {
        vqx_count(from_device ? &counters.device_copy_bytes : &counters.upload_bytes, bytes[i]);
        code = cudaMemcpyAsync(dst[i], src[i], bytes[i],
                               from_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice,
                               stream);
    }
    return code;
}

cudaError_t vqx_cu_readback(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    vqx_count(&counters.readbacks, 1);
    vqx_count(&counters.readback_bytes, bytes);
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
}

cudaError_t vqx_cu_event_sync(cudaEvent_t event)
{
    vqx_count(&counters.syncs, 1);
    return cudaEventSynchronize(event);
}

cudaError_t vqx_cu_stream_sync(cudaStream_t stream)
{
    vqx_count(&counters.syncs, 1);
    return cudaStreamSynchronize(stream);
}

cudaError_t vqx_cu_device_sync(void)
{
    vqx_count(&counters.syncs, 1);
    return cudaDeviceSynchronize();
}

cudaError_t vqx_cu_graph_launch(cudaGraphExec_t graph, cudaStream_t stream)
{
    vqx_count(&counters.launches, 1);
    return cudaGraphLaunch(graph, stream);
}
