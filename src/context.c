/*
 * The context: requested features and models, the frame pipeline over a
 * worker pool, and access to the results.
 *
 * Scheduling. Every frame sent becomes one task per feature. Tasks of a
 * non-temporal feature run on any worker with any free instance of the
 * feature (one instance per worker). A temporal feature has one instance
 * and takes its frames strictly in order: its task for frame n is queued
 * only once its task for frame n-1 has finished. An extractor with a
 * collect runs its extract on any instance but the first and its collect
 * in frame order on the first; the frames its extract reads again stay in
 * flight (Frame.holds). Results do not depend on the number of threads:
 * every value is computed by the same code on the same inputs, and
 * cross-instance state is folded by merge() before flush.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "context.h"
#include "cpu.h"
#include "device/device.h"
#include "feature/registry.h"
#include "model/model.h"
#include "options.h"
#include "picture.h"

#define ERR_LEN 512
#define KEY_LEN 256

struct Feature;

/* One call of an extractor: its writes are stamped with the call's frame
 * and their sequence (VqxWriteStamp). */
struct VqxSink {
    VqxContext *ctx;
    struct Feature *feature;
    unsigned call, seq;
    void *result;             /* a CPU extract's result block (vqx_result) */
};

typedef struct Feature {
    const VqxFeatureExtractor *fex;
    VqxSink sink;             /* of a device twin, which the backend calls */
    char *option_text;        /* backing store of string options */
    char identity[KEY_LEN];
    void **states;            /* instances */
    bool *state_busy;
    unsigned n_states;
    unsigned *key_ids;        /* collector id of each fex->keys entry */
    uint64_t flush_keys;      /* the CPU extractor's flush_keys */
    bool initialized;
    bool failed;
    char error[ERR_LEN];
    /* temporal scheduling */
    unsigned next_frame;
    bool running;
    /* a CPU extractor with a collect: the result block of each frame in
     * flight (at index % max_inflight) and its state, the next frame to
     * collect, whether a worker is collecting, and whether collecting has
     * stopped (at a frame that failed) */
    unsigned char *results;
    unsigned char *result_state;
    unsigned next_collect;
    bool collecting, collect_stopped;
    /* an imported stream: where the feature ran (vqx_import_backend), else
     * -1: where it was selected */
    int imported_backend;
} Feature;

typedef struct Frame {
    VqxPicture ref, dis;
    unsigned index;
    unsigned pending;         /* tasks not finished */
    unsigned holds;           /* later frames' tasks that will read this one's pictures */
    bool in_use;
    bool device_holds;        /* uploaded from the pictures: kept until collected */
} Frame;

typedef struct Predictor {
    VqxModel *model;
    unsigned n_in, n_out;
    unsigned *in_ids, *out_ids;
    double *in_values, *out_values;
    unsigned next_frame;
    bool failed;
    char error[ERR_LEN];
} Predictor;

typedef struct Task {
    Feature *feature;
    Frame *frame;
} Task;

struct VqxContext {
    VqxSettings settings;
    char error[ERR_LEN];
    VqxCollector collector;

    Feature *features;
    unsigned n_features;
    Predictor *predictors;
    unsigned n_predictors;

    bool started, flushed;
    enum VqxColorRange color_range;
    bool imported;            /* the stream came by vqx_import_stream */
    unsigned n_imports;       /* imported values so far: their write order */
    VqxDevice *device;        /* the CUDA backend, when selected */
    VqxFrameFormat format;
    unsigned n_sent;

    Frame *frames;            /* in-flight frames, a ring of max_inflight */
    unsigned max_inflight;
    unsigned n_inflight;

    pthread_mutex_t lock;
    pthread_cond_t work_cond; /* a task was queued, or shutdown */
    pthread_cond_t done_cond; /* a task finished */
    Task *queue;
    unsigned q_head, q_len, q_cap;
    pthread_t *workers;
    unsigned n_workers;
    bool shutdown;
    unsigned frames_done;     /* every frame below this has no task left */

    /* Every buffer vqx_picture_alloc_from made, free or lent out: a
     * stream's pictures then stop costing a fresh allocation (and its page
     * faults) every frame. Pinned when the cuda backend is open. */
    /* range_planes: planes a reader found within the bit depth's peak since
     * the buffer was lent (vqx_ctx_check_range); on_device: device memory
     * (vqx_ctx_device_picture_alloc) */
    struct PoolBuffer {
        void *buf;
        size_t size;
        bool lent, on_device;
        unsigned range_planes;
    } *pool;
    unsigned n_pool, cap_pool;
    bool pool_pinned;
};

/* Messages stay one line, whatever a caller's string held. */
static void strip_controls(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

static int one_line(VqxContext *ctx, int err)
{
    strip_controls(ctx->error);
    return err;
}

static int set_error(VqxContext *ctx, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int set_error(VqxContext *ctx, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof(ctx->error), fmt, ap);
    va_end(ap);
    return one_line(ctx, err);
}

static void notice(const VqxContext *ctx, const char *msg)
{
    /* one line, whatever a feature's message echoes */
    char line[2 * ERR_LEN];
    snprintf(line, sizeof(line), "%s", msg);
    strip_controls(line);
    if (ctx->settings.notice)
        ctx->settings.notice(ctx->settings.notice_cookie, line);
    else
        fprintf(stderr, "vqx: %s\n", line);
}

const char *vqx_version(void)
{
    return VQX_VERSION;
}

void vqx_default_settings(VqxSettings *s)
{
    memset(s, 0, sizeof(*s));
    s->backend = VQX_BACKEND_CPU;
}

const char *vqx_last_error(const VqxContext *ctx)
{
    return ctx ? ctx->error : "no context";
}

/* ---- sink: what extractors call ---- */

void vqx_sink_start_call(VqxSink *sink, unsigned frame)
{
    sink->call = frame;
    sink->seq = 0;
}

void *vqx_result(VqxSink *sink)
{
    return sink->result;
}

int vqx_emit(VqxSink *sink, unsigned key, unsigned frame, double value)
{
    const Feature *f = sink->feature;
    const unsigned id = f->key_ids[key];
    /* stamped where libvmaf writes it: in this call, or in the flush for
     * the keys libvmaf leaves to it */
    const bool at_flush = key < 64 && (f->flush_keys >> key & 1);
    const unsigned writer = VQX_WRITER_CALLER + 1 + (unsigned)(f - sink->ctx->features);
    const VqxWriteStamp when = { at_flush ? VQX_CALL_FLUSH : sink->call, writer, sink->seq++ };
    const int ret = vqx_collector_put(&sink->ctx->collector, id, frame, value, when);
    /* Another instance wrote another value (e.g. two cambi with full_ref:
     * no option names cambi_source): the result would depend on the order
     * of writes, so the run fails, as libvmaf's does. */
    if (ret == -EEXIST)
        return vqx_fail(sink, ret, "its key '%s' is already written, with another value, by "
                        "another requested feature",
                        sink->ctx->collector.keys[id].name);
    return ret;
}

int vqx_emit_aggregate(VqxSink *sink, const char *name, double value)
{
    return vqx_collector_set_aggregate(&sink->ctx->collector, name, value);
}

int vqx_fail(VqxSink *sink, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sink->feature->error, sizeof(sink->feature->error), fmt, ap);
    va_end(ap);
    return err;
}

/* ---- features ---- */

static bool on_device(const Feature *f)
{
    return f->fex->backend != VQX_BACKEND_CPU;
}

static bool collects_on_cpu(const Feature *f)
{
    return !on_device(f) && f->fex->collect;
}

/* Instances of a CPU extractor: one per worker, or one for a temporal
 * feature; the first is kept for collect where the extractor has one. */
static unsigned cpu_instances(const VqxContext *ctx, const VqxFeatureExtractor *fex)
{
    if (fex->flags & VQX_FEX_TEMPORAL) return 1;
    const unsigned extracting = ctx->n_workers < 2 ? 1 : ctx->n_workers;
    return fex->collect ? extracting + 1 : extracting;
}

static void feature_free(Feature *f)
{
    for (unsigned i = 0; i < f->n_states; i++) {
        if (f->states[i] && f->initialized && f->fex->close)
            f->fex->close(f->states[i]);
        free(f->states[i]);
    }
    free(f->states);
    free(f->state_busy);
    free(f->results);
    free(f->result_state);
    free(f->key_ids);
    free(f->option_text);
}

/* The CPU extractor of a twin, whose flags and option checks the twin has. */
static const VqxFeatureExtractor *cpu_of(const VqxFeatureExtractor *fex)
{
    const VqxFeatureExtractor *cpu = vqx_registry_find(fex->name, VQX_BACKEND_CPU);
    return cpu ? cpu : fex;
}

/* libvmaf's output name of the extractor's k-th key with its options'
 * suffix. */
static void feature_key_name(const VqxFeatureExtractor *fex, unsigned k, const char *suffix,
                             char *buf, size_t len)
{
    const bool plain = k < 64 && (fex->unsuffixed_keys >> k & 1);
    snprintf(buf, len, "%s%s", vqx_key_alias(fex->keys[k]), plain ? "" : suffix);
}

static int refuse_key_name(VqxContext *ctx, const char *whose, const char *name, const char *bad)
{
    const unsigned char ch = (unsigned char)*bad;
    char shown[8];
    snprintf(shown, sizeof(shown), ch >= 0x20 && ch < 0x7f ? "'%c'" : "0x%02x", ch);
    return set_error(ctx, -EINVAL, "%s: the key '%s' cannot be written to the output files "
                     "(character %u is %s); a key is " VQX_KEY_NAME_RULE, whose, name,
                     (unsigned)(bad - name) + 1, shown);
}

/* The model (its spec) that writes the key `name`, NULL when none does. */
static const char *model_writing(const VqxContext *ctx, const char *name)
{
    for (unsigned i = 0; i < ctx->n_predictors; i++) {
        const VqxModel *m = ctx->predictors[i].model;
        for (unsigned o = 0; o < vqx_model_output_count(m); o++)
            if (!strcmp(vqx_model_output_name(m, o), name)) return vqx_model_output_name(m, 0);
    }
    return NULL;
}

/* A feature's keys must be writable and must not be a model's score. */
static int check_feature_keys(VqxContext *ctx, const VqxFeatureExtractor *fex, const char *suffix)
{
    for (unsigned k = 0; fex->keys[k]; k++) {
        char name[2 * KEY_LEN];
        feature_key_name(fex, k, suffix, name, sizeof(name));
        const char *bad = vqx_key_name_fault(name);
        if (bad) return refuse_key_name(ctx, fex->name, name, bad);
        const char *model = model_writing(ctx, name);
        if (model)
            return set_error(ctx, -EINVAL, "feature %s writes the key '%s', which model '%s' "
                             "also writes; name the model otherwise (name=...)", fex->name, name, model);
    }
    return 0;
}

int vqx_ctx_request_feature(VqxContext *ctx, const VqxFeatureExtractor *fex,
                            const char *options, unsigned *index)
{
    if (ctx->started)
        return set_error(ctx, -EINVAL, "features must be requested before the first picture");

    char *text = strdup(options ? options : "");
    void *probe = calloc(1, fex->state_size ? fex->state_size : 1);
    if (!text || !probe) {
        free(text);
        free(probe);
        return set_error(ctx, -ENOMEM, "out of memory");
    }
    int ret = one_line(ctx, vqx_options_apply(fex, probe, text, ctx->error, sizeof(ctx->error)));
    if (!ret && cpu_of(fex)->check_options)
        ret = one_line(ctx, cpu_of(fex)->check_options(probe, ctx->error, sizeof(ctx->error)));
    if (ret) {
        free(text);
        free(probe);
        return ret;
    }
    char identity[KEY_LEN];
    vqx_options_identity(fex, probe, identity, sizeof(identity));
    for (unsigned i = 0; i < ctx->n_features; i++) {
        if (!strcmp(ctx->features[i].identity, identity)) {
            free(text);
            free(probe);
            *index = i;
            return 0;
        }
    }

    unsigned n_keys = 0;
    while (fex->keys[n_keys]) n_keys++;
    char suffix[KEY_LEN];
    vqx_options_key_suffix(fex, probe, suffix, sizeof(suffix));
    ret = check_feature_keys(ctx, fex, suffix);
    if (ret) {
        free(text);
        free(probe);
        return ret;
    }

    Feature *fs = realloc(ctx->features, (ctx->n_features + 1) * sizeof(*fs));
    if (!fs) {
        free(text);
        free(probe);
        return set_error(ctx, -ENOMEM, "out of memory");
    }
    ctx->features = fs;
    Feature *f = &fs[ctx->n_features];
    memset(f, 0, sizeof(*f));
    f->fex = fex;
    f->imported_backend = -1;
    f->flush_keys = cpu_of(fex)->flush_keys;
    f->option_text = text;
    snprintf(f->identity, sizeof(f->identity), "%s", identity);

    f->n_states = fex->backend != VQX_BACKEND_CPU ? 1 : cpu_instances(ctx, fex);
    f->key_ids = calloc(n_keys, sizeof(*f->key_ids));
    f->states = calloc(f->n_states, sizeof(*f->states));
    f->state_busy = calloc(f->n_states, sizeof(*f->state_busy));
    if (!f->key_ids || !f->states || !f->state_busy) {
        feature_free(f);
        free(probe);
        return set_error(ctx, -ENOMEM, "out of memory");
    }
    f->states[0] = probe;

    /* Keys are registered now; they are listed by their first write. */
    const unsigned first_key = ctx->collector.n_keys;
    for (unsigned k = 0; k < n_keys; k++) {
        char name[2 * KEY_LEN];
        feature_key_name(fex, k, suffix, name, sizeof(name));
        ret = vqx_collector_key(&ctx->collector, name, &f->key_ids[k]);
        if (ret) {
            vqx_collector_truncate(&ctx->collector, first_key);
            feature_free(f);
            return set_error(ctx, ret, "out of memory");
        }
    }
    *index = ctx->n_features++;
    return 0;
}

static const char *backend_name(enum VqxBackend b)
{
    return b == VQX_BACKEND_CUDA ? "cuda" : b == VQX_BACKEND_VULKAN ? "vulkan" : "cpu";
}

/* The twin of the CPU extractor `cpu` for the selected backend, or `cpu`
 * itself (with one notice, or an error in strict mode) when it has none. */
static int select_backend(VqxContext *ctx, const VqxFeatureExtractor **fex)
{
    const enum VqxBackend b = ctx->settings.backend;
    if (b == VQX_BACKEND_CPU || !*fex) return 0;
    const VqxFeatureExtractor *twin = vqx_registry_find((*fex)->name, b);
    if (twin) {
        *fex = twin;
        return 0;
    }
    if (ctx->settings.strict_backend)
        return set_error(ctx, -ENOTSUP, "%s: no %s twin (strict backend)", (*fex)->name,
                         backend_name(b));
    for (unsigned i = 0; i < ctx->n_features; i++)
        if (ctx->features[i].fex == *fex) return 0; /* already noticed */
    char msg[128];
    snprintf(msg, sizeof(msg), "%s: no %s twin, runs on the cpu", (*fex)->name, backend_name(b));
    notice(ctx, msg);
    return 0;
}

int vqx_set_color_range(VqxContext *ctx, enum VqxColorRange range)
{
    if (!ctx) return -EINVAL;
    if (ctx->started)
        return set_error(ctx, -EINVAL, "the colour range must be set before the first picture");
    if (range != VQX_RANGE_UNSPECIFIED && range != VQX_RANGE_LIMITED && range != VQX_RANGE_FULL)
        return set_error(ctx, -EINVAL, "unknown colour range %d", (int)range);
    ctx->color_range = range;
    return 0;
}

int vqx_use_feature(VqxContext *ctx, const char *name, const char *options)
{
    if (!ctx || !name) return -EINVAL;
    const VqxFeatureExtractor *fex = vqx_registry_find(vqx_registry_canonical_name(name),
                                                       VQX_BACKEND_CPU);
    int ret = select_backend(ctx, &fex);
    if (ret) return ret;
    if (!fex) {
        char names[1024];
        vqx_registry_names(VQX_BACKEND_CPU, names, sizeof(names));
        return set_error(ctx, -EINVAL, "unknown feature '%s' (features: %s)", name, names);
    }
    unsigned index;
    return vqx_ctx_request_feature(ctx, fex, options, &index);
}

/* ---- models ---- */

/* A model's outputs must be writable keys that nothing else writes: libvmaf
 * lets them overwrite each other. */
static int check_model_keys(VqxContext *ctx, const VqxModel *model, const char *spec)
{
    for (unsigned o = 0; o < vqx_model_output_count(model); o++) {
        const char *name = vqx_model_output_name(model, o);
        const char *bad = vqx_key_name_fault(name);
        if (bad) {
            char whose[KEY_LEN];
            snprintf(whose, sizeof(whose), "model %s", spec);
            return refuse_key_name(ctx, whose, name, bad);
        }
        if (vqx_key_name_reserved(name))
            return set_error(ctx, -EINVAL, "model %s: '%s' names the frame number in the output "
                             "files; name the model otherwise (name=...)", spec, name);
        const char *other = model_writing(ctx, name);
        if (other)
            return set_error(ctx, -EINVAL, "model %s: a model named '%s' already writes the key "
                             "'%s'; each model needs its own name (name=...)", spec, other, name);
        const int id = vqx_collector_find(&ctx->collector, name);
        if (id >= 0) {
            const char *feature = "another feature";
            for (unsigned i = 0; i < ctx->n_features; i++) {
                const Feature *f = &ctx->features[i];
                for (unsigned k = 0; f->fex->keys[k]; k++)
                    if (f->key_ids[k] == (unsigned)id) feature = f->identity;
            }
            return set_error(ctx, -EINVAL, "model %s: its output '%s' is also a key of feature %s; "
                             "name the model otherwise (name=...)", spec, name, feature);
        }
    }
    return 0;
}

static void predictor_free(Predictor *p)
{
    vqx_model_free(&p->model);
    free(p->in_ids);
    free(p->out_ids);
    free(p->in_values);
    free(p->out_values);
}

int vqx_use_model(VqxContext *ctx, const char *spec)
{
    if (!ctx || !spec) return -EINVAL;
    if (ctx->started)
        return set_error(ctx, -EINVAL, "models must be loaded before the first picture");

    Predictor p = { 0 };
    int ret = one_line(ctx, vqx_model_load(&p.model, spec, ctx->error, sizeof(ctx->error)));
    if (ret) return ret;
    p.n_in = vqx_model_input_count(p.model);
    p.n_out = vqx_model_output_count(p.model);
    p.in_ids = calloc(p.n_in ? p.n_in : 1, sizeof(*p.in_ids));
    p.in_values = calloc(p.n_in ? p.n_in : 1, sizeof(*p.in_values));
    p.out_ids = calloc(p.n_out, sizeof(*p.out_ids));
    p.out_values = calloc(p.n_out, sizeof(*p.out_values));
    Predictor *ps = realloc(ctx->predictors, (ctx->n_predictors + 1) * sizeof(*ps));
    if (ps) ctx->predictors = ps;
    if (!ps || !p.in_ids || !p.in_values || !p.out_ids || !p.out_values) {
        predictor_free(&p);
        return set_error(ctx, -ENOMEM, "out of memory");
    }

    /* The model's features are requested first, so that its keys are
     * checked against theirs too; a refusal takes the request back whole. */
    const unsigned n_features = ctx->n_features, n_keys = ctx->collector.n_keys;
    for (unsigned i = 0; !ret && i < p.n_in; i++) {
        const char *key = vqx_model_input_key(p.model, i);
        const VqxFeatureExtractor *fex = vqx_registry_find_by_key(key, VQX_BACKEND_CPU);
        if (!fex) {
            ret = set_error(ctx, -ENOTSUP, "model '%s' needs feature '%s', which no extractor "
                            "provides yet", vqx_model_output_name(p.model, 0), key);
            break;
        }
        ret = select_backend(ctx, &fex);
        unsigned fi;
        if (!ret) ret = vqx_ctx_request_feature(ctx, fex, vqx_model_input_options(p.model, i), &fi);
        if (ret) break;
        const Feature *f = &ctx->features[fi];
        unsigned k = 0;
        while (strcmp(fex->keys[k], key)) k++;
        p.in_ids[i] = f->key_ids[k];
    }
    if (!ret) ret = check_model_keys(ctx, p.model, spec);
    /* the score key now; a bootstrap model's further outputs at the start */
    if (!ret && vqx_collector_key(&ctx->collector, vqx_model_output_name(p.model, 0), &p.out_ids[0]))
        ret = set_error(ctx, -ENOMEM, "out of memory");
    if (ret) {
        while (ctx->n_features > n_features) feature_free(&ctx->features[--ctx->n_features]);
        vqx_collector_truncate(&ctx->collector, n_keys);
        predictor_free(&p);
        return ret;
    }
    ctx->predictors[ctx->n_predictors++] = p;
    return 0;
}

/* Predict every frame whose inputs are all written, in order. Called with
 * ctx->lock held. */
static void run_predictions(VqxContext *ctx)
{
    for (unsigned pi = 0; pi < ctx->n_predictors; pi++) {
        Predictor *p = &ctx->predictors[pi];
        while (!p->failed && p->next_frame < ctx->n_sent) {
            const unsigned n = p->next_frame;
            const unsigned sub = ctx->settings.subsample;
            if (sub > 1 && n % sub) {
                p->next_frame++;
                continue;
            }
            bool ready = true;
            for (unsigned i = 0; i < p->n_in && ready; i++)
                ready = vqx_collector_get(&ctx->collector, p->in_ids[i], n, &p->in_values[i]);
            if (!ready) break;
            int ret = vqx_model_predict(p->model, p->in_values, p->out_values);
            if (ret) {
                p->failed = true;
                snprintf(p->error, sizeof(p->error), "model '%s' failed at frame %u",
                         vqx_model_output_name(p->model, 0), n);
                break;
            }
            /* libvmaf's CLI scores the models after the flush, in order,
             * then the further outputs of the bootstrap ones */
            for (unsigned o = 0; o < p->n_out; o++) {
                const VqxWriteStamp when = { VQX_CALL_MODELS, o ? ctx->n_predictors + pi : pi, o };
                vqx_collector_put(&ctx->collector, p->out_ids[o], n, p->out_values[o], when);
            }
            p->next_frame++;
        }
    }
}

/* ---- pipeline ---- */

static void push_task(VqxContext *ctx, Feature *f, Frame *fr)
{
    /* capacity is n_features * max_inflight: never full */
    ctx->queue[(ctx->q_head + ctx->q_len) % ctx->q_cap] = (Task){ f, fr };
    ctx->q_len++;
    if (f->fex->flags & VQX_FEX_TEMPORAL) f->running = true;
    pthread_cond_signal(&ctx->work_cond);
}

static bool device_all_failed(const VqxContext *ctx)
{
    for (unsigned i = 0; i < ctx->n_features; i++)
        if (on_device(&ctx->features[i]) && !ctx->features[i].failed) return false;
    return true;
}

static Frame *inflight_frame(VqxContext *ctx, unsigned index)
{
    Frame *fr = &ctx->frames[index % ctx->max_inflight];
    return fr->in_use && fr->index == index ? fr : NULL;
}

/* Read without the lock: a held frame's entry does not change. */
const VqxPicture *vqx_earlier_picture(VqxSink *sink, unsigned back, bool distorted)
{
    const Feature *f = sink->feature;
    if (!collects_on_cpu(f) || !back || back > f->fex->pictures_before || back > sink->call)
        return NULL;
    const Frame *fr = inflight_frame(sink->ctx, sink->call - back);
    return fr ? distorted ? &fr->dis : &fr->ref : NULL;
}

static bool frame_sampled(const VqxContext *ctx, unsigned index)
{
    return ctx->settings.subsample <= 1 || index % ctx->settings.subsample == 0;
}

/* The pool entry of `buf`, NULL when the pool did not make it; called
 * with ctx->lock held. */
static struct PoolBuffer *pool_entry(VqxContext *ctx, const void *buf)
{
    for (unsigned i = 0; buf && i < ctx->n_pool; i++)
        if (ctx->pool[i].buf == buf) return &ctx->pool[i];
    return NULL;
}

/* A picture's memory back where it came from; called with ctx->lock held. */
static void release_picture(VqxContext *ctx, VqxPicture *pic)
{
    struct PoolBuffer *b = pic->pool == ctx ? pool_entry(ctx, pic->buf) : NULL;
    if (b) b->lent = false;
    else if (pic->pool) vqx_ctx_pool_release(pic->pool, pic->buf); /* another context's */
    else free(pic->buf);
    memset(pic, 0, sizeof(*pic));
}

void vqx_ctx_pool_release(VqxContext *ctx, void *buf)
{
    pthread_mutex_lock(&ctx->lock);
    struct PoolBuffer *b = pool_entry(ctx, buf);
    if (b) b->lent = false;
    pthread_mutex_unlock(&ctx->lock);
}

static void *pool_new_buffer(const VqxContext *ctx, size_t size, bool on_device)
{
    if (on_device) return vqx_device_memory_alloc(ctx->device, size);
    /* pool sizes are multiples of 64, as aligned_alloc wants */
    return ctx->pool_pinned ? vqx_device_host_alloc(size) : aligned_alloc(64, size);
}

static void pool_free_buffer(const VqxContext *ctx, const struct PoolBuffer *b)
{
    if (b->on_device) vqx_device_memory_free(ctx->device, b->buf);
    else if (ctx->pool_pinned) vqx_device_host_free(b->buf);
    else free(b->buf);
}

int vqx_picture_alloc_from(VqxContext *ctx, VqxPicture *pic, enum VqxPixelLayout layout,
                           unsigned bpc, unsigned w, unsigned h)
{
    return vqx_ctx_picture_alloc(ctx, pic, layout, bpc, w, h, VQX_ALL_PLANES);
}

/* A pool picture in host memory (pinned on a cuda context) or in device
 * memory. */
static int pool_picture(VqxContext *ctx, VqxPicture *pic, enum VqxPixelLayout layout,
                        unsigned bpc, unsigned w, unsigned h, unsigned planes, bool on_device)
{
    if (!ctx || !pic) return -EINVAL;
    const size_t size = vqx_picture_layout(pic, layout, bpc, w, h, planes);
    if (!size) return -EINVAL;
    pthread_mutex_lock(&ctx->lock);
    void *buf = NULL;
    for (unsigned i = 0; i < ctx->n_pool && !buf; i++) {
        if (!ctx->pool[i].lent && ctx->pool[i].size == size &&
            ctx->pool[i].on_device == on_device) {
            ctx->pool[i].lent = true;
            ctx->pool[i].range_planes = 0;
            buf = ctx->pool[i].buf;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    if (!buf) {
        /* a new buffer: only while the stream's frames in flight grow */
        buf = pool_new_buffer(ctx, size, on_device);
        if (!buf) return -ENOMEM;
        pthread_mutex_lock(&ctx->lock);
        if (ctx->n_pool == ctx->cap_pool) {
            const unsigned cap = ctx->cap_pool ? 2 * ctx->cap_pool : 16;
            struct PoolBuffer *p = realloc(ctx->pool, cap * sizeof(*p));
            if (!p) {
                pthread_mutex_unlock(&ctx->lock);
                pool_free_buffer(ctx, &(struct PoolBuffer){ .buf = buf, .on_device = on_device });
                return -ENOMEM;
            }
            ctx->pool = p;
            ctx->cap_pool = cap;
        }
        ctx->pool[ctx->n_pool++] = (struct PoolBuffer){ .buf = buf, .size = size, .lent = true,
                                                        .on_device = on_device };
        pthread_mutex_unlock(&ctx->lock);
    }
    vqx_picture_place(pic, buf, planes);
    pic->pool = ctx;
    return 0;
}

int vqx_ctx_picture_alloc(VqxContext *ctx, VqxPicture *pic, enum VqxPixelLayout layout,
                          unsigned bpc, unsigned w, unsigned h, unsigned planes)
{
    return pool_picture(ctx, pic, layout, bpc, w, h, planes, false);
}

int vqx_ctx_device_picture_alloc(VqxContext *ctx, VqxPicture *pic, enum VqxPixelLayout layout,
                                 unsigned bpc, unsigned w, unsigned h)
{
    if (ctx && !ctx->device)
        return set_error(ctx, -EINVAL, "pictures in device memory need the cuda backend");
    const int ret = pool_picture(ctx, pic, layout, bpc, w, h, VQX_ALL_PLANES, true);
    return ret == -ENOMEM ? set_error(ctx, ret, "out of device memory for a picture") : ret;
}

/* Whether the picture's memory is a device-memory pool buffer; called with
 * ctx->lock held. */
static bool on_device_memory(VqxContext *ctx, const VqxPicture *p)
{
    const struct PoolBuffer *b = p->pool == ctx ? pool_entry(ctx, p->buf) : NULL;
    return b && b->on_device;
}

bool vqx_ctx_picture_on_device(VqxContext *ctx, const VqxPicture *p)
{
    pthread_mutex_lock(&ctx->lock);
    const bool on = on_device_memory(ctx, p);
    pthread_mutex_unlock(&ctx->lock);
    return on;
}

/* Where the pair is, for the device's copy: both the pool's pinned or device
 * memory (read as it is), or else the caller's (through a staging copy);
 * called with ctx->lock held. */
static enum VqxFrameMemory frame_memory(VqxContext *ctx, const VqxPicture *ref,
                                        const VqxPicture *dis)
{
    if (on_device_memory(ctx, ref)) return VQX_FRAME_DEVICE;
    return ctx->pool_pinned && ref->pool == ctx && dis->pool == ctx && pool_entry(ctx, ref->buf) &&
           pool_entry(ctx, dis->buf) ? VQX_FRAME_PINNED : VQX_FRAME_CALLER;
}

/* Frames below this have had every task (a held one may still be in
 * flight); called with ctx->lock held. */
static unsigned frames_scored(VqxContext *ctx)
{
    unsigned n = ctx->frames_done;
    for (const Frame *fr; n < ctx->n_sent && (fr = inflight_frame(ctx, n)) && !fr->pending;)
        n++;
    return n;
}

static void retire_frames(VqxContext *ctx)
{
    while (ctx->frames_done < ctx->n_sent) {
        Frame *fr = inflight_frame(ctx, ctx->frames_done);
        if (!fr || fr->pending || fr->holds) break;
        /* a failed device reads nothing more */
        if (fr->device_holds && !device_all_failed(ctx) &&
            fr->index >= vqx_device_collected(ctx->device))
            break;
        release_picture(ctx, &fr->ref);
        release_picture(ctx, &fr->dis);
        fr->in_use = false;
        ctx->n_inflight--;
        ctx->frames_done++;
    }
}

/* Queue the next frame of a temporal feature if it has arrived. */
static void advance_temporal(VqxContext *ctx, Feature *f)
{
    if (f->running) return;
    Frame *fr = inflight_frame(ctx, f->next_frame);
    if (fr) push_task(ctx, f, fr);
}

/* The feature fails at `frame`; called with ctx->lock held. */
static void fail_feature(Feature *f, unsigned frame, int err)
{
    if (f->failed) return;
    f->failed = true;
    char msg[ERR_LEN + 64];
    snprintf(msg, sizeof(msg), "%s: frame %u: %s", f->fex->name, frame,
             f->error[0] ? f->error : strerror(-err));
    memcpy(f->error, msg, sizeof(f->error) - 1); /* may truncate */
    f->error[sizeof(f->error) - 1] = 0;
}

enum { RESULT_NONE, RESULT_READY, RESULT_MISSING };

/* Frame n's task has read what it needed of frames n - pictures_before
 * ... n - 1: each of them is held once less (vqx_send_pictures); called
 * with ctx->lock held. */
static void end_holds(VqxContext *ctx, const Feature *f, unsigned n)
{
    for (unsigned back = 1; back <= f->fex->pictures_before && back <= n; back++)
        inflight_frame(ctx, n - back)->holds--;
}

/* Hands a feature's ready results to its collect, frames in order, one
 * worker at a time; the first frame whose result is missing stops it.
 * Called with ctx->lock held, which it releases while collecting. */
static void collect_in_order(VqxContext *ctx, Feature *f)
{
    while (!f->collecting && f->next_collect < ctx->n_sent) {
        const unsigned n = f->next_collect;
        const unsigned at = n % ctx->max_inflight;
        Frame *fr = inflight_frame(ctx, n);
        if (!fr || f->result_state[at] == RESULT_NONE) break;
        if (f->result_state[at] == RESULT_MISSING) f->collect_stopped = true;
        const bool skip = f->collect_stopped;
        f->collecting = true;
        pthread_mutex_unlock(&ctx->lock);
        int ret = 0;
        if (!skip) {
            VqxSink sink = { .ctx = ctx, .feature = f, .call = n };
            ret = f->fex->collect(f->states[0], f->results + at * f->fex->result_size, n, &sink);
        }
        pthread_mutex_lock(&ctx->lock);
        f->collecting = false;
        f->result_state[at] = RESULT_NONE;
        if (ret) {
            fail_feature(f, n, ret);
            f->collect_stopped = true;
        }
        f->next_collect++;
        fr->pending--;
    }
}

/* Runs one task; called with ctx->lock held, releases it while extracting. */
static void run_task(VqxContext *ctx, Task t)
{
    Feature *f = t.feature;
    Frame *fr = t.frame;
    const bool collects = collects_on_cpu(f);
    unsigned slot = collects; /* the first instance is collect's */
    while (f->state_busy[slot]) slot++;
    f->state_busy[slot] = true;
    const bool skip = f->failed;
    pthread_mutex_unlock(&ctx->lock);

    int ret = 0;
    if (!skip) {
        VqxSink sink = { .ctx = ctx, .feature = f, .call = fr->index };
        if (collects) {
            sink.result = f->results + fr->index % ctx->max_inflight * f->fex->result_size;
            memset(sink.result, 0, f->fex->result_size);
        }
        ret = f->fex->extract(f->states[slot], &fr->ref, &fr->dis, fr->index, &sink);
    }

    pthread_mutex_lock(&ctx->lock);
    f->state_busy[slot] = false;
    if (ret) fail_feature(f, fr->index, ret);
    if (collects) {
        end_holds(ctx, f, fr->index);
        f->result_state[fr->index % ctx->max_inflight] = skip || ret ? RESULT_MISSING : RESULT_READY;
        collect_in_order(ctx, f); /* the frame's task ends with its collect */
    } else {
        fr->pending--;
    }
    if (f->fex->flags & VQX_FEX_TEMPORAL) {
        f->running = false;
        f->next_frame++;
        advance_temporal(ctx, f);
    }
    retire_frames(ctx);
    run_predictions(ctx);
    pthread_cond_broadcast(&ctx->done_cond);
}

static void *worker_main(void *arg)
{
    VqxContext *ctx = arg;
    pthread_mutex_lock(&ctx->lock);
    for (;;) {
        while (!ctx->q_len && !ctx->shutdown)
            pthread_cond_wait(&ctx->work_cond, &ctx->lock);
        if (!ctx->q_len) break;
        Task t = ctx->queue[ctx->q_head];
        ctx->q_head = (ctx->q_head + 1) % ctx->q_cap;
        ctx->q_len--;
        run_task(ctx, t);
    }
    pthread_mutex_unlock(&ctx->lock);
    return NULL;
}

/* Without workers the caller runs the queue itself. */
static void drain_inline(VqxContext *ctx)
{
    while (ctx->q_len) {
        Task t = ctx->queue[ctx->q_head];
        ctx->q_head = (ctx->q_head + 1) % ctx->q_cap;
        ctx->q_len--;
        run_task(ctx, t);
    }
}

int vqx_open(VqxContext **out, const VqxSettings *s)
{
    if (!out) return -EINVAL;
    VqxContext *ctx = calloc(1, sizeof(*ctx));
    if (!ctx) return -ENOMEM;
    if (s) ctx->settings = *s;
    else vqx_default_settings(&ctx->settings);
    int ret = vqx_collector_init(&ctx->collector);
    if (ret) {
        free(ctx);
        return ret;
    }
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_cond_init(&ctx->work_cond, NULL);
    pthread_cond_init(&ctx->done_cond, NULL);
    *out = ctx;

    if (ctx->settings.backend != VQX_BACKEND_CPU) {
        ret = vqx_device_open(&ctx->device, ctx->settings.backend, ctx->settings.gpu,
                              ctx->settings.cuda_context, ctx->error, sizeof(ctx->error));
        if (ret) return ret;
        ctx->pool_pinned = vqx_device_wants_pinned(ctx->device);
    }
    ctx->n_workers = ctx->settings.n_threads;
    ctx->max_inflight = ctx->n_workers ? 2 * ctx->n_workers + 2 : 1;
    /* the device holds the frames it uploads from the pictures */
    if (ctx->device && ctx->max_inflight < VQX_DEVICE_BLOCKS + 2)
        ctx->max_inflight = VQX_DEVICE_BLOCKS + 2;
    ctx->frames = calloc(ctx->max_inflight, sizeof(*ctx->frames));
    if (!ctx->frames) return set_error(ctx, -ENOMEM, "out of memory");
    if (ctx->n_workers) {
        ctx->workers = calloc(ctx->n_workers, sizeof(*ctx->workers));
        if (!ctx->workers) return set_error(ctx, -ENOMEM, "out of memory");
        for (unsigned i = 0; i < ctx->n_workers; i++) {
            ret = pthread_create(&ctx->workers[i], NULL, worker_main, ctx);
            if (ret) {
                ctx->n_workers = i;
                return set_error(ctx, -ret, "cannot start worker thread: %s", strerror(ret));
            }
        }
    }
    return 0;
}

void vqx_close(VqxContext **pctx)
{
    if (!pctx || !*pctx) return;
    VqxContext *ctx = *pctx;
    pthread_mutex_lock(&ctx->lock);
    ctx->shutdown = true;
    pthread_cond_broadcast(&ctx->work_cond);
    pthread_mutex_unlock(&ctx->lock);
    for (unsigned i = 0; i < ctx->n_workers; i++)
        pthread_join(ctx->workers[i], NULL);
    free(ctx->workers);
    /* the device's copies from the pool end before the pool goes, and its
     * device memory goes before the device */
    vqx_device_quiesce(ctx->device);
    for (unsigned i = 0; i < ctx->max_inflight; i++) {
        vqx_picture_free(&ctx->frames[i].ref);
        vqx_picture_free(&ctx->frames[i].dis);
    }
    free(ctx->frames);
    for (unsigned i = 0; i < ctx->n_pool; i++)
        pool_free_buffer(ctx, &ctx->pool[i]);
    free(ctx->pool);
    vqx_device_close(&ctx->device);
    free(ctx->queue);
    for (unsigned i = 0; i < ctx->n_features; i++)
        feature_free(&ctx->features[i]);
    free(ctx->features);
    for (unsigned i = 0; i < ctx->n_predictors; i++)
        predictor_free(&ctx->predictors[i]);
    free(ctx->predictors);
    vqx_collector_free(&ctx->collector);
    pthread_cond_destroy(&ctx->work_cond);
    pthread_cond_destroy(&ctx->done_cond);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    *pctx = NULL;
}

static const char *layout_name(enum VqxPixelLayout l)
{
    static const char *const names[] = { "4:0:0", "4:2:0", "4:2:2", "4:4:4" };
    return l <= VQX_PIX_444 ? names[l] : "unknown";
}

static const char *const plane_names[] = { "Y", "U", "V" };

unsigned vqx_planes_used(const VqxContext *ctx)
{
    if (!ctx) return 0;
    for (unsigned i = 0; i < ctx->n_features; i++) {
        const Feature *f = &ctx->features[i];
        const VqxFeatureExtractor *cpu = cpu_of(f->fex);
        if (!(cpu->luma_only ? cpu->luma_only(f->states[0]) : cpu->flags & VQX_FEX_LUMA_ONLY))
            return VQX_ALL_PLANES;
    }
    return 1;
}

/* A reader of this context's pool found the picture's `planes` within the
 * peak (vqx_ctx_mark_in_range). */
static bool range_checked(VqxContext *ctx, const VqxPicture *p, unsigned planes)
{
    if (p->pool != ctx) return false;
    pthread_mutex_lock(&ctx->lock);
    const struct PoolBuffer *b = pool_entry(ctx, p->buf);
    const bool checked = b && b->lent && !(planes & ~b->range_planes);
    pthread_mutex_unlock(&ctx->lock);
    return checked;
}

void vqx_ctx_mark_in_range(VqxContext *ctx, const VqxPicture *pic, unsigned planes)
{
    if (pic->pool != ctx) return;
    pthread_mutex_lock(&ctx->lock);
    struct PoolBuffer *b = pool_entry(ctx, pic->buf);
    if (b && b->lent) b->range_planes = planes;
    pthread_mutex_unlock(&ctx->lock);
}

/* A picture must have the stream's format, planes that hold it, and no
 * sample above its bit depth's peak (the metrics' integer paths overflow on
 * those, and every value would be meaningless). */
static int overflow_error(VqxContext *ctx, const char *what, const VqxSampleOverflow *at)
{
    const unsigned bpc = ctx->format.bpc;
    return set_error(ctx, -ERANGE, "frame %u: %s picture, plane %s, sample (x %u, y %u) is %u, "
                     "above the %u-bit peak %u", ctx->n_sent, what, plane_names[at->plane], at->x,
                     at->y, at->value, bpc, (1u << bpc) - 1);
}

static int check_picture(VqxContext *ctx, const VqxPicture *p, const char *what)
{
    const VqxFrameFormat *f = &ctx->format;
    if (f->layout > VQX_PIX_444 || f->bpc < 8 || f->bpc > 16 || !f->w || !f->h)
        return set_error(ctx, -EINVAL, "frame %u: the reference picture's format (%ux%u, layout %d, "
                         "%u-bit) is not one vqx takes: 4:0:0, 4:2:0, 4:2:2 or 4:4:4, 8 to 16 bits",
                         ctx->n_sent, f->w, f->h, (int)f->layout, f->bpc);
    if (p->layout != f->layout || p->bpc != f->bpc || p->w[0] != f->w || p->h[0] != f->h)
        return set_error(ctx, -EINVAL,
                         "frame %u: %s picture is %ux%u %s %u-bit, the stream is %ux%u %s %u-bit",
                         ctx->n_sent, what, p->w[0], p->h[0], layout_name(p->layout), p->bpc,
                         f->w, f->h, layout_name(f->layout), f->bpc);
    const unsigned bytes = f->bpc > 8 ? 2 : 1;
    const unsigned used = vqx_planes_used(ctx);
    for (unsigned i = 0; i < vqx_picture_planes(p); i++) {
        if (!(used >> i & 1)) continue;
        if (!p->data[i] || p->w[i] != vqx_plane_w(f, i) || p->h[i] != vqx_plane_h(f, i) ||
            p->stride[i] < (ptrdiff_t)(p->w[i] * bytes))
            return set_error(ctx, -EINVAL, "frame %u: %s picture, plane %s: %s (%ux%u, stride %td; "
                             "%ux%u %s expects %ux%u)", ctx->n_sent, what, plane_names[i],
                             p->data[i] ? "wrong size or stride" : "no samples",
                             p->w[i], p->h[i], p->stride[i], f->w, f->h, layout_name(f->layout),
                             vqx_plane_w(f, i), vqx_plane_h(f, i));
    }
    /* pictures in device memory are checked on the device, as a pair */
    VqxSampleOverflow at;
    if (!vqx_ctx_picture_on_device(ctx, p) && !range_checked(ctx, p, used) &&
        vqx_picture_find_overflow(p, used, &at))
        return overflow_error(ctx, what, &at);
    return 0;
}

/* Every feature on the device fails with the backend's message. */
static void device_failed(VqxContext *ctx)
{
    const char *msg = vqx_device_error(ctx->device);
    for (unsigned i = 0; i < ctx->n_features; i++) {
        Feature *f = &ctx->features[i];
        if (!on_device(f) || f->failed) continue;
        f->failed = true;
        snprintf(f->error, sizeof(f->error), "%s", msg);
    }
    notice(ctx, msg);
}

/* A twin that cannot take this input gives way to its CPU extractor: the
 * state's leading CPU part, options included, carries over. */
static int fall_back_to_cpu(VqxContext *ctx, Feature *f)
{
    const VqxFeatureExtractor *cpu = vqx_registry_find(f->fex->name, VQX_BACKEND_CPU);
    void *state = calloc(1, cpu->state_size ? cpu->state_size : 1);
    if (!state) return -ENOMEM;
    memcpy(state, f->states[0], cpu->state_size);
    free(f->states[0]);
    f->states[0] = state;
    f->fex = cpu;
    f->initialized = false;
    const unsigned n_states = cpu_instances(ctx, cpu);
    if (n_states > 1) {
        void **states = calloc(n_states, sizeof(*states));
        bool *busy = calloc(n_states, sizeof(*busy));
        if (!states || !busy) {
            free(states);
            free(busy);
            return -ENOMEM;
        }
        states[0] = f->states[0];
        free(f->states);
        free(f->state_busy);
        f->states = states;
        f->state_busy = busy;
        f->n_states = n_states;
    }
    return 0;
}

/* Initialises a device twin; returns 0 with the feature still on the device,
 * 0 after a fallback to the CPU (initialised by the caller), or an error. */
static int start_twin(VqxContext *ctx, Feature *f, const VqxPicture *ref)
{
    (void)ref;
    f->sink = (VqxSink){ .ctx = ctx, .feature = f };
    f->initialized = true;
    int ret = vqx_device_add(ctx->device, f->fex, f->states[0], &f->sink, &ctx->format);
    if (ret == -ENOTSUP && !ctx->settings.strict_backend) {
        char msg[ERR_LEN + 64];
        snprintf(msg, sizeof(msg), "%s: %s; runs on the cpu", f->fex->name,
                 f->error[0] ? f->error : "not supported by its device twin");
        notice(ctx, msg);
        f->error[0] = 0;
        return fall_back_to_cpu(ctx, f);
    }
    if (ret) {
        f->failed = true;
        if (!f->error[0]) snprintf(f->error, sizeof(f->error), "%s: %s", f->fex->name, strerror(-ret));
        notice(ctx, f->error);
        return ret == -ENOMEM ? ret : 1;
    }
    return 0;
}

/* The feature that writes collector key `id`, NULL when none. */
static const Feature *feature_writing(const VqxContext *ctx, unsigned id)
{
    for (unsigned i = 0; i < ctx->n_features; i++) {
        const Feature *f = &ctx->features[i];
        for (unsigned k = 0; f->fex->keys[k]; k++)
            if (f->key_ids[k] == id) return f;
    }
    return NULL;
}

/* A model one of whose features refused the input is not computed: say so
 * once, after the features' own reasons. */
static void drop_unfed_models(VqxContext *ctx)
{
    for (unsigned pi = 0; pi < ctx->n_predictors; pi++) {
        Predictor *p = &ctx->predictors[pi];
        char refused[ERR_LEN / 2] = "";
        size_t n = 0;
        for (unsigned i = 0; i < p->n_in && n < sizeof(refused); i++) {
            const Feature *f = feature_writing(ctx, p->in_ids[i]);
            if (!f || !f->failed || strstr(refused, f->fex->name)) continue;
            n += (size_t)snprintf(refused + n, sizeof(refused) - n, "%s%s", n ? ", " : "", f->fex->name);
        }
        if (!n) continue;
        p->failed = true;
        snprintf(p->error, sizeof(p->error), "model '%s' is not computed: its feature%s %s "
                 "refused the input", vqx_model_output_name(p->model, 0),
                 strchr(refused, ',') ? "s" : "", refused);
        notice(ctx, p->error);
    }
}

/* Create and initialise every instance once the geometry (ctx->format) is
 * known. A feature that refuses the input is dropped with a notice; the
 * rest go on. */
static int start(VqxContext *ctx, const VqxPicture *ref)
{
    ctx->started = true;
    /* frames that an extractor reads again later stay in flight too */
    unsigned back = 0;
    for (unsigned i = 0; i < ctx->n_features; i++) {
        const unsigned k = cpu_of(ctx->features[i].fex)->pictures_before;
        if (k > back) back = k;
    }
    if (back) {
        Frame *frames = calloc(ctx->max_inflight + back, sizeof(*frames));
        if (!frames) return set_error(ctx, -ENOMEM, "out of memory");
        free(ctx->frames);
        ctx->frames = frames;
        ctx->max_inflight += back;
    }
    ctx->q_cap = (ctx->n_features ? ctx->n_features : 1) * ctx->max_inflight;
    ctx->queue = calloc(ctx->q_cap, sizeof(*ctx->queue));
    if (!ctx->queue) return set_error(ctx, -ENOMEM, "out of memory");
    for (unsigned i = 0; i < ctx->n_predictors; i++) {
        Predictor *p = &ctx->predictors[i];
        for (unsigned o = 1; o < p->n_out; o++) {
            int ret = vqx_collector_key(&ctx->collector, vqx_model_output_name(p->model, o), &p->out_ids[o]);
            if (ret) return set_error(ctx, ret, "out of memory");
        }
    }

    for (unsigned i = 0; i < ctx->n_features; i++) {
        Feature *f = &ctx->features[i];
        int ret = 0;
        if (on_device(f)) {
            ret = start_twin(ctx, f, ref);
            if (ret == -ENOMEM) return set_error(ctx, ret, "out of memory");
            if (on_device(f) || ret) continue;
        }
        if (collects_on_cpu(f)) {
            f->results = calloc(ctx->max_inflight, f->fex->result_size);
            f->result_state = calloc(ctx->max_inflight, sizeof(*f->result_state));
            if (!f->results || !f->result_state) return set_error(ctx, -ENOMEM, "out of memory");
        }
        if ((f->fex->flags & VQX_FEX_NEEDS_CHROMA) && ref->layout == VQX_PIX_400) {
            ret = -EINVAL;
            snprintf(f->error, sizeof(f->error), "%s: needs chroma planes, input is 4:0:0", f->fex->name);
        }
        /* Further instances start as copies of the first: options are plain
         * values, strings point into option_text. */
        for (unsigned s = 1; !ret && s < f->n_states; s++) {
            f->states[s] = malloc(f->fex->state_size ? f->fex->state_size : 1);
            if (!f->states[s]) ret = -ENOMEM;
            else memcpy(f->states[s], f->states[0], f->fex->state_size);
        }
        if (ret == -ENOMEM) return set_error(ctx, ret, "out of memory");
        f->initialized = true;
        for (unsigned s = 0; !ret && s < f->n_states; s++) {
            VqxSink sink = { .ctx = ctx, .feature = f };
            if (f->fex->init) ret = f->fex->init(f->states[s], &ctx->format, &sink);
            if (ret && !f->error[0])
                snprintf(f->error, sizeof(f->error), "%s: cannot handle %ux%u %s %u-bit input: %s",
                         f->fex->name, ctx->format.w, ctx->format.h, layout_name(ctx->format.layout),
                         ctx->format.bpc, strerror(-ret));
        }
        if (ret) {
            f->failed = true;
            notice(ctx, f->error);
        }
    }
    if (vqx_device_has_members(ctx->device) && vqx_device_start(ctx->device, &ctx->format))
        device_failed(ctx);
    drop_unfed_models(ctx);
    return 0;
}

int vqx_send_pictures(VqxContext *ctx, VqxPicture *ref, VqxPicture *dis)
{
    if (!ctx || !ref || !dis) return -EINVAL;
    if (ctx->flushed) return set_error(ctx, -EINVAL, "pictures sent after the flush");
    if (ctx->imported)
        return set_error(ctx, -EINVAL, "pictures sent to a context holding an imported stream");
    /* the first picture sets the stream's format (start() is called with it) */
    if (!ctx->started)
        ctx->format = (VqxFrameFormat){ .layout = ref->layout, .bpc = ref->bpc, .w = ref->w[0],
                                        .h = ref->h[0],
                                        .cpu_flags = vqx_cpu_flags(ctx->settings.cpumask),
                                        .range = ctx->color_range };
    int ret = check_picture(ctx, ref, "reference");
    if (!ret) ret = check_picture(ctx, dis, "distorted");
    if (!ret && !ctx->started) ret = start(ctx, ref);
    if (ret) return ret;

    pthread_mutex_lock(&ctx->lock);
    const enum VqxFrameMemory memory = frame_memory(ctx, ref, dis);
    const bool dis_on_device = on_device_memory(ctx, dis);
    pthread_mutex_unlock(&ctx->lock);
    if ((memory == VQX_FRAME_DEVICE) != dis_on_device)
        return set_error(ctx, -EINVAL, "frame %u: one picture is in device memory and the other "
                         "is not", ctx->n_sent);
    for (unsigned i = 0; memory == VQX_FRAME_DEVICE && i < ctx->n_features; i++) {
        const Feature *f = &ctx->features[i];
        if (!on_device(f) && !f->failed)
            return set_error(ctx, -ENOTSUP, "frame %u: pictures in device memory are read on the "
                             "GPU alone, and %s runs on the CPU", ctx->n_sent, f->fex->name);
    }
    if (memory == VQX_FRAME_DEVICE) {
        const VqxPicture *const pair[2] = { ref, dis };
        unsigned which;
        VqxSampleOverflow at;
        const int over = vqx_device_find_overflow(ctx->device, pair, vqx_planes_used(ctx), &which,
                                                  &at);
        if (over < 0)
            return set_error(ctx, over, "frame %u: %s", ctx->n_sent, vqx_device_error(ctx->device));
        if (over) return overflow_error(ctx, which ? "distorted" : "reference", &at);
    }

    bool held = false;
    if (vqx_device_has_members(ctx->device) && !device_all_failed(ctx)) {
        if (vqx_device_frame(ctx->device, ref, dis, ctx->n_sent, frame_sampled(ctx, ctx->n_sent),
                             memory, &held))
            device_failed(ctx);
    }

    pthread_mutex_lock(&ctx->lock);
    while (ctx->n_inflight == ctx->max_inflight) {
        const Frame *oldest = inflight_frame(ctx, ctx->frames_done);
        if (oldest && !oldest->pending && !oldest->holds && oldest->device_holds) {
            if (vqx_device_wait(ctx->device, oldest->index)) device_failed(ctx);
            retire_frames(ctx);
        } else if (ctx->n_workers) {
            pthread_cond_wait(&ctx->done_cond, &ctx->lock);
        } else {
            drain_inline(ctx);
        }
    }
    const unsigned index = ctx->n_sent++;
    Frame *fr = &ctx->frames[index % ctx->max_inflight];
    fr->ref = *ref;
    fr->dis = *dis;
    memset(ref, 0, sizeof(*ref));
    memset(dis, 0, sizeof(*dis));
    fr->index = index;
    fr->pending = 0;
    fr->holds = 0;
    fr->in_use = true;
    fr->device_holds = held;
    ctx->n_inflight++;

    for (unsigned i = 0; i < ctx->n_features; i++) {
        Feature *f = &ctx->features[i];
        /* A temporal feature sees every frame (a failed one skips them) and
         * may still be busy with an earlier one: count it now so that the
         * frame stays alive until it comes. */
        if (on_device(f)) {
            continue; /* the device has it */
        } else if (f->fex->flags & VQX_FEX_TEMPORAL) {
            fr->pending++;
            advance_temporal(ctx, f);
        } else if (collects_on_cpu(f)) {
            /* every frame, failed or not, for collect's order; and held
             * for the tasks of the pictures_before frames that follow */
            fr->pending++;
            fr->holds += f->fex->pictures_before;
            push_task(ctx, f, fr);
        } else if (!f->failed && frame_sampled(ctx, index)) {
            fr->pending++;
            push_task(ctx, f, fr);
        }
    }
    retire_frames(ctx);
    run_predictions(ctx); /* what the device has collected */
    if (!ctx->n_workers) drain_inline(ctx);
    pthread_mutex_unlock(&ctx->lock);
    return 0;
}

/* The first frame whose value of key `id` is not finite, -1 when none; `count`
 * gets how many are not. */
static int first_non_finite(const VqxCollector *c, unsigned id, unsigned *count)
{
    const VqxKeySeries *k = &c->keys[id];
    int first = -1;
    *count = 0;
    for (unsigned i = 0; i < k->capacity; i++) {
        if (!k->written[i] || isfinite(k->value[i])) continue;
        if (first < 0) first = (int)i;
        ++*count;
    }
    return first;
}

/* One notice per feature or model whose values include NaN or infinity (as
 * libvmaf's, e.g. float_ms_ssim on anticorrelated content): JSON writes them
 * as null, and they are easily missed. */
static void notice_non_finite(const VqxContext *ctx)
{
    char msg[ERR_LEN];
    for (unsigned i = 0; i < ctx->n_features; i++) {
        const Feature *f = &ctx->features[i];
        for (unsigned k = 0; f->fex->keys[k]; k++) {
            unsigned count;
            const int first = first_non_finite(&ctx->collector, f->key_ids[k], &count);
            if (first < 0 || feature_writing(ctx, f->key_ids[k]) != f) continue;
            snprintf(msg, sizeof(msg), "%s: %s is not finite on %u frame%s, the first frame %d",
                     f->fex->name, ctx->collector.keys[f->key_ids[k]].name, count,
                     count == 1 ? "" : "s", first);
            notice(ctx, msg);
            break;
        }
    }
    for (unsigned i = 0; i < ctx->n_predictors; i++) {
        unsigned count;
        const Predictor *p = &ctx->predictors[i];
        const int first = first_non_finite(&ctx->collector, p->out_ids[0], &count);
        if (first < 0) continue;
        snprintf(msg, sizeof(msg), "model '%s' is not finite on %u frame%s, the first frame %d",
                 vqx_model_output_name(p->model, 0), count, count == 1 ? "" : "s", first);
        notice(ctx, msg);
    }
}

int vqx_flush(VqxContext *ctx)
{
    if (!ctx) return -EINVAL;
    if (ctx->flushed) return set_error(ctx, -EINVAL, "flushed twice");
    /* the device first: it holds the frames it uploaded from their pictures */
    if (vqx_device_has_members(ctx->device) && !device_all_failed(ctx) &&
        vqx_device_drain(ctx->device))
        device_failed(ctx);
    pthread_mutex_lock(&ctx->lock);
    while (frames_scored(ctx) < ctx->n_sent) {
        if (ctx->n_workers) pthread_cond_wait(&ctx->done_cond, &ctx->lock);
        else drain_inline(ctx);
    }
    /* no later frame comes to read the held ones */
    for (unsigned n = ctx->frames_done; n < ctx->n_sent; n++)
        inflight_frame(ctx, n)->holds = 0;
    retire_frames(ctx);
    while (ctx->frames_done < ctx->n_sent) {
        if (ctx->n_workers) pthread_cond_wait(&ctx->done_cond, &ctx->lock);
        else drain_inline(ctx);
    }
    pthread_mutex_unlock(&ctx->lock);
    ctx->flushed = true;

    int first_err = 0;
    for (unsigned i = 0; i < ctx->n_features; i++) {
        Feature *f = &ctx->features[i];
        if (!f->initialized || f->failed) continue;
        for (unsigned s = 1; s < f->n_states && f->fex->merge; s++)
            f->fex->merge(f->states[0], f->states[s]);
        if (f->fex->flush) {
            VqxSink sink = { .ctx = ctx, .feature = f, .call = VQX_CALL_FLUSH };
            int ret = f->fex->flush(f->states[0], &sink);
            if (ret) {
                f->failed = true;
                if (!f->error[0]) snprintf(f->error, sizeof(f->error), "%s: %s", f->fex->name, strerror(-ret));
            }
        }
    }
    pthread_mutex_lock(&ctx->lock);
    run_predictions(ctx);
    pthread_mutex_unlock(&ctx->lock);

    for (unsigned i = 0; i < ctx->n_features; i++) {
        const Feature *f = &ctx->features[i];
        if (f->failed && !first_err) {
            first_err = -EINVAL;
            set_error(ctx, first_err, "%s", f->error);
        }
    }
    for (unsigned i = 0; i < ctx->n_predictors; i++) {
        const Predictor *p = &ctx->predictors[i];
        const unsigned want = ctx->n_sent;
        if (!p->failed && p->next_frame < want && !first_err) {
            first_err = -EINVAL;
            set_error(ctx, first_err, "model '%s': frame %u lacks a feature it needs",
                      vqx_model_output_name(p->model, 0), p->next_frame);
        }
        if (p->failed && !first_err) first_err = set_error(ctx, -EINVAL, "%s", p->error);
    }
    notice_non_finite(ctx);
    return first_err;
}

/* ---- results ---- */

unsigned vqx_frame_count(const VqxContext *ctx)
{
    return ctx ? ctx->n_sent : 0;
}

unsigned vqx_model_count(const VqxContext *ctx)
{
    return ctx ? ctx->n_predictors : 0;
}

const char *vqx_model_key(const VqxContext *ctx, unsigned model)
{
    return ctx && model < ctx->n_predictors ? vqx_model_output_name(ctx->predictors[model].model, 0) : NULL;
}

unsigned vqx_key_count(const VqxContext *ctx)
{
    return ctx ? ctx->collector.n_keys : 0;
}

const char *vqx_key_name(const VqxContext *ctx, unsigned key)
{
    return ctx ? vqx_collector_listed_name((VqxCollector *)&ctx->collector, key) : NULL;
}

int vqx_score_at(const VqxContext *ctx, const char *key, unsigned frame, double *value)
{
    if (!ctx || !key || !value) return -EINVAL;
    const int id = vqx_collector_find(&ctx->collector, key);
    if (id < 0) return id;
    return vqx_collector_get((VqxCollector *)&ctx->collector, (unsigned)id, frame, value) ? 0 : -EAGAIN;
}

unsigned vqx_frames_complete(const VqxContext *ctx)
{
    if (!ctx) return 0;
    VqxContext *c = (VqxContext *)ctx;
    pthread_mutex_lock(&c->lock);
    unsigned n = c->flushed ? c->n_sent : frames_scored(c);
    if (!c->flushed && vqx_device_has_members(c->device) && vqx_device_collected(c->device) < n)
        n = vqx_device_collected(c->device);
    for (unsigned i = 0; i < c->n_predictors; i++)
        if (c->predictors[i].next_frame < n) n = c->predictors[i].next_frame;
    pthread_mutex_unlock(&c->lock);
    return n;
}

int vqx_import_score(VqxContext *ctx, const char *key, unsigned frame, double value)
{
    if (!ctx || !key) return -EINVAL;
    const char *bad = vqx_key_name_fault(key);
    if (bad) return refuse_key_name(ctx, "an imported score", key, bad);
    if (vqx_key_name_reserved(key))
        return set_error(ctx, -EINVAL, "'%s' names the frame number in the output files", key);
    unsigned id;
    if (vqx_collector_key(&ctx->collector, key, &id)) return set_error(ctx, -ENOMEM, "out of memory");
    /* libvmaf collects an imported score at once: after the frames read so
     * far, before the next one's extractors (after the flush's writes once
     * flushed) */
    const unsigned seq = ctx->n_imports++;
    const VqxWriteStamp when = ctx->flushed ? (VqxWriteStamp){ VQX_CALL_FLUSH, UINT_MAX, seq }
                                            : (VqxWriteStamp){ ctx->n_sent, VQX_WRITER_CALLER, seq };
    const int ret = vqx_collector_put(&ctx->collector, id, frame, value, when);
    if (ret == -EEXIST)
        return set_error(ctx, ret, "frame %u of '%s' already has another value", frame, key);
    return ret ? set_error(ctx, ret, "out of memory") : 0;
}

int vqx_frames_needed(const VqxContext *ctx, unsigned *before, unsigned *after)
{
    if (!ctx || !before || !after) return -EINVAL;
    *before = *after = 0;
    for (unsigned i = 0; i < ctx->n_features; i++) {
        const VqxFeatureExtractor *fex = cpu_of(ctx->features[i].fex);
        if (fex->frames_before > *before) *before = fex->frames_before;
        if (fex->frames_after > *after) *after = fex->frames_after;
    }
    return 0;
}

int vqx_import_stream(VqxContext *ctx, enum VqxPixelLayout layout, unsigned bpc, unsigned w,
                      unsigned h, unsigned n_frames)
{
    if (!ctx) return -EINVAL;
    if (ctx->started) return set_error(ctx, -EINVAL, "a stream is imported instead of pictures, "
                                       "not after them");
    if (layout > VQX_PIX_444 || bpc < 8 || bpc > 16 || !w || !h || !n_frames)
        return set_error(ctx, -EINVAL, "imported stream: invalid format (layout %d, %u-bit, %ux%u) "
                         "or no frames", (int)layout, bpc, w, h);
    ctx->started = ctx->imported = true;
    ctx->format = (VqxFrameFormat){ .layout = layout, .bpc = bpc, .w = w, .h = h };
    /* the bootstrap models' further outputs, as start() registers them */
    for (unsigned i = 0; i < ctx->n_predictors; i++) {
        Predictor *p = &ctx->predictors[i];
        for (unsigned o = 1; o < p->n_out; o++) {
            const int ret = vqx_collector_key(&ctx->collector, vqx_model_output_name(p->model, o),
                                              &p->out_ids[o]);
            if (ret) return set_error(ctx, ret, "out of memory");
        }
    }
    pthread_mutex_lock(&ctx->lock);
    ctx->n_sent = ctx->frames_done = n_frames;
    pthread_mutex_unlock(&ctx->lock);
    return 0;
}

int vqx_import_aggregate(VqxContext *ctx, const char *name, double value)
{
    if (!ctx || !name) return -EINVAL;
    if (!ctx->imported)
        return set_error(ctx, -EINVAL, "aggregate '%s' imported without an imported stream", name);
    const char *bad = vqx_key_name_fault(name);
    if (bad) return refuse_key_name(ctx, "an imported aggregate", name, bad);
    if (vqx_collector_set_aggregate(&ctx->collector, name, value))
        return set_error(ctx, -ENOMEM, "out of memory");
    return 0;
}

int vqx_import_backend(VqxContext *ctx, unsigned feature, enum VqxBackend backend)
{
    if (!ctx) return -EINVAL;
    if (!ctx->imported)
        return set_error(ctx, -EINVAL, "a backend imported without an imported stream");
    if (feature >= ctx->n_features || backend > VQX_BACKEND_VULKAN)
        return set_error(ctx, -EINVAL, "imported backend: no feature %u or no backend %d", feature,
                         (int)backend);
    ctx->features[feature].imported_backend = (int)backend;
    return 0;
}

int vqx_score_pooled(const VqxContext *ctx, const char *key, enum VqxPool method,
                     unsigned first, unsigned last, double *value)
{
    if (!ctx || !key || !value) return -EINVAL;
    const int id = vqx_collector_find(&ctx->collector, key);
    if (id < 0) return id;
    return vqx_collector_pool(&ctx->collector, (unsigned)id, method, first, last,
                              ctx->settings.subsample, value);
}

const VqxCollector *vqx_ctx_collector(const VqxContext *ctx)
{
    return &ctx->collector;
}

unsigned vqx_ctx_subsample(const VqxContext *ctx)
{
    return ctx->settings.subsample;
}

const VqxFrameFormat *vqx_ctx_format(const VqxContext *ctx)
{
    return &ctx->format;
}

VqxDevice *vqx_ctx_device(VqxContext *ctx)
{
    return ctx->device;
}

unsigned vqx_ctx_feature_count(const VqxContext *ctx)
{
    return ctx->n_features;
}

const char *vqx_ctx_feature_identity(const VqxContext *ctx, unsigned i)
{
    return ctx->features[i].identity;
}

bool vqx_ctx_scores_on_cpu(const VqxContext *ctx)
{
    for (unsigned i = 0; i < ctx->n_features; i++)
        if (!on_device(&ctx->features[i])) return true;
    return false;
}

const char *vqx_ctx_feature_backend(const VqxContext *ctx, unsigned i)
{
    const Feature *f = &ctx->features[i];
    return backend_name(f->imported_backend >= 0 ? (enum VqxBackend)f->imported_backend
                                                 : f->fex->backend);
}

unsigned vqx_run_feature_count(const VqxContext *ctx)
{
    return ctx ? ctx->n_features : 0;
}

const char *vqx_run_feature_name(const VqxContext *ctx, unsigned i)
{
    return ctx && i < ctx->n_features ? vqx_ctx_feature_identity(ctx, i) : NULL;
}

const char *vqx_run_feature_backend(const VqxContext *ctx, unsigned i)
{
    return ctx && i < ctx->n_features ? vqx_ctx_feature_backend(ctx, i) : NULL;
}

unsigned vqx_aggregate_count(const VqxContext *ctx)
{
    return ctx ? ctx->collector.n_aggregate : 0;
}

const char *vqx_aggregate_name(const VqxContext *ctx, unsigned i)
{
    return ctx && i < ctx->collector.n_aggregate ? ctx->collector.aggregate[i].name : NULL;
}

double vqx_aggregate_value(const VqxContext *ctx, unsigned i)
{
    return ctx && i < ctx->collector.n_aggregate ? ctx->collector.aggregate[i].value : NAN;
}
