/*
 * libvmaf's context API over a vqx context. The vqx context is opened at
 * the first call that needs it (a feature, a model, a picture), so that
 * the configuration calls before it are all known.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "feature/registry.h"
#include "libvmaf/shim.h"
#include "context.h"
#include "options.h"

static enum VmafLogLevel log_level = VMAF_LOG_LEVEL_INFO;

void vmaf_shim_set_log_level(enum VmafLogLevel level)
{
    log_level = level;
}

void vmaf_shim_log(enum VmafLogLevel level, const char *fmt, ...)
{
    static const char *const names[] = {
        [VMAF_LOG_LEVEL_ERROR] = "ERROR", [VMAF_LOG_LEVEL_WARNING] = "WARNING",
        [VMAF_LOG_LEVEL_INFO] = "INFO", [VMAF_LOG_LEVEL_DEBUG] = "DEBUG",
    };
    if (level <= VMAF_LOG_LEVEL_NONE || level > log_level || level > VMAF_LOG_LEVEL_DEBUG) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "libvmaf %s %s\n", names[level], line);
}

/* A model in use: its spec and the index vqx gave it. */
typedef struct UsedModel UsedModel;

static double seconds_between(struct timespec a, struct timespec b)
{
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

static void print_notice(void *cookie, const char *msg)
{
    (void)cookie;
    vmaf_shim_log(VMAF_LOG_LEVEL_WARNING, "%s", msg);
}

int vmaf_shim_failed(const VmafContext *v, int ret)
{
    if (ret) vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "%s", vqx_last_error(v->vqx));
    return ret;
}

int vmaf_shim_open(VmafContext *v)
{
    if (v->vqx) return 0;
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = v->cfg.n_threads;
    s.subsample = v->cfg.n_subsample;
    s.cpumask = (unsigned)v->cfg.cpumask;
    s.notice = print_notice;
    /* as in libvmaf: the GPU with an imported CUDA state, unless gpumask */
    if (v->cuda_imported && !v->cfg.gpumask) {
        s.backend = VQX_BACKEND_CUDA;
        s.cuda_context = v->cuda_context;
    }
    const int ret = vqx_open(&v->vqx, &s);
    if (ret) {
        if (v->vqx) vmaf_shim_failed(v, ret);
        vqx_close(&v->vqx);
    }
    return ret;
}

VMAF_EXPORT int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg)
{
    if (!vmaf) return -EINVAL;
    VmafContext *v = calloc(1, sizeof(*v));
    if (!v) return -ENOMEM;
    v->cfg = cfg;
    vmaf_shim_set_log_level(cfg.log_level);
    *vmaf = v;
    return 0;
}

VMAF_EXPORT int vmaf_close(VmafContext *vmaf)
{
    if (!vmaf) return -EINVAL;
    vqx_close(&vmaf->vqx);
    for (unsigned i = 0; i < vmaf->n_models; i++) free(vmaf->models[i].spec);
    free(vmaf->models);
    free(vmaf);
    return 0;
}

VMAF_EXPORT const char *vmaf_version(void)
{
    return "3.2.0 (vqx " VQX_VERSION ")";
}

/* ---- features and models ---- */

VMAF_EXPORT int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                                 VmafFeatureDictionary *opts_dict)
{
    if (!vmaf || !feature_name) return -EINVAL;
    /* an unknown name leaves the dictionary the caller's, as in libvmaf */
    if (!vqx_registry_find(feature_name, VQX_BACKEND_CPU)) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "unknown feature '%s'", feature_name);
        return -EINVAL;
    }
    char options[2048];
    int ret = vmaf_shim_dictionary_options(opts_dict, options, sizeof(options));
    vmaf_feature_dictionary_free(&opts_dict);
    if (!ret) ret = vmaf_shim_open(vmaf);
    if (!ret) ret = vmaf_shim_failed(vmaf, vqx_use_feature(vmaf->vqx, feature_name, options));
    return ret;
}

static const UsedModel *used_model(const VmafContext *v, const VmafModel *m)
{
    for (unsigned i = 0; m && i < v->n_models; i++)
        if (!strcmp(v->models[i].spec, m->spec)) return &v->models[i];
    return NULL;
}

static int use_model(VmafContext *v, const VmafModel *m)
{
    if (used_model(v, m)) return 0;
    int ret = vmaf_shim_open(v);
    if (ret) return ret;
    UsedModel *list = realloc(v->models, (v->n_models + 1) * sizeof(*list));
    if (!list) return -ENOMEM;
    v->models = list;
    char *spec = strdup(m->spec);
    if (!spec) return -ENOMEM;
    ret = vmaf_shim_failed(v, vqx_use_model(v->vqx, spec));
    if (ret) {
        free(spec);
        return ret;
    }
    list[v->n_models++] = (UsedModel){ spec, vqx_model_count(v->vqx) - 1 };
    return 0;
}

VMAF_EXPORT int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model)
{
    if (!vmaf || !model) return -EINVAL;
    return use_model(vmaf, model);
}

VMAF_EXPORT int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                                        VmafModelCollection *model_collection)
{
    if (!vmaf || !model_collection) return -EINVAL;
    return use_model(vmaf, &model_collection->model);
}

VMAF_EXPORT int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                                          double value, unsigned index)
{
    if (!vmaf || !feature_name) return -EINVAL;
    int ret = vmaf_shim_open(vmaf);
    if (!ret) ret = vmaf_shim_failed(vmaf, vqx_import_score(vmaf->vqx, feature_name, index, value));
    return ret;
}

/* ---- pictures ---- */

/* libvmaf's chroma is floor-sized, vqx's ceil-sized: the column and row
 * the caller did not fill repeat their neighbours. */
static void fill_chroma_edges(const VmafPicture *pic, const VqxPicture *vp)
{
    const size_t bytes = vp->bpc > 8 ? 2 : 1;
    for (unsigned p = 1; p < vqx_picture_planes(vp); p++) {
        uint8_t *data = vp->data[p];
        const ptrdiff_t stride = vp->stride[p];
        if (vp->w[p] > pic->w[p])
            for (unsigned y = 0; y < pic->h[p]; y++)
                memcpy(data + y * stride + pic->w[p] * bytes,
                       data + y * stride + (pic->w[p] - 1) * bytes, bytes);
        if (vp->h[p] > pic->h[p])
            memcpy(data + pic->h[p] * stride, data + (pic->h[p] - 1) * stride,
                   vp->w[p] * bytes);
    }
}

static int take_picture(const VmafPicture *pic, VqxPicture *vp, const char *which)
{
    int ret = vmaf_shim_picture_to_vqx(pic, vp);
    if (ret) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "the %s picture is not one from vmaf_picture_alloc "
                      "or vmaf_fetch_preallocated_picture", which);
        return ret;
    }
    const bool on_device = vqx_ctx_picture_on_device(vp->pool, vp);
    for (unsigned p = 1; p < vqx_picture_planes(vp); p++) {
        if (!pic->w[p] || !pic->h[p]) {
            vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "the %s picture (%ux%u) has no chroma samples",
                          which, pic->w[0], pic->h[0]);
            return -EINVAL;
        }
        /* the edges of device memory are not the host's to fill */
        if (on_device && (vp->w[p] != pic->w[p] || vp->h[p] != pic->h[p])) {
            vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "the %s picture (%ux%u) is in device memory: "
                          "odd sizes are taken only from host pictures", which, pic->w[0],
                          pic->h[0]);
            return -EINVAL;
        }
    }
    if (!on_device) fill_chroma_edges(pic, vp);
    return 0;
}

VMAF_EXPORT int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                                   unsigned index)
{
    if (!vmaf || vmaf->flushed || !ref != !dist) return -EINVAL;
    int ret = vmaf_shim_open(vmaf);
    if (ret) return ret;
    if (!ref) {
        vmaf->flushed = 1;
        ret = vmaf_shim_failed(vmaf, vqx_flush(vmaf->vqx));
        clock_gettime(CLOCK_MONOTONIC, &vmaf->flush_done);
        return ret;
    }
    if (index != vmaf->n_read) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "pictures are read in order from index 0: index %u "
                      "where %u was next", index, vmaf->n_read);
        return -EINVAL;
    }
    VqxPicture vr, vd;
    ret = take_picture(ref, &vr, "reference");
    if (!ret) ret = take_picture(dist, &vd, "distorted");
    if (ret) return ret;
    if (!vmaf->n_read) clock_gettime(CLOCK_MONOTONIC, &vmaf->first_read);
    ret = vmaf_shim_failed(vmaf, vqx_send_pictures(vmaf->vqx, &vr, &vd));
    if (ret) return ret;
    vmaf->n_read++;
    memset(ref, 0, sizeof(*ref));
    memset(dist, 0, sizeof(*dist));
    return 0;
}

VMAF_EXPORT int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg)
{
    if (!vmaf || !cfg.pic_params.w || !cfg.pic_params.h || !cfg.pic_cnt) return -EINVAL;
    vmaf->prealloc = cfg;
    return vmaf_shim_open(vmaf);
}

VMAF_EXPORT int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic)
{
    if (!vmaf || !pic || !vmaf->prealloc.pic_cnt) return -EINVAL;
    const VmafPictureConfiguration *c = &vmaf->prealloc;
    enum VqxPixelLayout layout;
    if (!vmaf_shim_layout(c->pic_params.pix_fmt, &layout)) return -EINVAL;
    VqxPicture vp;
    const int ret = vmaf_shim_failed(vmaf, vqx_picture_alloc_from(vmaf->vqx, &vp, layout,
                                                                  c->pic_params.bpc,
                                                                  c->pic_params.w,
                                                                  c->pic_params.h));
    if (!ret) vmaf_shim_picture_from_vqx(pic, &vp);
    return ret;
}

/* ---- scores ---- */

static int model_key(const VmafContext *v, const VmafModel *m, const char **key)
{
    const UsedModel *u = v->vqx ? used_model(v, m) : NULL;
    if (!u) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "the model was not given to "
                      "vmaf_use_features_from_model on this context");
        return -EINVAL;
    }
    *key = vqx_model_key(v->vqx, u->index);
    return 0;
}

/* A key as vqx names it: libvmaf's internal names are accepted too. */
static const char *output_key(const VmafContext *v, const char *name)
{
    for (unsigned k = 0; k < vqx_key_count(v->vqx); k++)
        if (!strcmp(vqx_key_name(v->vqx, k), name)) return name;
    return vqx_key_alias(name);
}

static int score_at(const VmafContext *v, const char *key, unsigned index, double *score)
{
    const int ret = vqx_score_at(v->vqx, key, index, score);
    if (ret == -ENOENT) vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "no key '%s'", key);
    else if (ret) vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "'%s' has no value for frame %u", key, index);
    return ret ? -EINVAL : 0;
}

static bool pool_method(enum VmafPoolingMethod m, enum VqxPool *out)
{
    switch (m) {
    case VMAF_POOL_METHOD_MIN: *out = VQX_POOL_MIN; return true;
    case VMAF_POOL_METHOD_MAX: *out = VQX_POOL_MAX; return true;
    case VMAF_POOL_METHOD_MEAN: *out = VQX_POOL_MEAN; return true;
    case VMAF_POOL_METHOD_HARMONIC_MEAN: *out = VQX_POOL_HARMONIC_MEAN; return true;
    default: return false;
    }
}

static int pooled(const VmafContext *v, const char *key, enum VmafPoolingMethod method,
                  unsigned low, unsigned high, double *score)
{
    enum VqxPool m;
    if (!pool_method(method, &m) || low > high) return -EINVAL;
    const int ret = vqx_score_pooled(v->vqx, key, m, low, high, score);
    if (ret) vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "cannot pool '%s' over frames %u to %u", key,
                           low, high);
    return ret ? -EINVAL : 0;
}

VMAF_EXPORT int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                                    unsigned index)
{
    if (!vmaf || !model || !score) return -EINVAL;
    const char *key;
    const int ret = model_key(vmaf, model, &key);
    return ret ? ret : score_at(vmaf, key, index, score);
}

VMAF_EXPORT int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                            double *score, unsigned index)
{
    if (!vmaf || !feature_name || !score || !vmaf->vqx) return -EINVAL;
    return score_at(vmaf, output_key(vmaf, feature_name), index, score);
}

VMAF_EXPORT int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                                  enum VmafPoolingMethod pool_method, double *score,
                                  unsigned index_low, unsigned index_high)
{
    if (!vmaf || !model || !score) return -EINVAL;
    const char *key;
    const int ret = model_key(vmaf, model, &key);
    return ret ? ret : pooled(vmaf, key, pool_method, index_low, index_high, score);
}

VMAF_EXPORT int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                                          enum VmafPoolingMethod pool_method, double *score,
                                          unsigned index_low, unsigned index_high)
{
    if (!vmaf || !feature_name || !score || !vmaf->vqx) return -EINVAL;
    return pooled(vmaf, output_key(vmaf, feature_name), pool_method, index_low, index_high,
                  score);
}

/* What a collection's statistic is read with: a frame's value or a pool. */
typedef struct GetArg {
    double *value;
    const void *arg;
} GetArg;
typedef struct PoolArg {
    enum VmafPoolingMethod method;
    unsigned low, high;
} PoolArg;

/* The bootstrap statistics of a collection, each read with `get`. */
static int collection_score(const VmafContext *v, const VmafModelCollection *c,
                            VmafModelCollectionScore *score,
                            int (*get)(const VmafContext *, const char *, const GetArg *),
                            const void *arg)
{
    const char *key;
    int ret = model_key(v, &c->model, &key);
    if (ret) return ret;
    static const char *const suffix[] = { "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi" };
    double *const out[] = { &score->bootstrap.bagging_score, &score->bootstrap.stddev,
                            &score->bootstrap.ci.p95.lo, &score->bootstrap.ci.p95.hi };
    for (unsigned i = 0; i < 4 && !ret; i++) {
        char name[512];
        snprintf(name, sizeof(name), "%s%s", key, suffix[i]);
        const GetArg a = { out[i], arg };
        ret = get(v, name, &a);
    }
    if (!ret) score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    return ret;
}

static int get_at(const VmafContext *v, const char *key, const GetArg *a)
{
    return score_at(v, key, *(const unsigned *)a->arg, a->value);
}

static int get_pooled(const VmafContext *v, const char *key, const GetArg *a)
{
    const PoolArg *pa = a->arg;
    return pooled(v, key, pa->method, pa->low, pa->high, a->value);
}

VMAF_EXPORT int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                                     VmafModelCollection *model_collection,
                                                     VmafModelCollectionScore *score,
                                                     unsigned index)
{
    if (!vmaf || !model_collection || !score) return -EINVAL;
    return collection_score(vmaf, model_collection, score, get_at, &index);
}

VMAF_EXPORT int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                                   VmafModelCollection *model_collection,
                                                   enum VmafPoolingMethod pool_method,
                                                   VmafModelCollectionScore *score,
                                                   unsigned index_low, unsigned index_high)
{
    if (!vmaf || !model_collection || !score) return -EINVAL;
    const PoolArg pa = { pool_method, index_low, index_high };
    return collection_score(vmaf, model_collection, score, get_pooled, &pa);
}

/* ---- output ---- */

VMAF_EXPORT int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                                  enum VmafOutputFormat fmt)
{
    static const enum VqxOutputFormat formats[] = {
        [VMAF_OUTPUT_FORMAT_XML] = VQX_OUTPUT_XML, [VMAF_OUTPUT_FORMAT_JSON] = VQX_OUTPUT_JSON,
        [VMAF_OUTPUT_FORMAT_CSV] = VQX_OUTPUT_CSV, [VMAF_OUTPUT_FORMAT_SUB] = VQX_OUTPUT_SUB,
    };
    if (!vmaf || !output_path || fmt <= VMAF_OUTPUT_FORMAT_NONE || fmt > VMAF_OUTPUT_FORMAT_SUB ||
        !vmaf->vqx)
        return -EINVAL;
    FILE *f = fopen(output_path, "w");
    if (!f) {
        const int ret = -errno;
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "cannot write '%s': %s", output_path, strerror(errno));
        return ret;
    }
    const double seconds = vmaf->flushed && vmaf->n_read
        ? seconds_between(vmaf->first_read, vmaf->flush_done) : 0;
    const VqxOutputSettings s = { .format = formats[fmt], .precision = VQX_PRECISION_LIBVMAF,
                                  .fps = seconds > 0 ? vmaf->n_read / seconds : 0 };
    int ret = vmaf_shim_failed(vmaf, vqx_write_output(vmaf->vqx, f, &s));
    if (fclose(f) && !ret) {
        ret = -errno;
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "cannot write '%s': %s", output_path, strerror(errno));
    }
    return ret;
}
