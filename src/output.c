/*
 * Output files with libvmaf's structure and names: XML, JSON, CSV and SUB.
 * Keys appear in the order they were registered; a key with no value at all
 * is left out, as libvmaf only lists what was written.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "collector.h"
#include "context.h"
#include "vqx/vqx.h"

static const char *const pool_names[] = {
    [VQX_POOL_MIN] = "min",
    [VQX_POOL_MAX] = "max",
    [VQX_POOL_MEAN] = "mean",
    [VQX_POOL_HARMONIC_MEAN] = "harmonic_mean",
};

/* libvmaf counts the zeros after the decimal point of |x| to choose between
 * 6 and 16 decimals. */
static int leading_fraction_zeros(double x)
{
    x = fabs(x);
    double frac = x - (int)x;
    int n = 0;
    while (frac < 1.0 && frac != 0) {
        frac *= 10;
        n++;
    }
    return n;
}

static void format_number(char *buf, size_t len, double v, int precision)
{
    if (precision == VQX_PRECISION_MAX)
        snprintf(buf, len, "%.17g", v);
    else if (precision >= 0)
        snprintf(buf, len, "%.*f", precision, v);
    else if (isfinite(v) && leading_fraction_zeros(v) > 6)
        snprintf(buf, len, "%.16f", v);
    else
        snprintf(buf, len, "%.6f", v);
}

/* JSON has no non-finite numbers: libvmaf writes null. */
static void format_json_number(char *buf, size_t len, double v, int precision)
{
    if (!isfinite(v)) snprintf(buf, len, "null");
    else format_number(buf, len, v, precision);
}

typedef struct Writer {
    const VqxContext *ctx;
    const VqxCollector *c;
    FILE *f;
    int precision;
    unsigned subsample;
    unsigned n_frames;
} Writer;

static bool key_has_values(const VqxKeySeries *k)
{
    for (unsigned i = 0; i < k->capacity; i++)
        if (k->written[i]) return true;
    return false;
}

static bool key_at(const VqxKeySeries *k, unsigned frame)
{
    return frame < k->capacity && k->written[frame];
}

static bool frame_listed(const Writer *w, unsigned frame)
{
    if (w->subsample > 1 && frame % w->subsample) return false;
    for (unsigned j = 0; j < w->c->n_keys; j++)
        if (key_at(&w->c->keys[j], frame)) return true;
    return false;
}

static void write_xml(const Writer *w, double fps)
{
    const VqxFrameFormat *fmt = vqx_ctx_format(w->ctx);
    char num[64];
    fprintf(w->f, "<VMAF version=\"%s\">\n", vqx_version());
    fprintf(w->f, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", fmt->w, fmt->h);
    fprintf(w->f, "  <fyi fps=\"%.2f\" />\n", fps);
    fprintf(w->f, "  <frames>\n");
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "    <frame frameNum=\"%u\" ", i);
        for (unsigned j = 0; j < w->c->n_keys; j++) {
            const VqxKeySeries *k = &w->c->keys[j];
            if (!key_at(k, i)) continue;
            format_number(num, sizeof(num), k->value[i], w->precision);
            fprintf(w->f, "%s=\"%s\" ", k->name, num);
        }
        fprintf(w->f, "/>\n");
    }
    fprintf(w->f, "  </frames>\n");
    fprintf(w->f, "  <pooled_metrics>\n");
    for (unsigned j = 0; j < w->c->n_keys; j++) {
        const VqxKeySeries *k = &w->c->keys[j];
        if (!key_has_values(k)) continue;
        fprintf(w->f, "    <metric name=\"%s\" ", k->name);
        for (int m = VQX_POOL_MIN; m <= VQX_POOL_HARMONIC_MEAN; m++) {
            double v;
            if (vqx_collector_pool(w->c, j, m, 0, w->n_frames - 1, w->subsample, &v)) continue;
            format_number(num, sizeof(num), v, w->precision);
            fprintf(w->f, "%s=\"%s\" ", pool_names[m], num);
        }
        fprintf(w->f, "/>\n");
    }
    fprintf(w->f, "  </pooled_metrics>\n");
    /* not in libvmaf's files: which backend computed each feature */
    fprintf(w->f, "  <backends>\n");
    for (unsigned i = 0; i < vqx_ctx_feature_count(w->ctx); i++)
        fprintf(w->f, "    <backend feature=\"%s\" name=\"%s\" />\n",
                vqx_ctx_feature_identity(w->ctx, i), vqx_ctx_feature_backend(w->ctx, i));
    fprintf(w->f, "  </backends>\n");
    fprintf(w->f, "  <aggregate_metrics ");
    for (unsigned i = 0; i < w->c->n_aggregate; i++) {
        format_number(num, sizeof(num), w->c->aggregate[i].value, w->precision);
        fprintf(w->f, "%s=\"%s\" ", w->c->aggregate[i].name, num);
    }
    fprintf(w->f, "/>\n");
    fprintf(w->f, "</VMAF>\n");
}

static void write_json(const Writer *w, double fps)
{
    char num[64];
    fprintf(w->f, "{\n");
    fprintf(w->f, "  \"version\": \"%s\",\n", vqx_version());
    if (isfinite(fps)) fprintf(w->f, "  \"fps\": %.2f,\n", fps);
    else fprintf(w->f, "  \"fps\": null,\n");
    fprintf(w->f, "  \"frames\": [");
    bool first_frame = true;
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "%s    {\n      \"frameNum\": %u,\n      \"metrics\": {", first_frame ? "\n" : ",\n", i);
        first_frame = false;
        bool first = true;
        for (unsigned j = 0; j < w->c->n_keys; j++) {
            const VqxKeySeries *k = &w->c->keys[j];
            if (!key_at(k, i)) continue;
            format_json_number(num, sizeof(num), k->value[i], w->precision);
            fprintf(w->f, "%s        \"%s\": %s", first ? "\n" : ",\n", k->name, num);
            first = false;
        }
        fprintf(w->f, "\n      }\n    }");
    }
    fprintf(w->f, "\n  ],\n");
    fprintf(w->f, "  \"pooled_metrics\": {");
    bool first_key = true;
    for (unsigned j = 0; j < w->c->n_keys; j++) {
        const VqxKeySeries *k = &w->c->keys[j];
        if (!key_has_values(k)) continue;
        fprintf(w->f, "%s    \"%s\": {", first_key ? "\n" : ",\n", k->name);
        first_key = false;
        bool first = true;
        for (int m = VQX_POOL_MIN; m <= VQX_POOL_HARMONIC_MEAN; m++) {
            double v;
            if (vqx_collector_pool(w->c, j, m, 0, w->n_frames - 1, w->subsample, &v)) continue;
            format_json_number(num, sizeof(num), v, w->precision);
            fprintf(w->f, "%s      \"%s\": %s", first ? "\n" : ",\n", pool_names[m], num);
            first = false;
        }
        fprintf(w->f, "\n    }");
    }
    fprintf(w->f, "\n  },\n");
    fprintf(w->f, "  \"aggregate_metrics\": {");
    for (unsigned i = 0; i < w->c->n_aggregate; i++) {
        format_json_number(num, sizeof(num), w->c->aggregate[i].value, w->precision);
        fprintf(w->f, "%s    \"%s\": %s", i ? ",\n" : "\n", w->c->aggregate[i].name, num);
    }
    fprintf(w->f, "\n  },\n");
    /* not in libvmaf's files: which backend computed each feature */
    fprintf(w->f, "  \"backends\": {");
    for (unsigned i = 0; i < vqx_ctx_feature_count(w->ctx); i++)
        fprintf(w->f, "%s    \"%s\": \"%s\"", i ? ",\n" : "\n",
                vqx_ctx_feature_identity(w->ctx, i), vqx_ctx_feature_backend(w->ctx, i));
    fprintf(w->f, "\n  }\n}\n");
}

static void write_csv(const Writer *w)
{
    char num[64];
    fprintf(w->f, "Frame,");
    for (unsigned j = 0; j < w->c->n_keys; j++)
        if (key_has_values(&w->c->keys[j])) fprintf(w->f, "%s,", w->c->keys[j].name);
    fprintf(w->f, "\n");
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "%u,", i);
        for (unsigned j = 0; j < w->c->n_keys; j++) {
            const VqxKeySeries *k = &w->c->keys[j];
            if (!key_has_values(k)) continue;
            /* a column keeps its place even where a frame lacks the value */
            if (key_at(k, i)) {
                format_number(num, sizeof(num), k->value[i], w->precision);
                fprintf(w->f, "%s", num);
            }
            fprintf(w->f, ",");
        }
        fprintf(w->f, "\n");
    }
}

static void write_sub(const Writer *w)
{
    char num[64];
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (unsigned j = 0; j < w->c->n_keys; j++) {
            const VqxKeySeries *k = &w->c->keys[j];
            if (!key_at(k, i)) continue;
            format_number(num, sizeof(num), k->value[i], w->precision);
            fprintf(w->f, "%s: %s|", k->name, num);
        }
        fprintf(w->f, "\n");
    }
}

int vqx_write_output(const VqxContext *ctx, FILE *f, const VqxOutputSettings *s)
{
    if (!ctx || !f || !s) return -EINVAL;
    if (s->precision < VQX_PRECISION_MAX || s->precision > 17) return -EINVAL;
    const Writer w = {
        .ctx = ctx,
        .c = vqx_ctx_collector(ctx),
        .f = f,
        .precision = s->precision,
        .subsample = vqx_ctx_subsample(ctx),
        .n_frames = vqx_frame_count(ctx),
    };
    switch (s->format) {
    case VQX_OUTPUT_XML:  write_xml(&w, s->fps); break;
    case VQX_OUTPUT_JSON: write_json(&w, s->fps); break;
    case VQX_OUTPUT_CSV:  write_csv(&w); break;
    case VQX_OUTPUT_SUB:  write_sub(&w); break;
    default: return -EINVAL;
    }
    return ferror(f) ? -EIO : 0;
}
