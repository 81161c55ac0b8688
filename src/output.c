/*
 * Output files with libvmaf's structure and names: XML, JSON, CSV and SUB.
 * Keys appear in the order libvmaf's collector has them, that of their first
 * write (VqxCollector.order); a key with no value at all is left out, as
 * libvmaf only lists what was written.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "collector.h"
#include "context.h"
#include "plot.h"
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

/* Length of the well-formed UTF-8 sequence at s (shortest form, no
 * surrogates, at most U+10FFFF) and its code point; 0 when there is none. */
static size_t utf8_sequence(const unsigned char *s, uint32_t *cp)
{
    static const uint32_t min_cp[] = { 0, 0, 0x80, 0x800, 0x10000 };
    size_t len;
    if (*s < 0x80) len = 1, *cp = *s;
    else if ((*s & 0xe0) == 0xc0) len = 2, *cp = *s & 0x1f;
    else if ((*s & 0xf0) == 0xe0) len = 3, *cp = *s & 0x0f;
    else if ((*s & 0xf8) == 0xf0) len = 4, *cp = *s & 0x07;
    else return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        *cp = *cp << 6 | (s[i] & 0x3f);
    }
    if (*cp < min_cp[len] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff)) return 0;
    return len;
}

enum Escape { ESCAPE_JSON, ESCAPE_XML };

/* Write s as the inside of a JSON string or of an XML attribute value.
 * Bytes that are not UTF-8 become U+FFFD, as do the characters XML 1.0
 * cannot carry even as references (controls but tab, newline and carriage
 * return; U+FFFE, U+FFFF). Tab, newline and carriage return are written as
 * references in XML, which attribute normalisation would turn into spaces. */
static void put_escaped(FILE *f, const char *str, enum Escape e)
{
    static const char replacement[] = "\xef\xbf\xbd";
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        uint32_t cp;
        const size_t len = utf8_sequence(s, &cp);
        if (!len) {
            fputs(replacement, f);
            s++;
            continue;
        }
        if (e == ESCAPE_JSON) {
            if (cp == '"' || cp == '\\') fprintf(f, "\\%c", (char)cp);
            else if (cp < 0x20) fprintf(f, "\\u%04x", (unsigned)cp);
            else fwrite(s, 1, len, f);
        } else {
            if (cp == '&') fputs("&amp;", f);
            else if (cp == '<') fputs("&lt;", f);
            else if (cp == '>') fputs("&gt;", f);
            else if (cp == '"') fputs("&quot;", f);
            else if (cp == '\t' || cp == '\n' || cp == '\r') fprintf(f, "&#%u;", (unsigned)cp);
            else if (cp < 0x20 || cp == 0xfffe || cp == 0xffff) fputs(replacement, f);
            else fwrite(s, 1, len, f);
        }
        s += len;
    }
}

/* A JSON string: the escaped text in quotes. */
static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    put_escaped(f, s, ESCAPE_JSON);
    fputc('"', f);
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
    fputs("<VMAF version=\"", w->f);
    put_escaped(w->f, vqx_version(), ESCAPE_XML);
    fputs("\">\n", w->f);
    fprintf(w->f, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", fmt->w, fmt->h);
    fprintf(w->f, "  <fyi fps=\"%.2f\" />\n", fps);
    fprintf(w->f, "  <frames>\n");
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "    <frame frameNum=\"%u\" ", i);
        for (unsigned r = 0; r < w->c->n_keys; r++) {
            const VqxKeySeries *k = &w->c->keys[w->c->order[r]];
            if (!key_at(k, i)) continue;
            format_number(num, sizeof(num), k->value[i], w->precision);
            fprintf(w->f, "%s=\"%s\" ", k->name, num);
        }
        fprintf(w->f, "/>\n");
    }
    fprintf(w->f, "  </frames>\n");
    fprintf(w->f, "  <pooled_metrics>\n");
    for (unsigned r = 0; r < w->c->n_keys; r++) {
        const unsigned j = w->c->order[r];
        const VqxKeySeries *k = &w->c->keys[j];
        if (!key_has_values(k)) continue;
        fputs("    <metric name=\"", w->f);
        put_escaped(w->f, k->name, ESCAPE_XML);
        fputs("\" ", w->f);
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
    for (unsigned i = 0; i < vqx_ctx_feature_count(w->ctx); i++) {
        fputs("    <backend feature=\"", w->f);
        put_escaped(w->f, vqx_ctx_feature_identity(w->ctx, i), ESCAPE_XML);
        fputs("\" name=\"", w->f);
        put_escaped(w->f, vqx_ctx_feature_backend(w->ctx, i), ESCAPE_XML);
        fputs("\" />\n", w->f);
    }
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
    fputs("  \"version\": ", w->f);
    put_json_string(w->f, vqx_version());
    fputs(",\n", w->f);
    if (isfinite(fps)) fprintf(w->f, "  \"fps\": %.2f,\n", fps);
    else fprintf(w->f, "  \"fps\": null,\n");
    fprintf(w->f, "  \"frames\": [");
    bool first_frame = true;
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "%s    {\n      \"frameNum\": %u,\n      \"metrics\": {", first_frame ? "\n" : ",\n", i);
        first_frame = false;
        bool first = true;
        for (unsigned r = 0; r < w->c->n_keys; r++) {
            const VqxKeySeries *k = &w->c->keys[w->c->order[r]];
            if (!key_at(k, i)) continue;
            format_json_number(num, sizeof(num), k->value[i], w->precision);
            fputs(first ? "\n        " : ",\n        ", w->f);
            put_json_string(w->f, k->name);
            fprintf(w->f, ": %s", num);
            first = false;
        }
        fprintf(w->f, "\n      }\n    }");
    }
    fprintf(w->f, "\n  ],\n");
    fprintf(w->f, "  \"pooled_metrics\": {");
    bool first_key = true;
    for (unsigned r = 0; r < w->c->n_keys; r++) {
        const unsigned j = w->c->order[r];
        const VqxKeySeries *k = &w->c->keys[j];
        if (!key_has_values(k)) continue;
        fputs(first_key ? "\n    " : ",\n    ", w->f);
        put_json_string(w->f, k->name);
        fputs(": {", w->f);
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
        fputs(i ? ",\n    " : "\n    ", w->f);
        put_json_string(w->f, w->c->aggregate[i].name);
        fprintf(w->f, ": %s", num);
    }
    fprintf(w->f, "\n  },\n");
    /* not in libvmaf's files: which backend computed each feature */
    fprintf(w->f, "  \"backends\": {");
    for (unsigned i = 0; i < vqx_ctx_feature_count(w->ctx); i++) {
        fputs(i ? ",\n    " : "\n    ", w->f);
        put_json_string(w->f, vqx_ctx_feature_identity(w->ctx, i));
        fputs(": ", w->f);
        put_json_string(w->f, vqx_ctx_feature_backend(w->ctx, i));
    }
    fprintf(w->f, "\n  }\n}\n");
}

static void write_csv(const Writer *w)
{
    char num[64];
    fprintf(w->f, "Frame,");
    for (unsigned r = 0; r < w->c->n_keys; r++) {
        const VqxKeySeries *k = &w->c->keys[w->c->order[r]];
        if (key_has_values(k)) fprintf(w->f, "%s,", k->name);
    }
    fprintf(w->f, "\n");
    for (unsigned i = 0; i < w->n_frames; i++) {
        if (!frame_listed(w, i)) continue;
        fprintf(w->f, "%u,", i);
        for (unsigned r = 0; r < w->c->n_keys; r++) {
            const VqxKeySeries *k = &w->c->keys[w->c->order[r]];
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
        for (unsigned r = 0; r < w->c->n_keys; r++) {
            const VqxKeySeries *k = &w->c->keys[w->c->order[r]];
            if (!key_at(k, i)) continue;
            format_number(num, sizeof(num), k->value[i], w->precision);
            fprintf(w->f, "%s: %s|", k->name, num);
        }
        fprintf(w->f, "\n");
    }
}

/* Key names are written unescaped (XML attribute names, CSV headers, SUB
 * labels). The core admits only names that can be; they are checked again
 * before anything is written, so that a file is well formed or not written
 * at all. */
static bool names_writable(const VqxCollector *c)
{
    for (unsigned j = 0; j < c->n_keys; j++) {
        const char *name = c->keys[j].name;
        if (!key_has_values(&c->keys[j])) continue;
        if (vqx_key_name_fault(name) || vqx_key_name_reserved(name)) return false;
    }
    for (unsigned i = 0; i < c->n_aggregate; i++)
        if (vqx_key_name_fault(c->aggregate[i].name)) return false;
    return true;
}

int vqx_write_output(const VqxContext *ctx, FILE *f, const VqxOutputSettings *s)
{
    if (!ctx || !f || !s) return -EINVAL;
    if (s->precision < VQX_PRECISION_MAX || s->precision > 17) return -EINVAL;
    if ((unsigned)s->format > VQX_OUTPUT_SVG) return -EINVAL;
    if (!names_writable(vqx_ctx_collector(ctx))) return -EINVAL;
    const Writer w = {
        .ctx = ctx,
        .c = vqx_ctx_collector(ctx),
        .f = f,
        .precision = s->precision,
        .subsample = vqx_ctx_subsample(ctx),
        .n_frames = vqx_frame_count(ctx),
    };
    errno = 0;
    switch (s->format) {
    case VQX_OUTPUT_XML:  write_xml(&w, s->fps); break;
    case VQX_OUTPUT_JSON: write_json(&w, s->fps); break;
    case VQX_OUTPUT_CSV:  write_csv(&w); break;
    case VQX_OUTPUT_SUB:  write_sub(&w); break;
    case VQX_OUTPUT_SVG:  vqx_write_svg(ctx, f); break;
    }
    /* errno of the failed write: "No space left on device" says more than EIO */
    return ferror(f) ? -(errno ? errno : EIO) : 0;
}
