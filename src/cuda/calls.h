/*
 * Every CUDA runtime call of the backend goes through these wrappers, which
 * count what crosses the bus or waits on the device (the residency test
 * reads the counters) and turn CUDA's codes into errno values with a
 * one-line message.
 */
#ifndef VQX_CUDA_CALLS_H
#define VQX_CUDA_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "device/counters.h"

/* 0 when code is cudaSuccess; otherwise writes "what: CUDA's message" to
 * err and returns -ENOMEM (allocation failures) or -EIO. */
int vqx_cu_check(cudaError_t code, const char *what, char *err, size_t len);

cudaError_t vqx_cu_malloc(void **ptr, size_t bytes);
cudaError_t vqx_cu_host_alloc(void **ptr, size_t bytes); /* pinned */
void vqx_cu_free(void *ptr);
void vqx_cu_host_free(void *ptr);
/* Host to device, asynchronous, from pinned memory. */
cudaError_t vqx_cu_upload(void *dst, const void *src, size_t bytes, cudaStream_t stream);
/* One frame's copy in n blocks (the planes of pool pictures) from pinned
 * host memory (counted as one upload) or from device memory (one device
 * copy). */
cudaError_t vqx_cu_frame_blocks(void *const *dst, const void *const *src, const size_t *bytes,
                                unsigned n, bool from_device, cudaStream_t stream);
/* Device to host, asynchronous, into pinned memory. */
cudaError_t vqx_cu_readback(void *dst, const void *src, size_t bytes, cudaStream_t stream);
cudaError_t vqx_cu_event_sync(cudaEvent_t event);
cudaError_t vqx_cu_stream_sync(cudaStream_t stream);
cudaError_t vqx_cu_device_sync(void);
cudaError_t vqx_cu_graph_launch(cudaGraphExec_t graph, cudaStream_t stream);

#endif
