/*
 * Models as the vmaf CLI takes them: the spec ("version=NAME" or
 * "path=FILE", name=, disable_clip, enable_transform, EXTRACTOR.OPTION=VALUE
 * overrides), the built-in files, the inputs the core must compute, and the
 * per-frame scores including libvmaf's bootstrap statistics.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/registry.h"
#include "model/builtin.h"
#include "model/json_model.h"
#include "model/model.h"
#include "options.h"

/* Model files larger than this are refused (the largest built-in is 0.4 MB). */
#define MAX_MODEL_FILE_SIZE (64u << 20)

typedef struct ModelInput {
    char *key;
    char *options;
} ModelInput;

struct VqxModel {
    VqxModelSet set;
    ModelInput *inputs;
    unsigned n_inputs;
    char **outputs;
    unsigned n_outputs;
};

/* ---- which extractor computes a key ---- */

/* Overrides name an extractor as libvmaf registers it; they reach the model
 * features that extractor provides. Keys from libvmaf's provided_features
 * lists (src/feature/ sources, Netflix, BSD+Patent). The table is kept here rather
 * than asked of vqx's registry so that an override means the same whichever
 * extractors this build has; the registry only resolves an override's option
 * (name or alias). */
static const char *const adm_keys[] = {
    "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score", "integer_adm_scale0", "integer_adm_scale1",
    "integer_adm_scale2", "integer_adm_scale3", "integer_adm", "integer_adm_num",
    "integer_adm_den", "integer_adm_num_scale0", "integer_adm_den_scale0",
    "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2",
    "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3", NULL
};
static const char *const vif_keys[] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
    "integer_vif", "integer_vif_num", "integer_vif_den", "integer_vif_num_scale0",
    "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2", "integer_vif_num_scale3",
    "integer_vif_den_scale3", NULL
};
static const char *const motion_keys[] = {
    "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score", NULL
};
static const char *const float_adm_keys[] = {
    "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
    "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score", "adm_num", "adm_den",
    "adm_scale0", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3", NULL
};
static const char *const float_vif_keys[] = {
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score", "vif", "vif_num",
    "vif_den", "vif_num_scale0", "vif_den_scale0", "vif_num_scale1", "vif_den_scale1",
    "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3", NULL
};
static const char *const float_motion_keys[] = {
    "VMAF_feature_motion_score", "VMAF_feature_motion2_score", "VMAF_feature_motion3_score", NULL
};
static const char *const cambi_keys[] = { "Cambi_feature_cambi_score", NULL };
static const char *const speed_chroma_keys[] = {
    "Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score", NULL
};
static const char *const speed_temporal_keys[] = { "Speed_temporal_feature_speed_temporal_score", NULL };
static const char *const psnr_keys[] = { "psnr_y", "psnr_cb", "psnr_cr", NULL };
static const char *const ciede_keys[] = { "ciede2000", NULL };
static const char *const float_ssim_keys[] = { "float_ssim", NULL };
static const char *const float_ms_ssim_keys[] = { "float_ms_ssim", NULL };
static const char *const float_psnr_keys[] = { "float_psnr", NULL };
static const char *const float_ansnr_keys[] = { "float_ansnr", NULL };
static const char *const float_moment_keys[] = { "float_moment", NULL };

static const struct {
    const char *name;
    const char *const *keys;
} extractors[] = {
    { "float_psnr", float_psnr_keys },
    { "float_ansnr", float_ansnr_keys },
    { "float_adm", float_adm_keys },
    { "float_vif", float_vif_keys },
    { "float_motion", float_motion_keys },
    { "float_moment", float_moment_keys },
    { "speed_chroma", speed_chroma_keys },
    { "speed_temporal", speed_temporal_keys },
    { "float_ms_ssim", float_ms_ssim_keys },
    { "float_ssim", float_ssim_keys },
    { "ciede", ciede_keys },
    { "psnr", psnr_keys },
    { "adm", adm_keys },
    { "motion", motion_keys },
    { "vif", vif_keys },
    { "cambi", cambi_keys },
};

#define N_EXTRACTORS (sizeof(extractors) / sizeof(extractors[0]))

static bool extractor_known(const char *name)
{
    for (unsigned i = 0; i < N_EXTRACTORS; i++)
        if (!strcmp(extractors[i].name, name)) return true;
    return false;
}

static bool extractor_provides(const char *name, const char *key)
{
    for (unsigned i = 0; i < N_EXTRACTORS; i++) {
        if (strcmp(extractors[i].name, name)) continue;
        for (const char *const *k = extractors[i].keys; *k; k++)
            if (!strcmp(*k, key)) return true;
    }
    return false;
}

/* ---- the spec ---- */

typedef struct Override {
    const char *extractor, *option, *value; /* value: normalised, in `values` */
    /* the option `option` names (its name or alias) in this build's
     * extractor; NULL when there is none, and the override then names the
     * option as given (a feature request for it refuses it as unknown) */
    const VqxOption *resolved;
} Override;

typedef struct Spec {
    char *buf; /* copy of the spec; the strings below point into it */
    const char *version, *path, *name;
    unsigned flags;
    Override *overrides;
    unsigned n_overrides;
    char *values; /* normalised override values, 64 bytes each */
} Spec;

#define VALUE_LEN 64

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

static void spec_free(Spec *s)
{
    free(s->buf);
    free(s->overrides);
    free(s->values);
}

/* An override value as the vmaf CLI stores it: one that reads fully as a
 * number (sscanf "%f") goes through strtof and %g, others stay as given. */
static const char *normalize_value(const char *val, char *buf)
{
    float ignored;
    char tail;
    if (sscanf(val, "%f %c", &ignored, &tail) != 1) return val;
    vqx_format_option_number(val, buf, VALUE_LEN);
    return buf;
}

static const VqxOption *resolve_option(const char *extractor, const char *option)
{
    const VqxFeatureExtractor *fex = vqx_registry_find(extractor, VQX_BACKEND_CPU);
    return fex ? vqx_options_find(fex, option) : NULL;
}

/* Two overrides of one option: the same option by its name or alias, or
 * the same text where the option is unknown. */
static bool same_option(const Override *a, const Override *b)
{
    if (strcmp(a->extractor, b->extractor)) return false;
    return a->resolved || b->resolved ? a->resolved == b->resolved : !strcmp(a->option, b->option);
}

static int parse_spec(Spec *s, const char *spec, char *err, size_t err_len)
{
    memset(s, 0, sizeof(*s));
    const size_t len = strlen(spec);
    s->buf = strdup(spec);
    /* an override takes at least 5 bytes ("a.b=c"), so len / 4 + 1 bound their count */
    s->overrides = calloc(len / 4 + 1, sizeof(*s->overrides));
    s->values = malloc((len / 4 + 1) * VALUE_LEN);
    if (!s->buf || !s->overrides || !s->values) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }

    char *next;
    for (char *item = s->buf; item; item = next) {
        next = strchr(item, ':');
        if (next) *next++ = 0;
        char *val = strchr(item, '=');
        if (val) *val++ = 0;

        if (!*item)
            return fail(err, err_len, "model '%s': empty parameter", spec);
        const char **field = !strcmp(item, "version") ? &s->version
                           : !strcmp(item, "path") ? &s->path
                           : !strcmp(item, "name") ? &s->name : NULL;
        if (field) {
            if (!val || !*val) return fail(err, err_len, "model '%s': %s needs a value", spec, item);
            *field = val;
        } else if (!strcmp(item, "disable_clip") || !strcmp(item, "enable_transform")) {
            /* bare or "=true" sets the flag; any other value leaves it off */
            if (!val || !strcmp(val, "true"))
                s->flags |= !strcmp(item, "disable_clip") ? VQX_MODEL_DISABLE_CLIP
                                                          : VQX_MODEL_ENABLE_TRANSFORM;
        } else if (strchr(item, '.')) {
            char *option = strchr(item, '.');
            *option++ = 0;
            if (!*item || !*option || strchr(option, '.') || !val || !*val)
                return fail(err, err_len, "model '%s': override '%s.%s' is not "
                            "EXTRACTOR.OPTION=VALUE", spec, item, option);
            if (!extractor_known(item)) {
                char names[256];
                size_t n = 0;
                for (unsigned i = 0; i < N_EXTRACTORS && n < sizeof(names); i++)
                    n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
                                          i ? ", " : "", extractors[i].name);
                return fail(err, err_len, "model '%s': override of unknown extractor '%s' "
                            "(extractors: %s)", spec, item, names);
            }
            Override *o = &s->overrides[s->n_overrides];
            o->extractor = item;
            o->option = option;
            o->value = normalize_value(val, &s->values[s->n_overrides * VALUE_LEN]);
            o->resolved = resolve_option(item, option);
            for (unsigned i = 0; i < s->n_overrides; i++) {
                const Override *prev = &s->overrides[i];
                if (!same_option(prev, o)) continue;
                const char *name = o->resolved ? o->resolved->name : option;
                if (strcmp(prev->option, option))
                    return fail(err, err_len, "model '%s': %s option %s overridden twice (as "
                                "%s.%s and %s.%s)", spec, item, name, item, prev->option, item,
                                option);
                return fail(err, err_len, "model '%s': %s option %s overridden twice", spec,
                            item, name);
            }
            s->n_overrides++;
        } else {
            return fail(err, err_len, "model '%s': unknown parameter '%s' (version=, path=, "
                        "name=, disable_clip, enable_transform or EXTRACTOR.OPTION=VALUE)",
                        spec, item);
        }
    }
    if (!s->version == !s->path)
        return fail(err, err_len, "model '%s': give either version=NAME or path=FILE", spec);
    return 0;
}

/* ---- loading ---- */

static int read_file(const char *path, char **data, size_t *len, char *err, size_t err_len)
{
    const char *ext = strrchr(path, '.');
    const char *hint = ext && !strcmp(ext, ".pkl") ? " (pkl models are not supported: use json)" : "";
    FILE *f = fopen(path, "rb");
    if (!f) return fail(err, err_len, "%s: %s%s", path, strerror(errno), hint);

    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int ret = 0;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        if (cap >= MAX_MODEL_FILE_SIZE) {
            ret = fail(err, err_len, "%s: larger than %u MiB, not a model", path,
                       MAX_MODEL_FILE_SIZE >> 20);
            break;
        }
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    if (!buf) {
        ret = -ENOMEM;
        snprintf(err, err_len, "out of memory");
    } else if (!ret && ferror(f)) {
        ret = fail(err, err_len, "%s: %s%s", path, strerror(errno), hint);
    }
    fclose(f);
    if (ret) {
        free(buf);
        return ret;
    }
    *data = buf;
    *len = n;
    return 0;
}

static const VqxBuiltinModel *find_builtin(const char *version)
{
    for (unsigned i = 0; i < vqx_builtin_model_count; i++)
        if (!strcmp(vqx_builtin_models[i].version, version)) return &vqx_builtin_models[i];
    return NULL;
}

static int unknown_version(const char *version, char *err, size_t err_len)
{
    int n = snprintf(err, err_len, "unknown model version '%s' (built-in:", version);
    for (unsigned i = 0; i < vqx_builtin_model_count && n >= 0 && (size_t)n < err_len; i++)
        n += snprintf(err + n, err_len - (size_t)n, "%s %s", i ? "," : "",
                      vqx_builtin_models[i].version);
    if (n >= 0 && (size_t)n < err_len) snprintf(err + n, err_len - (size_t)n, ")");
    return -EINVAL;
}

/* The name under which feature `f` holds the option an override sets: the
 * model's own option of that name or alias (so that either replaces it in
 * place), else the option's name (the override's text when unknown). */
static const char *override_target(const VqxSvrFeature *f, const Override *ov)
{
    for (unsigned k = 0; k < f->n_options; k++) {
        const char *name = f->options[k].name;
        if (ov->resolved ? resolve_option(ov->extractor, name) == ov->resolved
                         : !strcmp(name, ov->option))
            return name;
    }
    return ov->resolved ? ov->resolved->name : ov->option;
}

/* Overrides replace or add an option on every feature, in every model of a
 * bootstrap set, that the named extractor provides; an extractor the model
 * does not use is ignored, as in libvmaf. */
static int apply_overrides(VqxModelSet *set, const Spec *s)
{
    for (unsigned o = 0; o < s->n_overrides; o++) {
        const Override *ov = &s->overrides[o];
        for (unsigned m = 0; m < set->n_models; m++) {
            for (unsigned i = 0; i < set->models[m].n_features; i++) {
                VqxSvrFeature *f = &set->models[m].features[i];
                if (!extractor_provides(ov->extractor, f->name)) continue;
                int ret = vqx_svr_feature_set_option(f, override_target(f, ov), ov->value);
                if (ret) return ret;
            }
        }
    }
    return 0;
}

/* "name=value:name=value", "" without options. */
static char *join_options(const VqxSvrFeature *f)
{
    size_t len = 1; /* the terminating 0 */
    for (unsigned k = 0; k < f->n_options; k++)
        len += (k ? 1 : 0) + strlen(f->options[k].name) + 1 + strlen(f->options[k].value);
    char *s = malloc(len);
    if (!s) return NULL;
    size_t n = 0;
    for (unsigned k = 0; k < f->n_options; k++) {
        const char *name = f->options[k].name, *value = f->options[k].value;
        const size_t name_len = strlen(name), value_len = strlen(value);
        if (k) s[n++] = ':';
        memcpy(s + n, name, name_len);
        n += name_len;
        s[n++] = '=';
        memcpy(s + n, value, value_len);
        n += value_len;
    }
    s[n] = 0;
    return s;
}

/* One input per distinct (key, options) over all models of the set. */
static int collect_inputs(VqxModel *model)
{
    const VqxModelSet *set = &model->set;
    unsigned total = 0;
    for (unsigned m = 0; m < set->n_models; m++) total += set->models[m].n_features;
    model->inputs = calloc(total, sizeof(*model->inputs));
    if (!model->inputs) return -ENOMEM;

    for (unsigned m = 0; m < set->n_models; m++) {
        for (unsigned i = 0; i < set->models[m].n_features; i++) {
            VqxSvrFeature *f = &set->models[m].features[i];
            char *options = join_options(f);
            if (!options) return -ENOMEM;
            unsigned k = 0;
            while (k < model->n_inputs && (strcmp(model->inputs[k].key, f->name) ||
                                           strcmp(model->inputs[k].options, options)))
                k++;
            if (k < model->n_inputs) {
                free(options);
            } else {
                model->inputs[k].options = options;
                model->inputs[k].key = strdup(f->name);
                model->n_inputs++;
                if (!model->inputs[k].key) return -ENOMEM;
            }
            f->input = k;
        }
    }
    return 0;
}

static const char *const bootstrap_suffixes[] = { "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi" };

/* name; for a bootstrap set also name_0001.. (one per bootstrap model), then
 * name_bagging, name_stddev, name_ci_p95_lo, name_ci_p95_hi. */
static int name_outputs(VqxModel *model, const char *name)
{
    const VqxModelSet *set = &model->set;
    const unsigned n = set->bootstrap ? 1 + (set->n_models - 1) + 4 : 1;
    model->outputs = calloc(n, sizeof(*model->outputs));
    if (!model->outputs) return -ENOMEM;
    const size_t len = strlen(name) + 16;
    for (unsigned i = 0; i < n; i++) {
        char *s = model->outputs[i] = malloc(len);
        if (!s) return -ENOMEM;
        model->n_outputs++;
        if (i == 0)
            snprintf(s, len, "%s", name);
        else if (i < set->n_models)
            snprintf(s, len, "%s_%04u", name, i);
        else
            snprintf(s, len, "%s%s", name, bootstrap_suffixes[i - set->n_models]);
    }
    return 0;
}

/* The JSON text of a spec: a built-in's, or the file's, read into *file. */
static int model_text(const Spec *s, char **file, const char **text, size_t *len,
                      const char **source, char *err, size_t err_len)
{
    if (s->path) {
        *source = s->path;
        int ret = read_file(s->path, file, len, err, err_len);
        *text = *file;
        return ret;
    }
    const VqxBuiltinModel *b = find_builtin(s->version);
    if (!b) return unknown_version(s->version, err, err_len);
    *source = b->version;
    *text = b->json;
    *len = b->len;
    return 0;
}

static int build_model(VqxModel *m, const Spec *s, char *err, size_t err_len)
{
    const char *text = NULL, *source = NULL;
    size_t len = 0;
    char *file = NULL;
    int ret = model_text(s, &file, &text, &len, &source, err, err_len);
    if (!ret) ret = vqx_json_model_read(&m->set, source, text, len, s->flags, err, err_len);
    free(file);
    if (!ret) ret = apply_overrides(&m->set, s);
    if (!ret) ret = collect_inputs(m);
    if (!ret) ret = name_outputs(m, s->name ? s->name : "vmaf");
    if (ret == -ENOMEM) snprintf(err, err_len, "out of memory");
    return ret;
}

int vqx_model_load(VqxModel **model, const char *spec, char *err, size_t err_len)
{
    if (!model || !spec || !err || !err_len) return -EINVAL;
    *model = NULL;

    Spec s;
    VqxModel *m = NULL;
    int ret = parse_spec(&s, spec, err, err_len);
    if (!ret) {
        m = calloc(1, sizeof(*m));
        ret = m ? build_model(m, &s, err, err_len) : -ENOMEM;
        if (ret == -ENOMEM) snprintf(err, err_len, "out of memory");
    }
    spec_free(&s);
    if (ret) {
        vqx_model_free(&m);
        return ret;
    }
    *model = m;
    return 0;
}

void vqx_model_free(VqxModel **model)
{
    if (!model || !*model) return;
    VqxModel *m = *model;
    vqx_model_set_free(&m->set);
    for (unsigned i = 0; i < m->n_inputs; i++) {
        free(m->inputs[i].key);
        free(m->inputs[i].options);
    }
    free(m->inputs);
    for (unsigned i = 0; i < m->n_outputs; i++) free(m->outputs[i]);
    free(m->outputs);
    free(m);
    *model = NULL;
}

unsigned vqx_model_input_count(const VqxModel *m)
{
    return m->n_inputs;
}

const char *vqx_model_input_key(const VqxModel *m, unsigned i)
{
    return i < m->n_inputs ? m->inputs[i].key : NULL;
}

const char *vqx_model_input_options(const VqxModel *m, unsigned i)
{
    return i < m->n_inputs ? m->inputs[i].options : NULL;
}

unsigned vqx_model_output_count(const VqxModel *m)
{
    return m->n_outputs;
}

const char *vqx_model_output_name(const VqxModel *m, unsigned i)
{
    return i < m->n_outputs ? m->outputs[i] : NULL;
}

const char *vqx_model_builtin_name(unsigned i)
{
    return i < vqx_builtin_model_count ? vqx_builtin_models[i].version : NULL;
}

/* ---- prediction ---- */

static int compare_scores(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x > y ? 1 : x < y ? -1 : 0;
}

/* Linear interpolation between the two nearest ranks of sorted scores. */
static double percentile(const double *sorted, unsigned n, double perc)
{
    const double p = perc * (n - 1) / 100.;
    const int lo = (int)floor(p), hi = (int)ceil(p);
    return lo == hi ? sorted[lo] : sorted[lo] * (hi - p) + sorted[hi] * (p - lo);
}

/* libvmaf's bootstrap statistics: mean, spread and 95% interval of the
 * untransformed, unclipped bootstrap scores, then transformed and clipped
 * with the first bootstrap model's settings; the spread is scaled by the
 * transform's slope at the mean (central difference, step 0.01). */
static void bootstrap_stats(const VqxModelSet *set, double *raw, double *out)
{
    const unsigned n = set->n_models - 1;
    const VqxSvrModel *first = &set->models[1];

    double sum = 0.;
    for (unsigned i = 0; i < n; i++) sum += raw[i];
    const double mean = sum / n;

    double ssd = 0.;
    for (unsigned i = 0; i < n; i++) ssd += pow(raw[i] - mean, 2);
    double stddev = sqrt(ssd / n);

    qsort(raw, n, sizeof(*raw), compare_scores);
    const double lo = percentile(raw, n, 2.5);
    const double hi = percentile(raw, n, 97.5);

    const double delta = 0.01;
    const double above = vqx_svr_finish(first, mean + delta);
    const double below = vqx_svr_finish(first, mean - delta);
    stddev *= (above - below) / (2.0 * delta);

    out[0] = vqx_svr_finish(first, mean);
    out[1] = stddev;
    out[2] = vqx_svr_finish(first, lo);
    out[3] = vqx_svr_finish(first, hi);
}

int vqx_model_predict(const VqxModel *m, const double *inputs, double *outputs)
{
    if (!m || !inputs || !outputs) return -EINVAL;
    const VqxModelSet *set = &m->set;
    outputs[0] = vqx_svr_predict(&set->models[0], inputs, false);
    if (!set->bootstrap) return 0;

    double raw[VQX_MAX_BOOTSTRAP_MODELS];
    for (unsigned i = 1; i < set->n_models; i++) {
        raw[i - 1] = vqx_svr_predict(&set->models[i], inputs, true);
        outputs[i] = vqx_svr_finish(&set->models[i], raw[i - 1]);
    }
    bootstrap_stats(set, raw, &outputs[set->n_models]);
    return 0;
}
