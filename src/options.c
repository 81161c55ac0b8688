#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

static void *field(void *state, const VqxOption *o)
{
    return (uint8_t *)state + o->offset;
}

static const void *cfield(const void *state, const VqxOption *o)
{
    return (const uint8_t *)state + o->offset;
}

static void set_default(void *state, const VqxOption *o)
{
    switch (o->type) {
    case VQX_OPT_BOOL:   *(bool *)field(state, o) = o->def.b; break;
    case VQX_OPT_INT:    *(int *)field(state, o) = o->def.i; break;
    case VQX_OPT_DOUBLE: *(double *)field(state, o) = o->def.d; break;
    case VQX_OPT_STRING: *(const char **)field(state, o) = o->def.s; break;
    }
}

static const VqxOption *find_option(const VqxFeatureExtractor *fex, const char *key)
{
    for (const VqxOption *o = fex->options; o && o->name; o++)
        if (!strcmp(o->name, key) || (o->alias && !strcmp(o->alias, key)))
            return o;
    return NULL;
}

static void list_options(const VqxFeatureExtractor *fex, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (const VqxOption *o = fex->options; o && o->name && n < len; o++)
        n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", o->name);
    if (!fex->options || !fex->options->name)
        snprintf(buf, len, "none");
}

static int set_value(void *state, const VqxOption *o, const char *val,
                     const char *fex_name, char *err, size_t err_len)
{
    char *end;
    switch (o->type) {
    case VQX_OPT_BOOL:
        if (!strcmp(val, "true") || !strcmp(val, "1")) {
            *(bool *)field(state, o) = true;
        } else if (!strcmp(val, "false") || !strcmp(val, "0")) {
            *(bool *)field(state, o) = false;
        } else {
            snprintf(err, err_len, "%s: option %s takes true or false, not '%s'",
                     fex_name, o->name, val);
            return -EINVAL;
        }
        return 0;
    case VQX_OPT_INT: {
        errno = 0;
        const long v = strtol(val, &end, 10);
        if (errno || end == val || *end || v < o->min || v > o->max) {
            snprintf(err, err_len, "%s: option %s takes an integer in [%.17g, %.17g], not '%s'",
                     fex_name, o->name, o->min, o->max, val);
            return -ERANGE;
        }
        *(int *)field(state, o) = (int)v;
        return 0;
    }
    case VQX_OPT_DOUBLE: {
        errno = 0;
        const double v = strtod(val, &end);
        if (errno || end == val || *end || !(v >= o->min && v <= o->max)) {
            snprintf(err, err_len, "%s: option %s takes a number in [%.17g, %.17g], not '%s'",
                     fex_name, o->name, o->min, o->max, val);
            return -ERANGE;
        }
        *(double *)field(state, o) = v;
        return 0;
    }
    case VQX_OPT_STRING:
        if (o->choices) {
            for (const char *const *c = o->choices; *c; c++) {
                if (!strcmp(*c, val)) {
                    *(const char **)field(state, o) = *c;
                    return 0;
                }
            }
            size_t n = (size_t)snprintf(err, err_len, "%s: option %s takes one of ", fex_name, o->name);
            for (const char *const *c = o->choices; *c && n < err_len; c++)
                n += (size_t)snprintf(err + n, err_len - n, "%s%s", c == o->choices ? "" : ", ", *c);
            if (n < err_len) snprintf(err + n, err_len - n, ", not '%s'", val);
            return -EINVAL;
        }
        *(const char **)field(state, o) = val;
        return 0;
    }
    return -EINVAL;
}

int vqx_options_apply(const VqxFeatureExtractor *fex, void *state, char *kv,
                      char *err, size_t err_len)
{
    for (const VqxOption *o = fex->options; o && o->name; o++)
        set_default(state, o);
    if (!kv) return 0;

    char *save = NULL;
    for (char *item = strtok_r(kv, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, err_len, "%s: option '%s' has no value (write key=value)", fex->name, item);
            return -EINVAL;
        }
        *eq = 0;
        const VqxOption *o = find_option(fex, item);
        if (!o) {
            char names[512];
            list_options(fex, names, sizeof(names));
            snprintf(err, err_len, "%s: unknown option '%s' (options: %s)", fex->name, item, names);
            return -EINVAL;
        }
        const int ret = set_value(state, o, eq + 1, fex->name, err, err_len);
        if (ret) return ret;
    }
    return 0;
}

static bool is_default(const void *state, const VqxOption *o)
{
    const void *v = cfield(state, o);
    switch (o->type) {
    case VQX_OPT_BOOL:   return *(const bool *)v == o->def.b;
    case VQX_OPT_INT:    return *(const int *)v == o->def.i;
    case VQX_OPT_DOUBLE: return *(const double *)v == o->def.d;
    case VQX_OPT_STRING: {
        const char *s = *(const char *const *)v;
        return s == o->def.s || (s && o->def.s && !strcmp(s, o->def.s));
    }
    }
    return true;
}

static size_t format_value(const void *state, const VqxOption *o, char *buf, size_t len)
{
    const void *v = cfield(state, o);
    switch (o->type) {
    case VQX_OPT_BOOL:   return (size_t)snprintf(buf, len, "%s", *(const bool *)v ? "true" : "false");
    case VQX_OPT_INT:    return (size_t)snprintf(buf, len, "%d", *(const int *)v);
    case VQX_OPT_DOUBLE: return (size_t)snprintf(buf, len, "%g", *(const double *)v);
    case VQX_OPT_STRING: return (size_t)snprintf(buf, len, "%s", *(const char *const *)v ? *(const char *const *)v : "");
    }
    return 0;
}

/* Options in name order, as libvmaf sorts its option dictionary. */
static size_t sorted_options(const VqxFeatureExtractor *fex, const VqxOption **out, size_t cap)
{
    size_t n = 0;
    for (const VqxOption *o = fex->options; o && o->name && n < cap; o++) {
        size_t i = n++;
        while (i > 0 && strcmp(out[i - 1]->name, o->name) > 0) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = o;
    }
    return n;
}

#define MAX_OPTIONS 64

void vqx_options_key_suffix(const VqxFeatureExtractor *fex, const void *state,
                            char *buf, size_t len)
{
    const VqxOption *opts[MAX_OPTIONS];
    const size_t n_opts = sorted_options(fex, opts, MAX_OPTIONS);
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n_opts && n < len; i++) {
        const VqxOption *o = opts[i];
        if (!(o->flags & VQX_OPT_NAMES_KEY) || is_default(state, o)) continue;
        n += (size_t)snprintf(buf + n, len - n, "_%s", o->alias ? o->alias : o->name);
        if (o->type != VQX_OPT_BOOL && n < len) {
            n += (size_t)snprintf(buf + n, len - n, "_");
            if (n < len) n += format_value(state, o, buf + n, len - n);
        }
    }
}

void vqx_options_identity(const VqxFeatureExtractor *fex, const void *state,
                          char *buf, size_t len)
{
    const VqxOption *opts[MAX_OPTIONS];
    const size_t n_opts = sorted_options(fex, opts, MAX_OPTIONS);
    size_t n = (size_t)snprintf(buf, len, "%s", fex->name);
    for (size_t i = 0; i < n_opts && n < len; i++) {
        const VqxOption *o = opts[i];
        if (is_default(state, o)) continue;
        n += (size_t)snprintf(buf + n, len - n, ":%s=", o->name);
        if (n < len && o->type == VQX_OPT_DOUBLE)
            n += (size_t)snprintf(buf + n, len - n, "%.17g", *(const double *)cfield(state, o));
        else if (n < len)
            n += format_value(state, o, buf + n, len - n);
    }
}

static const struct { const char *name, *alias; } key_aliases[] = {
    /* libvmaf's output names for its internal feature names
     * (libvmaf/src/feature/alias.c, Netflix, BSD+Patent). */
    { "VMAF_feature_adm2_score", "adm2" },
    { "VMAF_feature_aim_score", "aim" },
    { "VMAF_feature_adm3_score", "adm3" },
    { "VMAF_feature_adm_scale0_score", "adm_scale0" },
    { "VMAF_feature_adm_scale1_score", "adm_scale1" },
    { "VMAF_feature_adm_scale2_score", "adm_scale2" },
    { "VMAF_feature_adm_scale3_score", "adm_scale3" },
    { "VMAF_feature_motion_score", "motion" },
    { "VMAF_feature_motion2_score", "motion2" },
    { "VMAF_feature_motion3_score", "motion3" },
    { "VMAF_feature_vif_scale0_score", "vif_scale0" },
    { "VMAF_feature_vif_scale1_score", "vif_scale1" },
    { "VMAF_feature_vif_scale2_score", "vif_scale2" },
    { "VMAF_feature_vif_scale3_score", "vif_scale3" },
    { "VMAF_integer_feature_adm2_score", "integer_adm2" },
    { "VMAF_integer_feature_aim_score", "integer_aim" },
    { "VMAF_integer_feature_adm3_score", "integer_adm3" },
    { "VMAF_integer_feature_motion_score", "integer_motion" },
    { "VMAF_integer_feature_motion2_score", "integer_motion2" },
    { "VMAF_integer_feature_motion3_score", "integer_motion3" },
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
    { "Cambi_feature_cambi_score", "cambi" },
    { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u" },
    { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v" },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
};

const char *vqx_key_alias(const char *internal_name)
{
    for (size_t i = 0; i < sizeof(key_aliases) / sizeof(key_aliases[0]); i++)
        if (!strcmp(internal_name, key_aliases[i].name))
            return key_aliases[i].alias;
    return internal_name;
}
