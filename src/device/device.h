/*
 * The device backends (CUDA, Vulkan) behind one interface. The context
 * opens the backend its settings name and drives it through the functions
 * below; each backend implements them in its VqxDeviceOps. What every
 * backend shares (the twins of the chain, their result layout, the
 * collection of a frame's results, the failure message) lives here once.
 *
 * Per stream geometry (once): every twin's device_init, then the planes the
 * twins read get their place in one input block, and VQX_DEVICE_BLOCKS
 * input and result blocks are made; the twins' kernels are recorded once
 * per block. Per frame n: the pictures go into block n % VQX_DEVICE_BLOCKS,
 * its recorded work runs, and its result block is read back; the host
 * waits only when it reuses a block VQX_DEVICE_BLOCKS frames later, and
 * then hands the results to the twins' collect, frames in order.
 */
#ifndef VQX_DEVICE_DEVICE_H
#define VQX_DEVICE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "feature/extractor.h"
#include "picture.h"

/* Frames in flight: staging, input and result blocks and recorded chains.
 * Three let a frame's staging copy, upload and chain each take up to a
 * frame period (two would make them share two periods). Frame n runs in
 * block n % VQX_DEVICE_BLOCKS when every frame is launched (a temporal twin
 * is present: only then does a twin's state carry between frames). A build
 * may set another count (-Dc_args=-DVQX_DEVICE_BLOCKS=4) to measure it. */
#ifndef VQX_DEVICE_BLOCKS
#define VQX_DEVICE_BLOCKS 3
#endif

#define VQX_DEVICE_ERR_LEN 512

/* ---- for twins, during device_init ---- */

enum { VQX_DEVICE_LUMA = 1, VQX_DEVICE_CHROMA = 2 };

/* The planes of both pictures the twin reads. */
void vqx_device_use_planes(VqxDevice *dev, unsigned planes);
/* Bytes of the per-frame result block the twin writes (8-byte aligned). */
void vqx_device_result_bytes(VqxDevice *dev, size_t bytes);

/* ---- for the context ---- */

/* Where a frame's pictures are: the caller's memory, or the context's pool
 * (packed rows) in pinned host memory or in device memory. */
enum VqxFrameMemory { VQX_FRAME_CALLER, VQX_FRAME_PINNED, VQX_FRAME_DEVICE };

/* Opens `backend` (VQX_BACKEND_CUDA or VQX_BACKEND_VULKAN) on its device
 * `gpu`; for CUDA, the CUcontext `cuda_context` instead when not NULL
 * (made current on each thread that calls in). Fails with a message when
 * there is no such device, or the backend is not in this build. */
int vqx_device_open(VqxDevice **dev, enum VqxBackend backend, unsigned gpu, void *cuda_context,
                    char *err, size_t len);
/* Waits for the work in flight, so that the memory it reads can go. */
void vqx_device_quiesce(VqxDevice *dev);
void vqx_device_close(VqxDevice **dev);
/* Runs the twin's device_init and adds it to the chain; returns its error
 * (its reason is in the sink). */
int vqx_device_add(VqxDevice *dev, const VqxFeatureExtractor *fex, void *state,
                   VqxSink *sink, const VqxFrameFormat *fmt);
bool vqx_device_has_members(const VqxDevice *dev);
/* Makes the blocks and records the chain. */
int vqx_device_start(VqxDevice *dev, const VqxFrameFormat *fmt);
/* Frame `index`: collects the frame sent VQX_DEVICE_BLOCKS before, then
 * uploads and launches this one. `sampled` false: only temporal twins score it.
 * Pool pictures (pinned or device memory) may be copied into the frame's
 * block as they are, without a staging copy; then *held is set, and the
 * pictures must stay until the frame is collected (vqx_device_wait). */
int vqx_device_frame(VqxDevice *dev, const VqxPicture *ref, const VqxPicture *dis,
                     unsigned index, bool sampled, enum VqxFrameMemory memory, bool *held);
/* Collects the frames in flight up to frame `index`. */
int vqx_device_wait(VqxDevice *dev, unsigned index);
/* Collects every frame in flight. */
int vqx_device_drain(VqxDevice *dev);
/* Frames below this have been collected. */
unsigned vqx_device_collected(const VqxDevice *dev);
/* Whether pool pictures should be in the backend's pinned host memory
 * (vqx_device_host_alloc). */
bool vqx_device_wants_pinned(const VqxDevice *dev);
/* Device memory for pool pictures (NULL when it cannot be had: the
 * backend has none to offer), freed with vqx_device_memory_free before the
 * device is closed. */
void *vqx_device_memory_alloc(VqxDevice *dev, size_t bytes);
void vqx_device_memory_free(VqxDevice *dev, void *ptr);
/* The first sample above (1 << bpc) - 1 of the planes in the mask of a
 * pair of pictures in device memory, in picture, plane and raster order,
 * found with one wait: 1 with *which (0: pics[0]) and *at when there is
 * one, 0 when none, a negative errno when the device failed. */
int vqx_device_find_overflow(VqxDevice *dev, const VqxPicture *const pics[2], unsigned planes,
                             unsigned *which, VqxSampleOverflow *at);
/* Pinned host memory of the CUDA backend for pictures, NULL when it cannot
 * be had; freed with vqx_device_host_free, also after the device is closed. */
void *vqx_device_host_alloc(size_t bytes);
void vqx_device_host_free(void *ptr);
/* Benchmark: time the chain of every frame on the device (call before the
 * first frame); the total in milliseconds and the frames timed. */
void vqx_device_profile(VqxDevice *dev, bool on);
double vqx_device_gpu_ms(const VqxDevice *dev, unsigned *frames);
/* The message of the last failure. */
const char *vqx_device_error(const VqxDevice *dev);

/* ---- for the backends ---- */

typedef struct VqxDeviceMember {
    const VqxFeatureExtractor *fex;
    void *state;
    VqxSink *sink;
    size_t result_off, result_bytes;
    bool temporal;
} VqxDeviceMember;

typedef struct VqxDeviceOps {
    void (*quiesce)(VqxDevice *dev);
    void (*close)(VqxDevice *dev);     /* frees the backend's part and the device */
    int (*bind)(VqxDevice *dev);       /* optional: before calls from any thread */
    int (*start)(VqxDevice *dev, const VqxFrameFormat *fmt);
    /* Puts the frame into block `block` and starts its work (*held as for
     * vqx_device_frame); the block is free. */
    int (*launch)(VqxDevice *dev, unsigned block, const VqxPicture *ref, const VqxPicture *dis,
                  unsigned index, enum VqxFrameMemory memory, bool *held);
    /* Waits for the work of block `block`; *results: its read-back results. */
    int (*finish)(VqxDevice *dev, unsigned block, const unsigned char **results);
    void *(*memory_alloc)(VqxDevice *dev, size_t bytes);   /* optional */
    void (*memory_free)(VqxDevice *dev, void *ptr);
    int (*find_overflow)(VqxDevice *dev, const VqxPicture *const pics[2], unsigned planes,
                         unsigned *which, VqxSampleOverflow *at);  /* optional */
    bool pinned_pool;
} VqxDeviceOps;

/* The frame a block holds. */
typedef struct VqxDeviceSlot {
    bool busy, sampled;
    unsigned index;
} VqxDeviceSlot;

/* Where the planes the twins read lie in a frame's input block: reference
 * planes, then distorted ones, each on a 256-byte boundary, rows `pitch`
 * bytes apart (row_bytes rounded up to the backend's row alignment). */
typedef struct VqxDeviceInput {
    unsigned n_planes;
    size_t plane_off[2][3], row_bytes[3], pitch[3];
    unsigned plane_h[3];
    size_t frame_bytes;
} VqxDeviceInput;

/* The layout for the planes dev's members read (dev->planes). */
void vqx_device_layout_input(const VqxDevice *dev, const VqxFrameFormat *fmt, size_t row_align,
                             VqxDeviceInput *in);

/* The part of every backend's device: a backend's own struct begins with it. */
struct VqxDevice {
    const VqxDeviceOps *ops;
    char error[VQX_DEVICE_ERR_LEN];
    bool failed;
    VqxDeviceMember *members;
    unsigned n_members;
    VqxDeviceMember *setting_up;       /* the member whose device_init runs */
    unsigned planes;                   /* VQX_DEVICE_* of every member */
    bool any_temporal;
    size_t result_size;                /* the members' result blocks, laid out by start */
    unsigned collected;                /* frames below this are collected */
    VqxDeviceSlot slot[VQX_DEVICE_BLOCKS];
    unsigned n_launched;               /* frames launched: picks the block */
    bool profile;
    double gpu_ms;
    unsigned gpu_frames;
};

/* The backends' openers: each fills *dev with its device (NULL on failure). */
int vqx_cuda_device_open(VqxDevice **dev, unsigned gpu, void *cuda_context, char *err, size_t len);
int vqx_vulkan_device_open(VqxDevice **dev, unsigned gpu, char *err, size_t len);

/* Sets dev->error; returns err. */
int vqx_device_fail(VqxDevice *dev, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Lays the members' result blocks out one after the other (result_off,
 * result_size). */
void vqx_device_layout_results(VqxDevice *dev);
void vqx_device_free_members(VqxDevice *dev);

#endif
