/* libvmaf's models and bootstrap collections: specs for vqx_use_model,
 * checked by loading them when they are made and changed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/registry.h"
#include "libvmaf/shim.h"
#include "model/model.h"

enum { SPEC_LEN = 4096 };

static void model_clear(VmafModel *m)
{
    free(m->base);
    free(m->spec);
    vmaf_feature_dictionary_free(&m->overloads);
    memset(m, 0, sizeof(*m));
}

/* Rebuilds m->spec from its base and overloads. */
static int model_respec(VmafModel *m)
{
    char buf[SPEC_LEN];
    size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", m->base);
    for (unsigned i = 0; m->overloads && i < m->overloads->n && n < sizeof(buf); i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, ":%s=%s", m->overloads->entry[i].key,
                              m->overloads->entry[i].val);
    if (n >= sizeof(buf)) return -ENOSPC;
    char *spec = strdup(buf);
    if (!spec) return -ENOMEM;
    free(m->spec);
    m->spec = spec;
    return 0;
}

/* Loads the spec to check it; *bootstrap tells whether it is a collection. */
static int model_check(const VmafModel *m, bool *bootstrap)
{
    char err[512];
    VqxModel *vm = NULL;
    const int ret = vqx_model_load(&vm, m->spec, err, sizeof(err));
    if (ret) {
        vmaf_shim_log(VMAF_LOG_LEVEL_WARNING, "%s", err);
        return ret;
    }
    if (bootstrap) *bootstrap = vqx_model_output_count(vm) > 1;
    vqx_model_free(&vm);
    return 0;
}

static int model_init(VmafModel *m, const VmafModelConfig *cfg, const char *kind,
                      const char *what, bool want_bootstrap)
{
    char base[SPEC_LEN];
    const int n = snprintf(base, sizeof(base), "%s=%s:name=%s%s%s", kind, what,
                           cfg->name ? cfg->name : "vmaf",
                           cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP ? ":disable_clip" : "",
                           cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM ? ":enable_transform" : "");
    if (n < 0 || (size_t)n >= sizeof(base)) return -EINVAL;
    /* the spec's separators cannot be part of a name or a path */
    if (strchr(what, ':') || (cfg->name && strpbrk(cfg->name, ":="))) return -EINVAL;
    memset(m, 0, sizeof(*m));
    m->base = strdup(base);
    int ret = m->base ? model_respec(m) : -ENOMEM;
    bool bootstrap = false;
    if (!ret) ret = model_check(m, &bootstrap);
    /* libvmaf loads a bootstrap file only as a collection, and a collection
     * only from one */
    if (!ret && bootstrap != want_bootstrap) ret = -EINVAL;
    if (ret) model_clear(m);
    return ret;
}

static int model_new(VmafModel **model, VmafModelConfig *cfg, const char *kind,
                     const char *what)
{
    if (!model || !cfg || !what) return -EINVAL;
    VmafModel *m = malloc(sizeof(*m));
    if (!m) return -ENOMEM;
    const int ret = model_init(m, cfg, kind, what, false);
    if (ret) {
        free(m);
        return ret;
    }
    *model = m;
    return 0;
}

VMAF_EXPORT int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg, const char *version)
{
    return model_new(model, cfg, "version", version);
}

VMAF_EXPORT int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg,
                                          const char *path)
{
    return model_new(model, cfg, "path", path);
}

VMAF_EXPORT void vmaf_model_destroy(VmafModel *model)
{
    if (!model) return;
    model_clear(model);
    free(model);
}

/* Whether the model reads a key of the extractor `name`. */
static bool model_uses(const VmafModel *m, const char *name)
{
    char err[512];
    VqxModel *vm = NULL;
    if (vqx_model_load(&vm, m->spec, err, sizeof(err))) return false;
    bool uses = false;
    for (unsigned i = 0; i < vqx_model_input_count(vm) && !uses; i++) {
        const VqxFeatureExtractor *fex =
            vqx_registry_find_by_key(vqx_model_input_key(vm, i), VQX_BACKEND_CPU);
        uses = fex && !strcmp(fex->name, name);
    }
    vqx_model_free(&vm);
    return uses;
}

/* The dictionary's options on every use of the extractor by the model; a
 * model without that extractor is left as it is, as libvmaf does. */
static int model_overload(VmafModel *m, const char *feature_name, const VmafFeatureDictionary *d)
{
    if (!model_uses(m, feature_name)) return 0;
    VmafFeatureDictionary *was = NULL;
    int ret = 0;
    for (unsigned i = 0; m->overloads && i < m->overloads->n && !ret; i++)
        ret = vmaf_feature_dictionary_set(&was, m->overloads->entry[i].key,
                                          m->overloads->entry[i].val);
    for (unsigned i = 0; i < d->n && !ret; i++) {
        char key[256];
        const int n = snprintf(key, sizeof(key), "%s.%s", feature_name, d->entry[i].key);
        ret = n < 0 || (size_t)n >= sizeof(key) ? -EINVAL
            : vmaf_feature_dictionary_set(&m->overloads, key, d->entry[i].val);
    }
    if (!ret) ret = model_respec(m);
    if (!ret) ret = model_check(m, NULL);
    if (ret) {
        /* the model stays as it was */
        vmaf_feature_dictionary_free(&m->overloads);
        m->overloads = was;
        was = NULL;
        model_respec(m);
    }
    vmaf_feature_dictionary_free(&was);
    return ret;
}

VMAF_EXPORT int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                            VmafFeatureDictionary *opts_dict)
{
    if (!model || !feature_name || !opts_dict) return -EINVAL;
    const int ret = model_overload(model, feature_name, opts_dict);
    vmaf_feature_dictionary_free(&opts_dict);
    return ret;
}

static int collection_new(VmafModel **model, VmafModelCollection **model_collection,
                          VmafModelConfig *cfg, const char *kind, const char *what)
{
    if (!model || !model_collection || !cfg || !what) return -EINVAL;
    VmafModel *m = malloc(sizeof(*m));
    VmafModelCollection *c = malloc(sizeof(*c));
    int ret = m && c ? model_init(m, cfg, kind, what, true) : -ENOMEM;
    if (!ret) {
        ret = model_init(&c->model, cfg, kind, what, true);
        if (ret) model_clear(m);
    }
    if (ret) {
        free(m);
        free(c);
        return ret;
    }
    *model = m;
    *model_collection = c;
    return 0;
}

VMAF_EXPORT int vmaf_model_collection_load(VmafModel **model,
                                           VmafModelCollection **model_collection,
                                           VmafModelConfig *cfg, const char *version)
{
    return collection_new(model, model_collection, cfg, "version", version);
}

VMAF_EXPORT int vmaf_model_collection_load_from_path(VmafModel **model,
                                                     VmafModelCollection **model_collection,
                                                     VmafModelConfig *cfg, const char *path)
{
    return collection_new(model, model_collection, cfg, "path", path);
}

VMAF_EXPORT int vmaf_model_collection_feature_overload(VmafModel *model,
                                                       VmafModelCollection **model_collection,
                                                       const char *feature_name,
                                                       VmafFeatureDictionary *opts_dict)
{
    if (!model || !model_collection || !*model_collection || !feature_name || !opts_dict)
        return -EINVAL;
    int ret = model_overload(model, feature_name, opts_dict);
    if (!ret) ret = model_overload(&(*model_collection)->model, feature_name, opts_dict);
    vmaf_feature_dictionary_free(&opts_dict);
    return ret;
}

VMAF_EXPORT void vmaf_model_collection_destroy(VmafModelCollection *model_collection)
{
    if (!model_collection) return;
    model_clear(&model_collection->model);
    free(model_collection);
}
