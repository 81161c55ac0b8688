/*
 * The feature extractor interface. An extractor is a table entry: the core
 * parses and validates options, names keys, schedules frames over threads and
 * pools results, so a metric file holds only its arithmetic.
 */
#ifndef VQX_FEATURE_EXTRACTOR_H
#define VQX_FEATURE_EXTRACTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vqx/vqx.h"

enum VqxOptionType {
    VQX_OPT_BOOL,   /* bool */
    VQX_OPT_INT,    /* int */
    VQX_OPT_DOUBLE, /* double */
    VQX_OPT_STRING, /* const char *, owned by the core; `choices` may restrict it */
};

enum VqxOptionFlag {
    /* A non-default value is appended to the extractor's key names
     * (libvmaf's VMAF_OPT_FLAG_FEATURE_PARAM). */
    VQX_OPT_NAMES_KEY = 1 << 0,
    /* `values` are matched in float arithmetic: the metric reads the value as
     * a float (libvmaf's kernel scales). */
    VQX_OPT_VALUES_FLOAT = 1 << 1,
};

typedef struct VqxOption {
    const char *name;
    const char *alias;   /* short name used in key suffixes and accepted on input */
    const char *help;
    enum VqxOptionType type;
    size_t offset;       /* into the extractor's state */
    union {
        bool b;
        int i;
        double d;
        const char *s;
    } def;
    double min, max;     /* INT and DOUBLE, inclusive */
    const char *const *choices; /* STRING: NULL-terminated accepted values */
    /* INT and DOUBLE with a finite set of meaningful values: n_values > 0
     * accepts these (a value within `tolerance` of one) instead of min..max. */
    const double *values;
    unsigned n_values;
    double tolerance;
    unsigned flags;
} VqxOption;

enum VqxExtractorFlag {
    /* Frames must be seen in order by a single instance (state carries
     * from one frame to the next). */
    VQX_FEX_TEMPORAL = 1 << 0,
    /* Reads the chroma planes: refused on 4:0:0 input. */
    VQX_FEX_NEEDS_CHROMA = 1 << 1,
    /* Reads plane 0 alone: a stream of such features needs no chroma
     * samples (vqx_planes_used). */
    VQX_FEX_LUMA_ONLY = 1 << 2,
};

typedef struct VqxFrameFormat {
    enum VqxPixelLayout layout;
    unsigned bpc;
    unsigned w, h;
    /* The SIMD an extractor may use: src/cpu.h flags, already masked
     * (vqx_cpu_flags(VqxSettings.cpumask)); 0: the scalar C only. */
    unsigned cpu_flags;
    enum VqxColorRange range; /* vqx_set_color_range's */
} VqxFrameFormat;

/* Size of plane p of such frames, as VqxPicture has it: the real chroma
 * planes, ceil(w/2) in 4:2:0 and 4:2:2, ceil(h/2) in 4:2:0 (see "Odd sizes"
 * in docs/architecture.md). */
static inline unsigned vqx_plane_w(const VqxFrameFormat *fmt, unsigned p)
{
    const unsigned ss = p && (fmt->layout == VQX_PIX_420 || fmt->layout == VQX_PIX_422);
    return (fmt->w + ss) >> ss;
}

static inline unsigned vqx_plane_h(const VqxFrameFormat *fmt, unsigned p)
{
    const unsigned ss = p && fmt->layout == VQX_PIX_420;
    return (fmt->h + ss) >> ss;
}

/* Where an extractor writes its results. `key` indexes the extractor's
 * `keys` table; `frame` may be an earlier frame (temporal features). */
typedef struct VqxSink VqxSink;
int vqx_emit(VqxSink *sink, unsigned key, unsigned frame, double value);
/* The backend's sink of a device twin: what follows are the writes of the
 * twin's call for `frame` (its collect), as a CPU extract's would be. */
void vqx_sink_start_call(VqxSink *sink, unsigned frame);
int vqx_emit_aggregate(VqxSink *sink, const char *name, double value);
/* In the extract of a CPU extractor with a collect: the call's result
 * block (result_size bytes, zeroed), which collect receives. */
void *vqx_result(VqxSink *sink);
/* In the extract of frame n of an extractor with pictures_before: the
 * reference (or distorted) picture of frame n - back, for 1 <= back <=
 * pictures_before and back <= n; NULL otherwise. */
const VqxPicture *vqx_earlier_picture(VqxSink *sink, unsigned back, bool distorted);
/* Sets the one-line reason for a failure; returns err for tail calls. */
int vqx_fail(VqxSink *sink, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Device twins. A twin (backend other than CPU) has the name, keys, options
 * and flags of its CPU extractor, and a state that begins with the CPU
 * extractor's state, so that the option offsets and the CPU's host-side
 * statements apply to it unchanged. It has no extract: device_init prepares
 * it once per stream geometry, record() puts its per-frame kernels into the
 * backend's stream once (the chain is captured as a graph and replayed for
 * every frame), and collect() turns the twin's part of the frame's read-back
 * result block into values on the host, frames in order.
 */
typedef struct VqxDevice VqxDevice;

typedef struct VqxDeviceFrame {
    void *stream;                 /* the stream being captured (cudaStream_t) */
    unsigned block;               /* the graph's block: it runs the frames n with
                                   * n % VQX_DEVICE_BLOCKS == block (cuda/device.h) */
    const void *ref[3], *dis[3];  /* device planes, NULL when not uploaded */
    size_t pitch[3];              /* bytes per row: rows are packed */
    void *result;                 /* the twin's part of the result block, zeroed every frame */
} VqxDeviceFrame;

typedef struct VqxFeatureExtractor {
    const char *name;
    enum VqxBackend backend;
    unsigned flags;
    const char *const *keys;     /* NULL-terminated, libvmaf's internal names */
    /* Bit k set: keys[k] keeps its plain name whatever the options (libvmaf
     * suffixes only the keys of its provided_features list). */
    uint64_t unsuffixed_keys;
    /* Bit k set: libvmaf writes keys[k] only in its flush, which vqx may
     * write frame by frame: the key is listed where libvmaf's flush puts it
     * (vqx_key_name). Twins take their CPU extractor's. */
    uint64_t flush_keys;
    const VqxOption *options;    /* terminated by an entry with name NULL */
    size_t state_size;           /* options live inside the state */
    /* Temporal window: frame n's values equal a whole run's when the
     * extractor has seen the frames from n - frames_before on and runs
     * until frame n + frames_after (vqx_frames_needed; a stream scored in
     * segments reads that much overlap). The widest over the options, so
     * that one table entry holds it. 0 for extractors without cross-frame
     * state; twins take their CPU extractor's. */
    unsigned frames_before, frames_after;
    /* CPU extractors with a collect: extract of frame n may read the
     * pictures of frames n - 1 ... n - pictures_before
     * (vqx_earlier_picture), which the core keeps until then; 0 for most. */
    unsigned pictures_before;
    /* CPU extractors with a collect: the size of a call's result block. */
    size_t result_size;

    /* Optional: refuses a combination of option values that each pass their
     * own check (-EINVAL, a one-line reason in err, naming the extractor);
     * called once the options are parsed, before any picture. */
    int (*check_options)(const void *state, char *err, size_t err_len);

    /* Optional: whether an instance with these options reads plane 0
     * alone; replaces VQX_FEX_LUMA_ONLY where options decide it. */
    bool (*luma_only)(const void *state);

    /* Called once per instance after the options are set. Allocates every
     * buffer the extractor needs: extract must not allocate. May write a
     * reason with vqx_fail. */
    int (*init)(void *state, const VqxFrameFormat *fmt, VqxSink *sink);
    int (*extract)(void *state, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink);
    /* Non-temporal extractors run as several instances; before the flush the
     * core folds every instance into the first one with merge (optional). */
    void (*merge)(void *into, const void *from);
    /* End of stream: emit what depends on later frames or on all of them. */
    int (*flush)(void *state, VqxSink *sink);
    void (*close)(void *state);

    /* Device twins only (see above). device_init may return -ENOTSUP with a
     * reason: the feature then runs on its CPU extractor. */
    int (*device_init)(void *state, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink);
    int (*record)(void *state, const VqxDeviceFrame *frame, VqxDevice *dev);
    /* Device twins, and CPU extractors whose values of a frame depend on
     * the earlier frames' only through a little state (motion's
     * smoothing): such a CPU extractor is not VQX_FEX_TEMPORAL; its extract
     * sees every frame, on any instance but the first, and leaves what it
     * found in its result block; collect then takes the blocks in frame
     * order on the first instance, which flush uses too. */
    int (*collect)(void *state, const void *result, unsigned frame, VqxSink *sink);
} VqxFeatureExtractor;

#endif
