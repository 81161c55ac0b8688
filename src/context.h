/* What the rest of the library needs of a context beyond the public API. */
#ifndef VQX_CONTEXT_H
#define VQX_CONTEXT_H

#include "collector.h"
#include "feature/extractor.h"

/* Add (or find) an instance of `fex` with `options`; `index` identifies it. */
int vqx_ctx_request_feature(VqxContext *ctx, const VqxFeatureExtractor *fex,
                            const char *options, unsigned *index);
const VqxCollector *vqx_ctx_collector(const VqxContext *ctx);
/* vqx_picture_alloc_from with memory for the planes in the mask `planes`
 * only; the others' data are NULL (planes vqx_planes_used leaves out). */
int vqx_ctx_picture_alloc(VqxContext *ctx, VqxPicture *pic, enum VqxPixelLayout layout,
                          unsigned bpc, unsigned w, unsigned h, unsigned planes);
/* A pool picture in the cuda backend's device memory (data are device
 * pointers, rows packed): sent like any pool picture, its planes are copied
 * into the device's frame block without crossing the bus; every feature
 * must then run on the device. -EINVAL without the cuda backend. */
int vqx_ctx_device_picture_alloc(VqxContext *ctx, VqxPicture *pic, enum VqxPixelLayout layout,
                                 unsigned bpc, unsigned w, unsigned h);
/* Whether a picture of this context's pool is in device memory. */
bool vqx_ctx_picture_on_device(VqxContext *ctx, const VqxPicture *pic);
/* A pool picture's buffer back to its pool (vqx_picture_free). */
void vqx_ctx_pool_release(VqxContext *ctx, void *buf);
/* A reader read `planes` of a pool picture and found every sample within
 * the bit depth's peak (vqx_input_read's sample_bits): vqx_send_pictures
 * does not scan them again. The reader writes no more into the picture. */
void vqx_ctx_mark_in_range(VqxContext *ctx, const VqxPicture *pic, unsigned planes);
unsigned vqx_ctx_subsample(const VqxContext *ctx);
const VqxFrameFormat *vqx_ctx_format(const VqxContext *ctx);
/* The device backend of the context, NULL when none. */
VqxDevice *vqx_ctx_device(VqxContext *ctx);
/* Requested features: identity (name and non-default options) and the
 * backend that computes each ("cpu", "cuda"). */
unsigned vqx_ctx_feature_count(const VqxContext *ctx);
/* Some requested feature is computed on the CPU (not all on a device). */
bool vqx_ctx_scores_on_cpu(const VqxContext *ctx);
const char *vqx_ctx_feature_identity(const VqxContext *ctx, unsigned i);
const char *vqx_ctx_feature_backend(const VqxContext *ctx, unsigned i);

#endif
