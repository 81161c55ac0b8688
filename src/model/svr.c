/*
 * Prediction of one regression model. Each step keeps libvmaf's double
 * expressions as written (predict.c): normalise x' = slope * x + intercept,
 * SVM, de-normalise (y - intercept) / slope, polynomial, knots, rectify,
 * clip.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/svr.h"

static double normalize(const VqxSvrModel *m, const VqxSvrFeature *f, double v)
{
    return m->linear_rescale ? f->slope * v + f->intercept : v;
}

static double denormalize(const VqxSvrModel *m, const VqxSvrFeature *f, double v)
{
    return m->linear_rescale ? (v - f->intercept) / f->slope : v;
}

/* A zero chroma score (SpEED finds no chroma detail) is replaced by
 * parameter * (1 - adm3), computed on de-normalised values. */
static void correct_chroma(const VqxSvrModel *m, double *x)
{
    const VqxSvrFeature *guided = &m->features[m->guided];
    const VqxSvrFeature *guiding = &m->features[m->guiding];
    if (denormalize(m, guided, x[m->guided]) != 0.0) return;
    const double adm = denormalize(m, guiding, x[m->guiding]);
    const double c = m->chroma_parameter;
    x[m->guided] = normalize(m, guided, -c * adm + c);
}

/* The line through two knots, as libvmaf derives slope and offset (a first
 * knot at x == 0 gives the offset directly). */
static double on_segment(double x0, double y0, double x1, double y1, double x)
{
    double slope, offset;
    if (x0 == 0) {
        offset = y0;
        slope = (y1 - offset) / x1;
    } else {
        slope = (y1 - y0) / (x1 - x0);
        offset = y0 - x0 * slope;
    }
    return slope * x + offset;
}

/* Knots are validated at load: at least two, x ascending strictly, y not
 * descending. Every segment that covers x (its span, or beyond the ends for
 * the first and last) writes y in turn, so a shared knot takes the later
 * segment's value, as in libvmaf. */
static double map_knots(const VqxScoreTransform *t, double x)
{
    double y = 0.0;
    const unsigned n_seg = t->n_knots - 1;
    for (unsigned s = 0; s < n_seg; s++) {
        const double x0 = t->knot_x[s], y0 = t->knot_y[s];
        const double x1 = t->knot_x[s + 1], y1 = t->knot_y[s + 1];
        const bool covers = (x0 <= x && x <= x1) ||
                            (s == 0 && x < x0) ||
                            (s == n_seg - 1 && x > x1);
        if (!covers) continue;
        y = y0 == y1 ? y0 : on_segment(x0, y0, x1, y1, x);
    }
    return y;
}

static double transform(const VqxScoreTransform *t, double in)
{
    double out = in;
    if (t->has_p[0] || t->has_p[1] || t->has_p[2]) {
        out = 0.;
        if (t->has_p[0]) out += t->p[0];
        if (t->has_p[1]) out += t->p[1] * in;
        if (t->has_p[2]) out += t->p[2] * in * in;
    }
    if (t->n_knots) out = map_knots(t, out);
    if (t->out_lte_in && out > in) out = in;
    if (t->out_gte_in && out < in) out = in;
    return out;
}

double vqx_svr_finish(const VqxSvrModel *m, double score)
{
    if (m->transform.enabled) score = transform(&m->transform, score);
    if (m->clip) {
        if (score < m->clip_min) score = m->clip_min;
        if (score > m->clip_max) score = m->clip_max;
    }
    return score;
}

double vqx_svr_predict(const VqxSvrModel *m, const double *inputs, bool raw)
{
    /* zeroed only to quiet gcc -O3, which cannot see that guided < n_features */
    double x[VQX_SVR_MAX_FEATURES] = { 0 };
    for (unsigned i = 0; i < m->n_features; i++)
        x[i] = normalize(m, &m->features[i], inputs[m->features[i].input]);
    if (m->chroma_correction) correct_chroma(m, x);

    double score = vqx_svm_decision(&m->svm, x);
    if (m->linear_rescale) score = (score - m->intercept) / m->slope;
    return raw ? score : vqx_svr_finish(m, score);
}

int vqx_svr_feature_set_option(VqxSvrFeature *f, const char *name, const char *value)
{
    char *v = strdup(value);
    if (!v) return -ENOMEM;
    for (unsigned i = 0; i < f->n_options; i++) {
        if (!strcmp(f->options[i].name, name)) {
            free(f->options[i].value);
            f->options[i].value = v;
            return 0;
        }
    }
    VqxFeatureOption *opts = realloc(f->options, (f->n_options + 1) * sizeof(*opts));
    char *n = strdup(name);
    if (opts) f->options = opts;
    if (!opts || !n) {
        free(v);
        free(n);
        return -ENOMEM;
    }
    opts[f->n_options++] = (VqxFeatureOption){ .name = n, .value = v };
    return 0;
}

void vqx_format_option_number(const char *text, char *buf, size_t len)
{
    const double v = strtof(text, NULL);
    snprintf(buf, len, "%g", v);
}

void vqx_svr_free(VqxSvrModel *m)
{
    for (unsigned i = 0; i < m->n_features; i++) {
        VqxSvrFeature *f = &m->features[i];
        free(f->name);
        for (unsigned k = 0; k < f->n_options; k++) {
            free(f->options[k].name);
            free(f->options[k].value);
        }
        free(f->options);
    }
    free(m->features);
    vqx_svm_free(&m->svm);
    memset(m, 0, sizeof(*m));
}
