/*
 * vqx: video quality metrics (VMAF and companions), libvmaf-compatible.
 *
 * Every function that can fail returns 0 or a negative errno value; the
 * context keeps a one-line message for the last failure (vqx_last_error).
 */
#ifndef VQX_VQX_H
#define VQX_VQX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define VQX_API __declspec(dllexport)
#elif defined(__GNUC__)
#define VQX_API __attribute__((visibility("default")))
#else
#define VQX_API
#endif

/* The version of this header; vqx_version() gives the library's. */
#define VQX_VERSION_MAJOR 0
#define VQX_VERSION_MINOR 1
#define VQX_VERSION_PATCH 0

enum VqxPixelLayout {
    VQX_PIX_400,
    VQX_PIX_420,
    VQX_PIX_422,
    VQX_PIX_444,
};

/* The samples' range as the input's container tags it (y4m's XCOLORRANGE). */
enum VqxColorRange {
    VQX_RANGE_UNSPECIFIED,
    VQX_RANGE_LIMITED,
    VQX_RANGE_FULL,
};

/* A picture: 8-bit samples are uint8_t, 9 to 16 bits are uint16_t in host
 * order, each at most (1 << bpc) - 1. Chroma planes are ceil(w/2) wide for
 * 4:2:0 and 4:2:2 and ceil(h/2) high for 4:2:0; a 4:0:0 picture has one
 * plane. Strides are in bytes, at least a row's bytes.
 *
 * Ownership. A picture from vqx_picture_alloc or vqx_picture_alloc_from
 * owns its memory (`buf`): rows are packed (stride = w * bytes per sample),
 * planes start on 64-byte boundaries and follow each other in one block.
 * vqx_send_pictures takes such a picture over, and the context keeps its
 * buffer for a later vqx_picture_alloc_from when the frame is done: a
 * stream read frame by frame into pictures from vqx_picture_alloc_from
 * reuses a few buffers, and no frame allocates or faults in new pages.
 * vqx_picture_free gives a pool picture's buffer back to its context's
 * pool; every picture from vqx_picture_alloc_from is sent or freed before
 * vqx_close. On a context with the cuda backend the pool's memory is pinned,
 * and such pictures go to the GPU without a copy on the host.
 * A picture whose `buf` is NULL is the caller's: the library reads its
 * planes until vqx_flush returns, and never frees them. */
typedef struct VqxContext VqxContext;

typedef struct VqxPicture {
    enum VqxPixelLayout layout;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    void *buf;        /* owned allocation, NULL for a picture the caller owns */
    VqxContext *pool; /* the context whose pool `buf` is from, or NULL */
    void *reserved[4];
} VqxPicture;

VQX_API int vqx_picture_alloc(VqxPicture *pic, enum VqxPixelLayout layout,
                              unsigned bpc, unsigned w, unsigned h);
VQX_API void vqx_picture_free(VqxPicture *pic);
VQX_API unsigned vqx_picture_planes(const VqxPicture *pic);

enum VqxBackend {
    VQX_BACKEND_CPU,
    VQX_BACKEND_CUDA,
    VQX_BACKEND_VULKAN,
};

typedef struct VqxSettings {
    unsigned n_threads;          /* 0: everything runs in the calling thread */
    unsigned subsample;          /* score every n-th frame, 0 or 1: all */
    enum VqxBackend backend;
    int strict_backend;          /* fail instead of falling back to the CPU */
    /* Called once for each notice (a fallback, a feature that was dropped);
     * NULL: notices go to stderr. */
    void (*notice)(void *cookie, const char *msg);
    void *notice_cookie;
    /* Instruction sets the CPU paths must not use, as libvmaf's cpumask:
     * 1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2, 16 AVX-512, 32 AVX-512 ICL; a set
     * bit disables that set, 0 uses every one the CPU has, 63 the scalar C
     * alone. Results are identical for every mask. */
    unsigned cpumask;
    /* The GPU of the cuda or vulkan backend (default 0): its CUDA device
     * index, or the index among the Vulkan devices that can run vqx's
     * shaders; ignored with cuda_context, which names its device itself. */
    unsigned gpu;
    /* The cuda backend: a CUcontext to work in (the caller's, e.g. FFmpeg's
     * hardware device), made current on the threads that use the device;
     * NULL: device 0's primary context. */
    void *cuda_context;
    void *reserved[6];           /* zero (vqx_default_settings) */
} VqxSettings;

VQX_API void vqx_default_settings(VqxSettings *s);
VQX_API const char *vqx_version(void);

VQX_API int vqx_open(VqxContext **ctx, const VqxSettings *s);
VQX_API void vqx_close(VqxContext **ctx);
/* Message of the last failure on this context, "" when none. */
VQX_API const char *vqx_last_error(const VqxContext *ctx);

/* Request a feature extractor by name with options "key=value:key=value"
 * (NULL or "" for defaults). Requesting the same extractor with the same
 * effective options twice is harmless. Must precede the first picture.
 * libvmaf's CUDA names (adm_cuda, vif_cuda, motion_cuda) name the same
 * extractors as adm, vif and motion: VqxSettings.backend decides where they
 * run. */
VQX_API int vqx_use_feature(VqxContext *ctx, const char *name,
                            const char *options);

/* The input's sample range, as its container says (default unspecified):
 * features whose options leave the range to the input read it (ssimulacra2's
 * range=auto, its default). Must precede the first picture. */
VQX_API int vqx_set_color_range(VqxContext *ctx, enum VqxColorRange range);

/* Load a model from a libvmaf-style spec: "version=NAME" or "path=FILE",
 * with optional ":name=OUT", ":disable_clip", ":enable_transform" and
 * ":FEATURE.OPTION=VALUE". Must precede the first picture. */
VQX_API int vqx_use_model(VqxContext *ctx, const char *spec);

/* Send one reference/distorted pair. The pictures are taken over (moved:
 * the caller's structs are cleared) and released by the library. A picture
 * whose `buf` is NULL is borrowed: its planes must stay valid until
 * vqx_flush returns. Frames are numbered from 0 in the order they are sent. */
VQX_API int vqx_send_pictures(VqxContext *ctx, VqxPicture *ref, VqxPicture *dis);
/* The planes the requested features read (bit p: plane p), known once every
 * feature and model is requested. A picture sent may leave the other planes
 * unfilled, or their `data` NULL: they are neither read nor checked. A
 * sample above the bit depth's peak in a read plane fails the frame with
 * -ERANGE (the message names the plane and position); the frames before
 * and after it are scored. */
VQX_API unsigned vqx_planes_used(const VqxContext *ctx);

/* vqx_picture_alloc from the context's pool: a buffer of that size the
 * context has finished with, or a new one (see "Ownership" above). Safe to
 * call from any thread. */
VQX_API int vqx_picture_alloc_from(VqxContext *ctx, VqxPicture *pic,
                                   enum VqxPixelLayout layout, unsigned bpc,
                                   unsigned w, unsigned h);

/* Wait for every frame sent so far and run the end-of-stream step of the
 * temporal features. Returns the first error any feature met (the results
 * of the other features stay readable). */
VQX_API int vqx_flush(VqxContext *ctx);

/* Models loaded, and the key of each model's score. */
VQX_API unsigned vqx_model_count(const VqxContext *ctx);
VQX_API const char *vqx_model_key(const VqxContext *ctx, unsigned model);

/* Results. Keys are named as libvmaf's output names them; vqx_key_name
 * lists them in libvmaf's order, that of their first write in a one-thread
 * libvmaf run (docs/architecture.md, "Key order"), whatever the number of
 * threads; keys not written yet come last. */
VQX_API unsigned vqx_frame_count(const VqxContext *ctx);
VQX_API unsigned vqx_key_count(const VqxContext *ctx);
VQX_API const char *vqx_key_name(const VqxContext *ctx, unsigned key);
/* -ENOENT for an unknown key, -EAGAIN for a frame not (yet) scored. */
VQX_API int vqx_score_at(const VqxContext *ctx, const char *key,
                         unsigned frame, double *value);
/* A value computed elsewhere, written as frame `frame`'s value of `key`
 * (registered when new; it appears in the outputs like any other key, listed
 * where libvmaf lists an imported score: by the frames sent before it).
 * -EEXIST when that frame of the key already has another value. */
VQX_API int vqx_import_score(VqxContext *ctx, const char *key, unsigned frame,
                             double value);
/* The temporal window of the requested features (models' included): frame
 * n's values equal those of a run over the whole stream when the context
 * reads the frames from n - *before on and goes on to frame n + *after (or
 * to the stream's end, whose flush then matches). A stream scored in
 * segments [s, e) sends the frames [s - *before, e + *after) of each and
 * keeps [s, e). Known once every feature and model is requested. */
VQX_API int vqx_frames_needed(const VqxContext *ctx, unsigned *before, unsigned *after);
/* A stream scored elsewhere (in segments, say), pooled and written here: the
 * context takes `n_frames` frames of that format as sent, without pictures
 * and without running its features; their values come by vqx_import_score,
 * and keys are listed in the order of their first import. vqx_flush then
 * computes the models' scores from the imported features, as it does for
 * frames sent, and pooling and the output files are a one-piece run's.
 * Instead of any picture, once the features and models are requested. */
VQX_API int vqx_import_stream(VqxContext *ctx, enum VqxPixelLayout layout, unsigned bpc,
                              unsigned w, unsigned h, unsigned n_frames);
/* For an imported stream: an aggregate value of the run (vqx_aggregate_*),
 * and the backend feature instance `feature` (vqx_run_feature_name's
 * numbering) ran on, as the output files' "backends" report it. */
VQX_API int vqx_import_aggregate(VqxContext *ctx, const char *name, double value);
VQX_API int vqx_import_backend(VqxContext *ctx, unsigned feature, enum VqxBackend backend);
/* Number of leading frames whose every key (model scores included) is
 * final: a live viewer can read those before the flush. */
VQX_API unsigned vqx_frames_complete(const VqxContext *ctx);

/* Aggregate values over the whole run (e.g. psnr's apsnr_y with
 * enable_apsnr), known after vqx_flush. */
VQX_API unsigned vqx_aggregate_count(const VqxContext *ctx);
VQX_API const char *vqx_aggregate_name(const VqxContext *ctx, unsigned i);
VQX_API double vqx_aggregate_value(const VqxContext *ctx, unsigned i);

/* The feature instances requested (models' included), named as the output
 * files' "backends" name them (extractor and options), and where each ran:
 * "cpu" or "cuda". */
VQX_API unsigned vqx_run_feature_count(const VqxContext *ctx);
VQX_API const char *vqx_run_feature_name(const VqxContext *ctx, unsigned i);
VQX_API const char *vqx_run_feature_backend(const VqxContext *ctx, unsigned i);

enum VqxPool {
    VQX_POOL_MIN,
    VQX_POOL_MAX,
    VQX_POOL_MEAN,
    VQX_POOL_HARMONIC_MEAN,
};

/* Pool over the frames [first, last], honouring the subsample setting. */
VQX_API int vqx_score_pooled(const VqxContext *ctx, const char *key,
                             enum VqxPool method, unsigned first,
                             unsigned last, double *value);

enum VqxOutputFormat {
    VQX_OUTPUT_XML,
    VQX_OUTPUT_JSON,
    VQX_OUTPUT_CSV,
    VQX_OUTPUT_SUB,
    /* a plot: one panel per key with the per-frame curve, the pooled mean
     * and the worst frames marked (precision and fps do not apply) */
    VQX_OUTPUT_SVG,
};

/* Number formats: libvmaf's (%.6f, or %.16f for values with more than six
 * leading fractional zeros), every double exactly (%.17g), or N decimals. */
#define VQX_PRECISION_LIBVMAF (-1)
#define VQX_PRECISION_MAX (-2)

typedef struct VqxOutputSettings {
    enum VqxOutputFormat format;
    int precision;   /* VQX_PRECISION_LIBVMAF, VQX_PRECISION_MAX or 0..17 */
    double fps;      /* frames per wall-clock second, written as fyi */
} VqxOutputSettings;

VQX_API int vqx_write_output(const VqxContext *ctx, FILE *f,
                             const VqxOutputSettings *s);

/* Names of everything registered, for help texts and error messages. */
VQX_API const char *vqx_feature_name(unsigned i); /* NULL past the end */

#ifdef __cplusplus
}
#endif

#endif
