/*
 * The CUDA backend of the device interface (device.h): one device stream
 * per context, fed in frame order from the sending thread.
 *
 * Per stream geometry (once): the planes the twins read are laid out in
 * one packed block, and VQX_DEVICE_BLOCKS device input blocks and result
 * blocks are allocated; the twins' kernels are captured into one graph per
 * block.
 * Per frame n: pictures of the context's pool (pinned, rows packed) are
 * uploaded as they are; others are copied into pinned staging block
 * n % BLOCKS (allocated on its first use) and uploaded with one copy, on
 * the upload stream. The graph of that block
 * is launched on the compute stream behind the upload, followed by one
 * read-back of the result block. The host waits only when it reuses a block
 * BLOCKS frames later, and then hands the read-back results to the twins'
 * collect, so the staging copy and upload of the next frames overlap the
 * compute of frame n.
 *
 * Below: what CUDA twins call besides device.h's vqx_device_use_planes and
 * vqx_device_result_bytes.
 */
#ifndef VQX_CUDA_DEVICE_H
#define VQX_CUDA_DEVICE_H

#include "device/device.h"

/* ---- during device_init ---- */

/* Device memory owned by the backend, zeroed, freed at its close. */
int vqx_device_alloc(VqxDevice *dev, size_t bytes, void **ptr, VqxSink *sink);
/* The same for n floats. */
int vqx_device_alloc_floats(VqxDevice *dev, size_t n, float **ptr, VqxSink *sink);
/* A constant table copied to the device once. */
int vqx_device_upload_table(VqxDevice *dev, void *dst, const void *src, size_t bytes,
                            VqxSink *sink);

/* ---- during record: a launch's CUDA status (a cudaError_t) ---- */
int vqx_device_launched(VqxDevice *dev, int cuda_status, const char *what);

#endif
