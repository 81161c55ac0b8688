/*
 * Reading libvmaf's JSON model format with jansson.
 *
 * What libvmaf reads from a model_dict: model_type, norm_type,
 * feature_names, slopes and intercepts (the model's own first, then one per
 * feature), feature_opts_dicts, score_clip, score_transform,
 * chroma_correction_parameter and the libsvm text under "model"; anything
 * else (param_dict, feature_dict) is ignored. Numbers are jansson's strtod
 * doubles, as libvmaf's own parser gives them. This reader is stricter than
 * libvmaf's on malformed files (sizes must agree, knots must be usable): a
 * file libvmaf would half-read is refused here with a reason.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/json_model.h"
#include "model/printable.h"

typedef struct Reader {
    const char *source;
    char where[32]; /* "model_dict" or "\"3\".model_dict" */
    unsigned flags;
    char *err;
    size_t err_len;
} Reader;

__attribute__((format(printf, 3, 4)))
static int fail(const Reader *r, const char *field, const char *fmt, ...)
{
    int n = snprintf(r->err, r->err_len, "%s: %s%s%s: ", r->source, r->where,
                     field ? "." : "", field ? field : "");
    if (n >= 0 && (size_t)n < r->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->err_len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

static int out_of_memory(const Reader *r)
{
    snprintf(r->err, r->err_len, "out of memory");
    return -ENOMEM;
}

static int read_type(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const char *type = json_string_value(json_object_get(dict, "model_type"));
    if (!type) return fail(r, "model_type", "missing or not a string");
    if (!strcmp(type, "LIBSVMNUSVR"))
        m->type = VQX_SVR_SINGLE;
    else if (!strcmp(type, "BOOTSTRAP_LIBSVMNUSVR"))
        m->type = VQX_SVR_BOOTSTRAP;
    else if (!strcmp(type, "RESIDUEBOOTSTRAP_LIBSVMNUSVR"))
        m->type = VQX_SVR_RESIDUE_BOOTSTRAP;
    else {
        char quoted[VQX_PRINTABLE_LEN];
        return fail(r, "model_type", "'%s' is not LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR or "
                    "RESIDUEBOOTSTRAP_LIBSVMNUSVR", vqx_printable(type, strlen(type), quoted));
    }
    return 0;
}

static int read_norm(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const char *norm = json_string_value(json_object_get(dict, "norm_type"));
    if (!norm) return fail(r, "norm_type", "missing or not a string");
    if (!strcmp(norm, "linear_rescale"))
        m->linear_rescale = true;
    else if (strcmp(norm, "none")) {
        char quoted[VQX_PRINTABLE_LEN];
        return fail(r, "norm_type", "'%s' is not linear_rescale or none",
                    vqx_printable(norm, strlen(norm), quoted));
    }
    return 0;
}

static int read_feature_names(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const json_t *names = json_object_get(dict, "feature_names");
    if (!json_is_array(names)) return fail(r, "feature_names", "missing or not an array");
    const size_t n = json_array_size(names);
    if (!n || n > VQX_SVR_MAX_FEATURES)
        return fail(r, "feature_names", "%zu names; a model has 1 to %d features",
                    n, VQX_SVR_MAX_FEATURES);
    m->features = calloc(n, sizeof(*m->features));
    if (!m->features) return out_of_memory(r);
    m->n_features = (unsigned)n;
    for (unsigned i = 0; i < n; i++) {
        const char *name = json_string_value(json_array_get(names, i));
        if (!name || !*name) return fail(r, "feature_names", "entry %u is not a name", i);
        m->features[i].name = strdup(name);
        if (!m->features[i].name) return out_of_memory(r);
    }
    return 0;
}

/* slopes or intercepts: the model's own value, then one per feature. */
static int read_rescale(const Reader *r, const json_t *dict, const char *field,
                        VqxSvrModel *m, bool intercepts)
{
    const json_t *a = json_object_get(dict, field);
    if (!a) {
        if (m->linear_rescale) return fail(r, field, "missing (norm_type is linear_rescale)");
        return 0;
    }
    if (!json_is_array(a)) return fail(r, field, "not an array");
    if (json_array_size(a) != m->n_features + 1)
        return fail(r, field, "%zu numbers for %u features (expected %u: the model's, then one per feature)",
                    json_array_size(a), m->n_features, m->n_features + 1);
    for (unsigned i = 0; i <= m->n_features; i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_number(v)) return fail(r, field, "entry %u is not a number", i);
        double *dst = i == 0 ? (intercepts ? &m->intercept : &m->slope)
                             : (intercepts ? &m->features[i - 1].intercept
                                           : &m->features[i - 1].slope);
        *dst = json_number_value(v);
    }
    return 0;
}

static bool fits_option_list(const char *s)
{
    return *s && !strchr(s, ':');
}

/* Option values become text as libvmaf's dictionary stores them: numbers
 * through strtof and %g, booleans as true/false, strings as they are. */
static int read_feature_options(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const json_t *dicts = json_object_get(dict, "feature_opts_dicts");
    if (!dicts) return 0;
    if (!json_is_array(dicts)) return fail(r, "feature_opts_dicts", "not an array");
    if (json_array_size(dicts) != m->n_features)
        return fail(r, "feature_opts_dicts", "%zu entries for %u features",
                    json_array_size(dicts), m->n_features);

    for (unsigned i = 0; i < m->n_features; i++) {
        const json_t *opts = json_array_get(dicts, i);
        if (!json_is_object(opts))
            return fail(r, "feature_opts_dicts", "entry %u is not an object", i);
        const char *key;
        const json_t *val;
        json_object_foreach((json_t *)opts, key, val) {
            char text[64], quoted[VQX_PRINTABLE_LEN];
            const char *value = text;
            if (json_is_number(val)) {
                char exact[32];
                snprintf(exact, sizeof(exact), "%.17g", json_number_value(val));
                vqx_format_option_number(exact, text, sizeof(text));
            } else if (json_is_boolean(val)) {
                value = json_is_true(val) ? "true" : "false";
            } else if (json_is_string(val)) {
                value = json_string_value(val);
            } else {
                return fail(r, "feature_opts_dicts", "entry %u, option '%s': not a number, "
                            "boolean or string", i, vqx_printable(key, strlen(key), quoted));
            }
            if (!fits_option_list(key) || strchr(key, '=') || !fits_option_list(value))
                return fail(r, "feature_opts_dicts", "entry %u: option '%s' or its value is "
                            "empty or holds ':'", i, vqx_printable(key, strlen(key), quoted));
            if (vqx_svr_feature_set_option(&m->features[i], key, value))
                return out_of_memory(r);
        }
    }
    return 0;
}

static int read_clip(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const json_t *clip = json_object_get(dict, "score_clip");
    if (!clip) return 0;
    if (!json_is_array(clip) || json_array_size(clip) != 2 ||
        !json_is_number(json_array_get(clip, 0)) || !json_is_number(json_array_get(clip, 1)))
        return fail(r, "score_clip", "not [min, max]");
    m->clip = !(r->flags & VQX_MODEL_DISABLE_CLIP);
    m->clip_min = json_number_value(json_array_get(clip, 0));
    m->clip_max = json_number_value(json_array_get(clip, 1));
    return 0;
}

static int read_knots(const Reader *r, const json_t *knots, VqxScoreTransform *t)
{
    const char *field = "score_transform.knots";
    if (!json_is_array(knots)) return fail(r, field, "not an array of [x, y]");
    const size_t n = json_array_size(knots);
    if (n < 2 || n > VQX_SVR_MAX_KNOTS)
        return fail(r, field, "%zu knots (2 to %d expected)", n, VQX_SVR_MAX_KNOTS);
    for (unsigned i = 0; i < n; i++) {
        const json_t *k = json_array_get(knots, i);
        if (!json_is_array(k) || json_array_size(k) != 2 ||
            !json_is_number(json_array_get(k, 0)) || !json_is_number(json_array_get(k, 1)))
            return fail(r, field, "knot %u is not [x, y]", i);
        t->knot_x[i] = json_number_value(json_array_get(k, 0));
        t->knot_y[i] = json_number_value(json_array_get(k, 1));
        if (i && !(t->knot_x[i - 1] < t->knot_x[i] && t->knot_y[i - 1] <= t->knot_y[i]))
            return fail(r, field, "knot %u: x must ascend strictly and y must not descend", i);
    }
    t->n_knots = (unsigned)n;
    return 0;
}

static int read_transform(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const json_t *st = json_object_get(dict, "score_transform");
    if (!st) return 0;
    if (!json_is_object(st)) return fail(r, "score_transform", "not an object");
    VqxScoreTransform *t = &m->transform;

    const json_t *enabled = json_object_get(st, "enabled");
    if (enabled && !json_is_boolean(enabled))
        return fail(r, "score_transform.enabled", "not true or false");
    t->enabled = json_is_true(enabled) || (r->flags & VQX_MODEL_ENABLE_TRANSFORM);

    static const char *const poly[3] = { "p0", "p1", "p2" };
    for (unsigned i = 0; i < 3; i++) {
        const json_t *p = json_object_get(st, poly[i]);
        if (!p || json_is_null(p)) continue;
        if (!json_is_number(p)) return fail(r, "score_transform", "%s is not a number", poly[i]);
        t->has_p[i] = true;
        t->p[i] = json_number_value(p);
    }

    const json_t *knots = json_object_get(st, "knots");
    if (knots && !json_is_null(knots)) {
        int ret = read_knots(r, knots, t);
        if (ret) return ret;
    }

    /* libvmaf reads these as the strings "true"/"false". */
    static const char *const rect[2] = { "out_lte_in", "out_gte_in" };
    bool *rect_dst[2] = { &t->out_lte_in, &t->out_gte_in };
    for (unsigned i = 0; i < 2; i++) {
        const json_t *v = json_object_get(st, rect[i]);
        if (!v) continue;
        if (!json_is_string(v))
            return fail(r, "score_transform", "%s is not a string (\"true\" or \"false\")", rect[i]);
        *rect_dst[i] = !strcmp(json_string_value(v), "true");
    }
    return 0;
}

/* Exactly one feature name must contain `part`. */
static int find_feature(const Reader *r, const VqxSvrModel *m, const char *part, unsigned *index)
{
    unsigned found = 0;
    for (unsigned i = 0; i < m->n_features; i++) {
        if (strstr(m->features[i].name, part)) {
            *index = i;
            found++;
        }
    }
    if (found != 1)
        return fail(r, "chroma_correction_parameter", "needs exactly one feature named "
                    "*%s*, the model has %u", part, found);
    return 0;
}

static int read_chroma_correction(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const json_t *c = json_object_get(dict, "chroma_correction_parameter");
    if (!c) return 0;
    /* libvmaf yields no score at all when the parameter is 0. */
    if (!json_is_number(c) || json_number_value(c) == 0)
        return fail(r, "chroma_correction_parameter", "not a non-zero number");
    m->chroma_correction = true;
    m->chroma_parameter = json_number_value(c);
    int ret = find_feature(r, m, "adm3", &m->guiding);
    if (ret) return ret;
    return find_feature(r, m, "speed_chroma", &m->guided);
}

static int read_svm(const Reader *r, const json_t *dict, VqxSvrModel *m)
{
    const json_t *text = json_object_get(dict, "model");
    if (!json_is_string(text)) return fail(r, "model", "missing or not a string (libsvm model text)");
    char reason[256];
    int ret = vqx_svm_parse(&m->svm, json_string_value(text), json_string_length(text),
                            m->n_features, reason, sizeof(reason));
    if (ret == -ENOMEM) return out_of_memory(r);
    if (ret) return fail(r, "model", "%s", reason);
    return 0;
}

static int read_model_dict(const Reader *r, const json_t *holder, VqxSvrModel *m)
{
    const json_t *dict = json_object_get(holder, "model_dict");
    if (!json_is_object(dict)) return fail(r, NULL, "missing or not an object");

    int ret;
    if ((ret = read_type(r, dict, m)) ||
        (ret = read_norm(r, dict, m)) ||
        (ret = read_feature_names(r, dict, m)) ||
        (ret = read_rescale(r, dict, "slopes", m, false)) ||
        (ret = read_rescale(r, dict, "intercepts", m, true)) ||
        (ret = read_feature_options(r, dict, m)) ||
        (ret = read_clip(r, dict, m)) ||
        (ret = read_transform(r, dict, m)) ||
        (ret = read_chroma_correction(r, dict, m)) ||
        (ret = read_svm(r, dict, m)))
        return ret;
    return 0;
}

/* Bootstrap files: "0" is the model whose score carries the set's name,
 * "1".."N" the bootstrap models (at least one). */
static int read_bootstrap(Reader *r, const json_t *root, VqxModelSet *set)
{
    unsigned n = 0;
    char key[16];
    for (;; n++) {
        snprintf(key, sizeof(key), "%u", n);
        if (!json_object_get(root, key)) break;
        if (n > VQX_MAX_BOOTSTRAP_MODELS) {
            snprintf(r->err, r->err_len, "%s: more than %d bootstrap models", r->source,
                     VQX_MAX_BOOTSTRAP_MODELS);
            return -EINVAL;
        }
    }
    if (n < 2) {
        snprintf(r->err, r->err_len, "%s: neither \"model_dict\" nor bootstrap models "
                 "\"0\", \"1\", ... at the top level", r->source);
        return -EINVAL;
    }
    set->models = calloc(n, sizeof(*set->models));
    if (!set->models) return out_of_memory(r);
    set->n_models = n;
    set->bootstrap = true;

    for (unsigned i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "%u", i);
        snprintf(r->where, sizeof(r->where), "\"%u\".model_dict", i);
        const json_t *holder = json_object_get(root, key);
        if (!json_is_object(holder)) return fail(r, NULL, "\"%u\" is not an object", i);
        int ret = read_model_dict(r, holder, &set->models[i]);
        if (ret) return ret;
        const enum VqxSvrType type = set->models[i].type;
        if (i >= 1 && type == VQX_SVR_SINGLE)
            return fail(r, "model_type", "a bootstrap model must be BOOTSTRAP_LIBSVMNUSVR "
                        "or RESIDUEBOOTSTRAP_LIBSVMNUSVR");
        if (i >= 2 && type != set->models[1].type)
            return fail(r, "model_type", "differs from model \"1\"");
    }
    return 0;
}

int vqx_json_model_read(VqxModelSet *set, const char *source, const char *text,
                        size_t len, unsigned flags, char *err, size_t err_len)
{
    memset(set, 0, sizeof(*set));
    Reader r = { .source = source, .where = "model_dict", .flags = flags,
                 .err = err, .err_len = err_len };

    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        for (char *c = je.text; *c; c++) /* jansson may quote the bad bytes */
            if ((unsigned char)*c < 0x20) *c = '?';
        snprintf(err, err_len, "%s:%d:%d: %s", source, je.line, je.column, je.text);
        return -EINVAL;
    }

    int ret;
    if (!json_is_object(root)) {
        snprintf(err, err_len, "%s: the top level is not a JSON object", source);
        ret = -EINVAL;
    } else if (json_object_get(root, "model_dict")) {
        set->models = calloc(1, sizeof(*set->models));
        set->n_models = set->models ? 1 : 0;
        ret = set->models ? read_model_dict(&r, root, &set->models[0]) : out_of_memory(&r);
    } else {
        ret = read_bootstrap(&r, root, set);
    }
    json_decref(root);
    if (ret) vqx_model_set_free(set);
    return ret;
}

void vqx_model_set_free(VqxModelSet *set)
{
    for (unsigned i = 0; i < set->n_models; i++)
        vqx_svr_free(&set->models[i]);
    free(set->models);
    memset(set, 0, sizeof(*set));
}
