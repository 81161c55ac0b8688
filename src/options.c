#include <errno.h>
#include <float.h>
#include <limits.h>
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

const VqxOption *vqx_options_find(const VqxFeatureExtractor *fex, const char *key)
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

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Plain decimal only: [+-]digits[.digits][(e|E)[+-]digits], or for INT
 * [+-]digits without leading zeros. strtod and strtol alone also take
 * leading spaces, hexadecimal ("0x1p-3"), "inf", "nan" and (INT) "010". */
static bool plain_decimal(const char *s, bool integer)
{
    if (*s == '+' || *s == '-') s++;
    const char *digits = s;
    while (is_digit(*s)) s++;
    const size_t n_int = (size_t)(s - digits);
    if (integer) return n_int && !*s && (n_int == 1 || digits[0] != '0');
    size_t n_frac = 0;
    if (*s == '.')
        for (s++; is_digit(*s); s++) n_frac++;
    if (!n_int && !n_frac) return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!is_digit(*s)) return false;
        while (is_digit(*s)) s++;
    }
    return !*s;
}

static bool in_values(const VqxOption *o, double v)
{
    /* beyond any float: the cast below would be undefined */
    if (o->flags & VQX_OPT_VALUES_FLOAT && !(fabs(v) <= FLT_MAX)) return false;
    for (unsigned i = 0; i < o->n_values; i++) {
        /* as libvmaf compares its kernel scales: float difference */
        const double d = o->flags & VQX_OPT_VALUES_FLOAT
                         ? fabsf((float)v - (float)o->values[i]) : fabs(v - o->values[i]);
        if (d == 0 || d < o->tolerance) return true;
    }
    return false;
}

static bool in_range(const VqxOption *o, double v)
{
    return v >= o->min && v <= o->max;
}

/* "an integer in [0, 3]", "a number in [0, 5]", "one of 1, 3, 5". */
static void describe_accepted(const VqxOption *o, char *buf, size_t len)
{
    if (!o->n_values) {
        snprintf(buf, len, "%s in [%.17g, %.17g]",
                 o->type == VQX_OPT_INT ? "an integer" : "a number", o->min, o->max);
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "one of ");
    for (unsigned i = 0; i < o->n_values && n < len; i++) {
        const double v = o->flags & VQX_OPT_VALUES_FLOAT ? (float)o->values[i] : o->values[i];
        n += (size_t)snprintf(buf + n, len - n, "%s%g", i ? ", " : "", v);
    }
    if (o->tolerance > 0 && n < len)
        snprintf(buf + n, len - n, " (each within %g)", o->tolerance);
}

static int refuse_number(const VqxOption *o, const char *val, bool syntax,
                         const char *fex_name, char *err, size_t err_len)
{
    char accepted[320];
    describe_accepted(o, accepted, sizeof(accepted));
    const char *how = !syntax ? ""
                      : o->type == VQX_OPT_INT
                      ? ", written as decimal digits with an optional sign (no spaces, leading "
                        "zeros, point, exponent or hexadecimal)"
                      : ", written in decimal with an optional sign, point and exponent (no "
                        "spaces, hexadecimal, inf or nan)";
    snprintf(err, err_len, "%s: option %s takes %s%s, not '%s'", fex_name, o->name, accepted,
             how, val);
    /* a value outside a set of values is not a range error */
    return !syntax && o->n_values ? -EINVAL : -ERANGE;
}

static int set_value(void *state, const VqxOption *o, const char *val,
                     const char *fex_name, char *err, size_t err_len)
{
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
        if (!plain_decimal(val, true)) return refuse_number(o, val, true, fex_name, err, err_len);
        errno = 0;
        const long v = strtol(val, NULL, 10);
        if (errno || v < INT_MIN || v > INT_MAX ||
            !(o->n_values ? in_values(o, (double)v) : in_range(o, (double)v)))
            return refuse_number(o, val, false, fex_name, err, err_len);
        *(int *)field(state, o) = (int)v;
        return 0;
    }
    case VQX_OPT_DOUBLE: {
        if (!plain_decimal(val, false)) return refuse_number(o, val, true, fex_name, err, err_len);
        errno = 0;
        double v = strtod(val, NULL);
        /* ERANGE: overflow (refused as out of range) or underflow, whose
         * subnormal or zero result is the nearest double and kept */
        if (errno == ERANGE && isinf(v))
            return refuse_number(o, val, false, fex_name, err, err_len);
        /* -0 is 0: the same value, the same key name */
        if (v == 0) v = 0;
        if (!(o->n_values ? in_values(o, v) : in_range(o, v)))
            return refuse_number(o, val, false, fex_name, err, err_len);
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
        if (!*val) {
            snprintf(err, err_len, "%s: option %s takes a non-empty value, not ''", fex_name,
                     o->name);
            return -EINVAL;
        }
        *(const char **)field(state, o) = val;
        return 0;
    }
    return -EINVAL;
}

#define MAX_OPTIONS 64

int vqx_options_apply(const VqxFeatureExtractor *fex, void *state, char *kv,
                      char *err, size_t err_len)
{
    unsigned n_opts = 0;
    for (const VqxOption *o = fex->options; o && o->name; o++, n_opts++)
        set_default(state, o);
    if (n_opts > MAX_OPTIONS) {
        snprintf(err, err_len, "%s: more than %d options", fex->name, MAX_OPTIONS);
        return -EINVAL;
    }
    if (!kv) return 0;

    /* how each option was spelled when given, to refuse a second one */
    const char *given[MAX_OPTIONS] = { 0 };
    char *save = NULL;
    for (char *item = strtok_r(kv, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, err_len, "%s: option '%s' has no value (write key=value)", fex->name, item);
            return -EINVAL;
        }
        *eq = 0;
        const VqxOption *o = vqx_options_find(fex, item);
        if (!o) {
            char names[512];
            list_options(fex, names, sizeof(names));
            snprintf(err, err_len, "%s: unknown option '%s' (options: %s)", fex->name, item, names);
            return -EINVAL;
        }
        const char **first = &given[o - fex->options];
        if (*first) {
            if (strcmp(*first, item))
                snprintf(err, err_len, "%s: option %s given twice (as %s and %s)", fex->name,
                         o->name, *first, item);
            else
                snprintf(err, err_len, "%s: option %s given twice", fex->name, o->name);
            return -EINVAL;
        }
        *first = item;
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
