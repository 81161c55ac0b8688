/*
 * libsvm model text and the SVR decision function.
 *
 * libsvm stores support vectors sparsely and its RBF kernel walks x and the
 * vector in ascending index order, adding (x_k - sv_k)^2 where both have an
 * index and the lone square where one has it. The input vector always holds
 * every index 1..dim, so with strictly ascending indices that sum equals the
 * dense sum over k = 1..dim with absent entries stored as 0: x - 0 == x and
 * 0 - y squares to y*y, bit for bit. That is why the vectors are stored dense
 * and indices must ascend.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/printable.h"
#include "model/svm.h"

/* Far above any trained VMAF model (a few hundred); bounds the dense copy. */
#define MAX_SUPPORT_VECTORS 100000

typedef struct Text {
    const char *start, *p, *end;
    char *err;
    size_t err_len;
} Text;

__attribute__((format(printf, 2, 3)))
static int fail(Text *t, const char *fmt, ...)
{
    unsigned line = 1;
    for (const char *c = t->start; c < t->p && c < t->end; c++)
        line += *c == '\n';
    int n = snprintf(t->err, t->err_len, "libsvm model line %u: ", line);
    if (n >= 0 && (size_t)n < t->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->err + n, t->err_len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_space(char c)
{
    return is_blank(c) || c == '\n';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static void skip_space(Text *t)
{
    while (t->p < t->end && is_space(*t->p)) t->p++;
}

static void skip_blank(Text *t)
{
    while (t->p < t->end && is_blank(*t->p)) t->p++;
}

/* The next whitespace-delimited word; its length in *len (0 at the end). */
static const char *next_word(Text *t, size_t *len)
{
    skip_space(t);
    const char *w = t->p;
    while (t->p < t->end && !is_space(*t->p)) t->p++;
    *len = (size_t)(t->p - w);
    return w;
}

static bool word_is(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && !memcmp(w, s, len);
}

/* A decimal number ([+-]digits[.digits][e[+-]digits]) at t->p, converted by
 * strtod as libsvm's stream extraction does. Hex, inf and nan are refused. */
static bool scan_double(Text *t, double *out)
{
    const char *s = t->p, *q = s;
    if (q < t->end && (*q == '+' || *q == '-')) q++;
    const char *mant = q;
    while (q < t->end && is_digit(*q)) q++;
    bool digits = q > mant;
    if (q < t->end && *q == '.') {
        q++;
        const char *frac = q;
        while (q < t->end && is_digit(*q)) q++;
        digits = digits || q > frac;
    }
    if (!digits) return false;
    if (q < t->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < t->end && (*e == '+' || *e == '-')) e++;
        if (e < t->end && is_digit(*e)) {
            while (e < t->end && is_digit(*e)) e++;
            q = e;
        }
    }
    char buf[128];
    const size_t n = (size_t)(q - s);
    if (n >= sizeof(buf)) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *stop;
    *out = strtod(buf, &stop);
    t->p = q;
    return stop == buf + n;
}

static bool scan_uint(Text *t, unsigned long max, unsigned long *out)
{
    const char *q = t->p;
    unsigned long v = 0;
    while (q < t->end && is_digit(*q)) {
        v = v * 10 + (unsigned long)(*q - '0');
        if (v > max) return false;
        q++;
    }
    if (q == t->p) return false;
    t->p = q;
    *out = v;
    return true;
}

static bool at_word_end(const Text *t)
{
    return t->p == t->end || is_space(*t->p);
}

static int read_double(Text *t, const char *what, double *out)
{
    skip_space(t);
    if (!scan_double(t, out) || !at_word_end(t))
        return fail(t, "%s needs a number", what);
    return 0;
}

static int read_uint(Text *t, const char *what, unsigned long max, unsigned long *out)
{
    skip_space(t);
    if (!scan_uint(t, max, out) || !at_word_end(t))
        return fail(t, "%s needs an integer in [0, %lu]", what, max);
    return 0;
}

/* label, nr_sv, probA, probB: classification or probability data that the
 * regression output does not use; checked for form and skipped. */
static int skip_numbers(Text *t, const char *what, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        double ignored;
        int ret = read_double(t, what, &ignored);
        if (ret) return ret;
    }
    return 0;
}

static int parse_header(Text *t, VqxSvm *svm, unsigned long *n_sv)
{
    bool have_type = false, have_kernel = false, have_gamma = false, have_rho = false;
    unsigned long nr_class = 0;
    *n_sv = 0;

    for (;;) {
        size_t len;
        const char *w = next_word(t, &len);
        if (!len) return fail(t, "no \"SV\" line (end of the header) found");
        if (word_is(w, len, "SV")) break;

        int ret = 0;
        char quoted[VQX_PRINTABLE_LEN];
        if (word_is(w, len, "svm_type")) {
            const char *v = next_word(t, &len);
            if (word_is(v, len, "nu_svr") || word_is(v, len, "epsilon_svr")) {
                have_type = true;
            } else if (word_is(v, len, "c_svc") || word_is(v, len, "nu_svc") ||
                       word_is(v, len, "one_class")) {
                return fail(t, "svm_type %.*s is not a regression (nu_svr or epsilon_svr expected)",
                            (int)len, v);
            } else {
                return fail(t, "unknown svm_type '%s'", vqx_printable(v, len, quoted));
            }
        } else if (word_is(w, len, "kernel_type")) {
            const char *v = next_word(t, &len);
            if (!word_is(v, len, "rbf"))
                return fail(t, "kernel_type '%s' is not supported (rbf expected)",
                            vqx_printable(v, len, quoted));
            have_kernel = true;
        } else if (word_is(w, len, "gamma")) {
            ret = read_double(t, "gamma", &svm->gamma);
            have_gamma = true;
        } else if (word_is(w, len, "degree") || word_is(w, len, "coef0")) {
            double unused; /* polynomial and sigmoid kernels only */
            ret = read_double(t, "degree/coef0", &unused);
        } else if (word_is(w, len, "nr_class")) {
            ret = read_uint(t, "nr_class", 1000, &nr_class);
            if (!ret && nr_class != 2)
                return fail(t, "nr_class %lu: a regression model has nr_class 2", nr_class);
        } else if (word_is(w, len, "total_sv")) {
            ret = read_uint(t, "total_sv", MAX_SUPPORT_VECTORS, n_sv);
        } else if (word_is(w, len, "rho")) {
            if (!nr_class) return fail(t, "rho comes before nr_class");
            ret = read_double(t, "rho", &svm->rho);
            have_rho = true;
        } else if (word_is(w, len, "label") || word_is(w, len, "nr_sv")) {
            if (!nr_class) return fail(t, "label/nr_sv comes before nr_class");
            ret = skip_numbers(t, "label/nr_sv", (unsigned)nr_class);
        } else if (word_is(w, len, "probA") || word_is(w, len, "probB")) {
            if (!nr_class) return fail(t, "probA/probB comes before nr_class");
            ret = skip_numbers(t, "probA/probB", 1);
        } else {
            return fail(t, "unknown header entry '%s'", vqx_printable(w, len, quoted));
        }
        if (ret) return ret;
    }

    if (!have_type) return fail(t, "header lacks svm_type");
    if (!have_kernel) return fail(t, "header lacks kernel_type");
    if (!have_gamma) return fail(t, "header lacks gamma");
    if (!nr_class) return fail(t, "header lacks nr_class");
    if (!have_rho) return fail(t, "header lacks rho");
    if (!*n_sv) return fail(t, "header lacks total_sv (or it is 0)");
    return 0;
}

/* One line "coef index:value index:value ...", indices ascending in 1..dim. */
static int parse_vector(Text *t, unsigned i, unsigned dim, double *coef, double *sv)
{
    skip_blank(t);
    if (!scan_double(t, coef) || !(t->p == t->end || is_blank(*t->p) || *t->p == '\n'))
        return fail(t, "support vector %u: no coefficient", i + 1);

    unsigned long last = 0;
    for (;;) {
        skip_blank(t);
        if (t->p == t->end || *t->p == '\n') break;
        unsigned long index;
        if (!scan_uint(t, dim, &index) || !index || t->p == t->end || *t->p != ':')
            return fail(t, "support vector %u: expected index:value with index in [1, %u]",
                        i + 1, dim);
        if (index <= last)
            return fail(t, "support vector %u: index %lu after %lu (indices must ascend from 1)",
                        i + 1, index, last);
        t->p++;
        if (!scan_double(t, &sv[index - 1]) ||
            !(t->p == t->end || is_blank(*t->p) || *t->p == '\n'))
            return fail(t, "support vector %u: index %lu has no number", i + 1, index);
        last = index;
    }
    if (t->p < t->end) t->p++; /* the newline */
    return 0;
}

int vqx_svm_parse(VqxSvm *svm, const char *text, size_t len, unsigned dim,
                  char *err, size_t err_len)
{
    memset(svm, 0, sizeof(*svm));
    Text t = { .start = text, .p = text, .end = text + len, .err = err, .err_len = err_len };

    unsigned long n_sv;
    int ret = parse_header(&t, svm, &n_sv);
    if (ret) return ret;

    skip_blank(&t);
    if (t.p < t.end && *t.p != '\n') return fail(&t, "text after \"SV\" on its line");
    if (t.p < t.end) t.p++;

    size_t lines = 0;
    for (const char *c = t.p; c < t.end; c++) lines += *c == '\n';
    if (t.end > t.p && t.end[-1] != '\n') lines++;
    if (lines < n_sv)
        return fail(&t, "total_sv is %lu but only %zu lines follow \"SV\"", n_sv, lines);

    svm->n_sv = (unsigned)n_sv;
    svm->dim = dim;
    svm->coef = calloc(n_sv, sizeof(*svm->coef));
    svm->sv = calloc(n_sv * (dim ? dim : 1), sizeof(*svm->sv));
    if (!svm->coef || !svm->sv) {
        vqx_svm_free(svm);
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    for (unsigned i = 0; i < svm->n_sv; i++) {
        ret = parse_vector(&t, i, dim, &svm->coef[i], &svm->sv[(size_t)i * dim]);
        if (ret) {
            vqx_svm_free(svm);
            return ret;
        }
    }
    skip_space(&t);
    if (t.p < t.end) {
        ret = fail(&t, "more support vectors than total_sv (%lu)", n_sv);
        vqx_svm_free(svm);
        return ret;
    }
    return 0;
}

void vqx_svm_free(VqxSvm *svm)
{
    free(svm->coef);
    free(svm->sv);
    memset(svm, 0, sizeof(*svm));
}

double vqx_svm_decision(const VqxSvm *svm, const double *x)
{
    double sum = 0;
    for (unsigned i = 0; i < svm->n_sv; i++) {
        const double *v = &svm->sv[(size_t)i * svm->dim];
        double dist2 = 0;
        for (unsigned k = 0; k < svm->dim; k++) {
            const double d = x[k] - v[k];
            dist2 += d * d;
        }
        sum += svm->coef[i] * exp(-svm->gamma * dist2);
    }
    return sum - svm->rho;
}
