/*
 * The CUDA backend: one device stream per context, fed in frame order from
 * the sending thread.
 *
 * Per stream geometry (once): every twin's device_init, then the planes the
 * twins read are laid out in one packed block, and VQX_DEVICE_BLOCKS device
 * input blocks and result blocks are allocated; the twins' kernels are
 * captured into one graph per block.
 * Per frame n: pictures of the context's pool (pinned, rows packed) are
 * uploaded as they are; others are copied into pinned staging block
 * n % BLOCKS (allocated on its first use) and uploaded with one copy, on
 * the upload stream. The graph of that block
 * is launched on the compute stream behind the upload, followed by one
 * read-back of the result block. The host waits only when it reuses a block
 * BLOCKS frames later, and then hands the read-back results to the twins'
 * collect, so the staging copy and upload of the next frames overlap the
 * compute of frame n.
 */
#ifndef VQX_CUDA_DEVICE_H
#define VQX_CUDA_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "feature/extractor.h"
#include "picture.h"

/* ---- for twins, during device_init ---- */

/* Frames in flight: staging, input and result blocks and captured graphs.
 * Three let a frame's staging copy, upload and chain each take up to a
 * frame period (two would make them share two periods). Frame n runs in
 * block n % VQX_DEVICE_BLOCKS when every frame is launched (a temporal twin
 * is present: only then does a twin's state carry between frames). A build
 * may set another count (-Dc_args=-DVQX_DEVICE_BLOCKS=4) to measure it. */
#ifndef VQX_DEVICE_BLOCKS
#define VQX_DEVICE_BLOCKS 3
#endif

enum { VQX_DEVICE_LUMA = 1, VQX_DEVICE_CHROMA = 2 };

/* The planes of both pictures the twin reads. */
void vqx_device_use_planes(VqxDevice *dev, unsigned planes);
/* Bytes of the per-frame result block the twin writes (8-byte aligned). */
void vqx_device_result_bytes(VqxDevice *dev, size_t bytes);
/* Device memory owned by the backend, zeroed, freed at its close. */
int vqx_device_alloc(VqxDevice *dev, size_t bytes, void **ptr, VqxSink *sink);
/* The same for n floats. */
int vqx_device_alloc_floats(VqxDevice *dev, size_t n, float **ptr, VqxSink *sink);
/* A constant table copied to the device once. */
int vqx_device_upload_table(VqxDevice *dev, void *dst, const void *src, size_t bytes,
                            VqxSink *sink);

/* ---- for twins, during record: a launch's CUDA status (a cudaError_t) ---- */
int vqx_device_launched(VqxDevice *dev, int cuda_status, const char *what);

/* ---- for the context ---- */

/* Picks the device: the CUcontext `cuda_context` when not NULL (made
 * current on each thread that calls in), else the primary context of CUDA
 * device `gpu`; fails with a message when there is none. */
int vqx_device_open(VqxDevice **dev, unsigned gpu, void *cuda_context, char *err, size_t len);
/* Waits for the work in flight, so that the memory it reads can go. */
void vqx_device_quiesce(VqxDevice *dev);
void vqx_device_close(VqxDevice **dev);
/* Runs the twin's device_init and adds it to the chain; returns its error
 * (its reason is in the sink). */
int vqx_device_add(VqxDevice *dev, const VqxFeatureExtractor *fex, void *state,
                   VqxSink *sink, const VqxFrameFormat *fmt);
bool vqx_device_has_members(const VqxDevice *dev);
/* Allocates the blocks and captures the chain. */
int vqx_device_start(VqxDevice *dev, const VqxFrameFormat *fmt);
/* Where a frame's pictures are: the caller's memory, or the context's pool
 * (packed rows) in pinned host memory or in device memory. */
enum VqxFrameMemory { VQX_FRAME_CALLER, VQX_FRAME_PINNED, VQX_FRAME_DEVICE };

/* Frame `index`: collects the frame sent VQX_DEVICE_BLOCKS before, then
 * uploads and launches this one. `sampled` false: only temporal twins score it.
 * Pool pictures (pinned or device memory) are copied into the frame's block
 * as they are, without a staging copy; then *held is set, and the pictures
 * must stay until the frame is collected (vqx_device_wait). */
int vqx_device_frame(VqxDevice *dev, const VqxPicture *ref, const VqxPicture *dis,
                     unsigned index, bool sampled, enum VqxFrameMemory memory, bool *held);
/* Device memory for pool pictures (NULL when it cannot be had), freed with
 * vqx_device_memory_free before the device is closed. */
void *vqx_device_memory_alloc(VqxDevice *dev, size_t bytes);
void vqx_device_memory_free(VqxDevice *dev, void *ptr);
/* The first sample above (1 << bpc) - 1 of the planes in the mask of a
 * pair of pictures in device memory, in picture, plane and raster order,
 * found with one wait: 1 with *which (0: pics[0]) and *at when there is
 * one, 0 when none, a negative errno when the device failed. */
int vqx_device_find_overflow(VqxDevice *dev, const VqxPicture *const pics[2], unsigned planes,
                             unsigned *which, VqxSampleOverflow *at);
/* Collects the frames in flight up to frame `index`. */
int vqx_device_wait(VqxDevice *dev, unsigned index);
/* Pinned host memory for pictures, NULL when it cannot be had; freed with
 * vqx_device_host_free, also after the device is closed. */
void *vqx_device_host_alloc(size_t bytes);
void vqx_device_host_free(void *ptr);
/* Collects every frame in flight. */
int vqx_device_drain(VqxDevice *dev);
/* Frames below this have been collected. */
unsigned vqx_device_collected(const VqxDevice *dev);
/* Benchmark: time the chain of every frame on the device (call before the
 * first frame); the total in milliseconds and the frames timed. */
void vqx_device_profile(VqxDevice *dev, bool on);
double vqx_device_gpu_ms(const VqxDevice *dev, unsigned *frames);
/* The message of the last failure. */
const char *vqx_device_error(const VqxDevice *dev);

#endif
