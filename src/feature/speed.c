/*
 * SpEED-QA: the stages of speed.h and the two extractors built on them,
 * speed_chroma (spatial SpEED of the U and V planes) and speed_temporal
 * (SpEED of the luma frame differences).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/extractor.h"
#include "feature/float_picture.h"
#include "feature/speed.h"
#include "feature/speed_linalg.h"
#include "feature/vif_gaussian.h"

/* C11 <math.h> has no M_PI / M_E: the same double constants. */
#define SPEED_PI 3.14159265358979323846
#define SPEED_E 2.7182818284590452354
/* The constant term that libvmaf adds to the entropy for each eigenvalue. */
#define LOG2_2PIE log2(2 * SPEED_PI * SPEED_E)

/* ---- plan ---- */

static int geometry(SpeedGeometry *g, unsigned w, unsigned h, double prescale)
{
    g->in_w = w;
    g->in_h = h;
    g->scaled_w = (unsigned)(int)(w * prescale + 0.5);
    g->scaled_h = (unsigned)(int)(h * prescale + 0.5);
    if (fabs(prescale - 1.0) < 1e-3) {
        /* libvmaf does not resample within 1e-3 of 1; it then reads the
         * input at the rounded size, which cannot exceed the input. */
        if (g->scaled_w > w) g->scaled_w = w;
        if (g->scaled_h > h) g->scaled_h = h;
        g->rescale = false;
    } else {
        g->rescale = g->scaled_w != w || g->scaled_h != h;
    }
    g->dec_w = g->scaled_w / SPEED_DECIMATION;
    g->dec_h = g->scaled_h / SPEED_DECIMATION;
    g->blocks_x = g->dec_w / SPEED_BLOCK;
    g->blocks_y = g->dec_h / SPEED_BLOCK;
    g->n_blocks = g->blocks_x * g->blocks_y;
    if (!g->n_blocks) return -EINVAL;
    g->cov_w = g->blocks_x * SPEED_BLOCK - (SPEED_BLOCK - 1);
    g->cov_h = g->blocks_y * SPEED_BLOCK - (SPEED_BLOCK - 1);
    return 0;
}

static int mirror_index(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* Runs of [0, w) (scaled-image columns or rows) that the anti-alias filter
 * reads when it is evaluated at 0, 16, 32... (n_dec points) only. */
static int needed_runs(const SpeedPlan *p, unsigned w, unsigned n_dec, SpeedSpan **runs,
                       unsigned *n_runs)
{
    const int half = p->antialias_len / 2;
    unsigned char *needed = calloc(w, 1);
    if (!needed) return -ENOMEM;
    for (unsigned j = 0; j < n_dec; j++)
        for (int t = 0; t < p->antialias_len; t++)
            needed[mirror_index((int)(j * SPEED_DECIMATION) - half + t, (int)w)] = 1;

    unsigned n = 0;
    for (unsigned x = 0; x < w; x++)
        n += needed[x] && (x == 0 || !needed[x - 1]);
    *runs = malloc(sizeof(**runs) * (n ? n : 1));
    if (!*runs) {
        free(needed);
        return -ENOMEM;
    }
    *n_runs = 0;
    for (unsigned x = 0; x < w; x++) {
        if (!needed[x]) continue;
        if (x == 0 || !needed[x - 1])
            (*runs)[(*n_runs)++] = (SpeedSpan){ x, 0 };
        (*runs)[*n_runs - 1].count++;
    }
    free(needed);
    return 0;
}

/* The loaded plane's rows that the analysis reads: every row for the
 * prescale, else the decimating filter's (9 of 16 at kernel scale 1), so
 * that the loads and speed_temporal's differences skip the others. */
static int row_runs_init(SpeedPlan *p)
{
    if (!p->geo.rescale)
        return needed_runs(p, p->geo.scaled_h, p->geo.dec_h, &p->row_runs, &p->n_row_runs);
    p->row_runs = malloc(sizeof(*p->row_runs));
    if (!p->row_runs) return -ENOMEM;
    p->row_runs[0] = (SpeedSpan){ 0, p->geo.in_h };
    p->n_row_runs = 1;
    return 0;
}

int vqx_speed_plan_init(SpeedPlan *p, unsigned w, unsigned h,
                        const SpeedParams *params, char *err, size_t err_len)
{
    memset(p, 0, sizeof(*p));
    p->params = *params;
    const float ks = (float)params->kernelscale;
    if (geometry(&p->geo, w, h, params->prescale)) {
        if (params->prescale != 1.0)
            snprintf(err, err_len, "%ux%u, prescaled by %g to %ux%u, is below SpEED's minimum "
                     "of %ux%u", w, h, params->prescale, p->geo.scaled_w, p->geo.scaled_h,
                     SPEED_MIN_SIDE, SPEED_MIN_SIDE);
        else
            snprintf(err, err_len, "%ux%u is below SpEED's minimum of %ux%u", w, h,
                     SPEED_MIN_SIDE, SPEED_MIN_SIDE);
        return -EINVAL;
    }

    /* The anti-alias filter has the support of the scale-1 filter and the
     * width of the scale-4 one; the local mean uses the scale-4 filter. */
    p->antialias_len = (int)vqx_vif_filter_size(1, ks);
    vqx_vif_gaussian(p->antialias, (unsigned)p->antialias_len, sqrt(4) * p->antialias_len / 5.0f);
    p->local_mean_len = (int)vqx_vif_filter_size(4, ks);
    vqx_vif_gaussian(p->local_mean, (unsigned)p->local_mean_len, p->local_mean_len / 5.0f);

    vqx_speed_dsp_init(&p->dsp, params->cpu_flags);
    vqx_float_picture_dsp_init(&p->picture, params->cpu_flags);
    int ret = 0;
    if (p->geo.rescale) {
        ret = vqx_resampler_init(&p->prescale, params->scaler, w, h, p->geo.scaled_w,
                                 p->geo.scaled_h, params->cpu_flags);
    }
    if (!ret) ret = needed_runs(p, p->geo.scaled_w, p->geo.dec_w, &p->spans, &p->n_spans);
    if (!ret) ret = row_runs_init(p);
    if (ret) {
        snprintf(err, err_len, "out of memory");
        vqx_speed_plan_free(p);
    }
    return ret;
}

void vqx_speed_plan_free(SpeedPlan *p)
{
    vqx_resampler_free(&p->prescale);
    free(p->spans);
    free(p->row_runs);
    p->spans = p->row_runs = NULL;
}

int vqx_speed_work_init(SpeedWork *w, const SpeedPlan *plan)
{
    const SpeedGeometry *g = &plan->geo;
    memset(w, 0, sizeof(*w));
    w->scaled_stride = (ptrdiff_t)vqx_float_stride(g->scaled_w);
    w->dec_stride = (ptrdiff_t)vqx_float_stride(g->dec_w);
    const size_t block_values = (size_t)SPEED_DIM * g->n_blocks;
    if (g->rescale)
        w->scaled = malloc(sizeof(float) * w->scaled_stride * g->scaled_h);
    w->row = malloc(sizeof(float) * g->scaled_w);
    w->dec = malloc(sizeof(float) * w->dec_stride * g->dec_h);
    w->local = malloc(sizeof(float) * w->dec_stride * g->dec_h);
    w->samples = malloc(sizeof(float) * block_values);
    w->solution = malloc(sizeof(float) * block_values);
    w->linalg = malloc(sizeof(float) * vqx_speed_linalg_scratch(g->n_blocks));
    if ((g->rescale && !w->scaled) || !w->row || !w->dec || !w->local || !w->samples ||
        !w->solution || !w->linalg) {
        vqx_speed_work_free(w);
        return -ENOMEM;
    }
    return 0;
}

void vqx_speed_work_free(SpeedWork *w)
{
    free(w->scaled);
    free(w->row);
    free(w->dec);
    free(w->local);
    free(w->samples);
    free(w->solution);
    free(w->linalg);
    memset(w, 0, sizeof(*w));
}

int vqx_speed_stats_init(SpeedStats *s, const SpeedPlan *plan)
{
    s->variance = malloc(sizeof(float) * plan->geo.n_blocks);
    s->entropy = malloc(sizeof(float) * plan->geo.n_blocks);
    s->singular = false;
    if (!s->variance || !s->entropy) {
        vqx_speed_stats_free(s);
        return -ENOMEM;
    }
    return 0;
}

void vqx_speed_stats_free(SpeedStats *s)
{
    free(s->variance);
    free(s->entropy);
    s->variance = s->entropy = NULL;
}

/* ---- stages ---- */

void vqx_speed_decimate(const SpeedPlan *plan, const float *img, ptrdiff_t stride,
                        float *row, float *dec, ptrdiff_t dec_stride)
{
    const SpeedGeometry *g = &plan->geo;
    const float *f = plan->antialias;
    const int taps = plan->antialias_len, half = taps / 2;
    const float *rows[SPEED_MAX_TAPS];
    for (unsigned i = 0; i < g->dec_h; i++) {
        const int y = (int)(i * SPEED_DECIMATION);
        for (int t = 0; t < taps; t++)
            rows[t] = img + mirror_index(y - half + t, (int)g->scaled_h) * stride;
        plan->dsp.decimate_columns(rows, f, taps, plan->spans, plan->n_spans, row);
        float *out = dec + (ptrdiff_t)i * dec_stride;
        for (unsigned j = 0; j < g->dec_w; j++) {
            const int x = (int)(j * SPEED_DECIMATION);
            float acc = 0;
            for (int t = 0; t < taps; t++)
                acc += f[t] * row[mirror_index(x - half + t, (int)g->scaled_w)];
            out[j] = acc;
        }
    }
}

void vqx_speed_demean(const SpeedPlan *plan, float *dec, float *local,
                      ptrdiff_t dec_stride, float *row)
{
    const int w = (int)plan->geo.dec_w, h = (int)plan->geo.dec_h;
    const float *f = plan->local_mean;
    const int taps = plan->local_mean_len, half = taps / 2;
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int t = 0; t < taps; t++)
                acc += f[t] * dec[mirror_index(i - half + t, h) * dec_stride + j];
            row[j] = acc;
        }
        float *out = local + i * dec_stride;
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int t = 0; t < taps; t++)
                acc += f[t] * row[mirror_index(j - half + t, w)];
            out[j] = acc;
        }
    }
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            dec[i * dec_stride + j] -= local[i * dec_stride + j];
}

static void covariance(SpeedCovarianceSumsFn pair_sums, const SpeedGeometry *g,
                       const float *dec, ptrdiff_t dec_stride, float cov[SPEED_DIM * SPEED_DIM])
{
    const unsigned n = g->cov_w * g->cov_h;
    float mean[SPEED_DIM];
    for (int o = 0; o < SPEED_DIM; o++) {
        const float *base = dec + (o / SPEED_BLOCK) * dec_stride + o % SPEED_BLOCK;
        float sum = 0;
        for (unsigned i = 0; i < g->cov_h; i++)
            for (unsigned j = 0; j < g->cov_w; j++)
                sum += base[i * dec_stride + j];
        mean[o] = sum / n;
    }

    double acc[SPEED_PAIRS];
    pair_sums(dec, dec_stride, g->cov_w, g->cov_h, mean, acc);
    const double *a = acc;
    for (int x = 0; x < SPEED_DIM; x++) {
        for (int y = 0; y <= x; y++) {
            const float v = a[y] / (double)n;
            cov[x * SPEED_DIM + y] = v;
            cov[y * SPEED_DIM + x] = v;
        }
        a += x + 1;
    }
}

void vqx_speed_covariance(const SpeedGeometry *g, const float *dec, ptrdiff_t dec_stride,
                          float cov[SPEED_DIM * SPEED_DIM])
{
    covariance(vqx_speed_covariance_sums_c, g, dec, dec_stride, cov);
}

void vqx_speed_block_samples(const SpeedGeometry *g, const float *dec, ptrdiff_t dec_stride,
                             float *samples)
{
    for (int o = 0; o < SPEED_DIM; o++) {
        float *out = samples + (size_t)o * g->n_blocks;
        for (unsigned by = 0; by < g->blocks_y; by++) {
            const float *r = dec + (by * SPEED_BLOCK + o / SPEED_BLOCK) * dec_stride + o % SPEED_BLOCK;
            for (unsigned bx = 0; bx < g->blocks_x; bx++)
                *out++ = r[bx * SPEED_BLOCK];
        }
    }
}

void vqx_speed_variances(const SpeedGeometry *g, const float *x, const float *samples,
                         float *variance)
{
    const unsigned nb = g->n_blocks;
    for (unsigned b = 0; b < nb; b++)
        variance[b] = speed_block_variance(x + b, samples + b, nb);
}

void vqx_speed_entropies(const SpeedGeometry *g, const float eig[SPEED_DIM], float sigma_nn,
                         SpeedStats *out)
{
    for (unsigned b = 0; b < g->n_blocks; b++) {
        float e = 0;
        for (int k = 0; k < SPEED_DIM; k++) {
            const float l = eig[k] < 0 ? 0 : eig[k];
            e += log2(l * out->variance[b] + sigma_nn) + LOG2_2PIE;
        }
        out->entropy[b] = e;
    }
}

void vqx_speed_analyse(const SpeedPlan *plan, SpeedWork *w, const float *img,
                       ptrdiff_t stride, SpeedStats *out)
{
    const SpeedGeometry *g = &plan->geo;
    if (g->rescale) {
        vqx_resample(&plan->prescale, img, stride, w->scaled, w->scaled_stride);
        img = w->scaled;
        stride = w->scaled_stride;
    }
    vqx_speed_decimate(plan, img, stride, w->row, w->dec, w->dec_stride);
    vqx_speed_demean(plan, w->dec, w->local, w->dec_stride, w->row);
    covariance(plan->dsp.covariance_sums, g, w->dec, w->dec_stride, w->cov);
    vqx_speed_eigenvalues(w->cov, w->eig, w->linalg);
    vqx_speed_block_samples(g, w->dec, w->dec_stride, w->samples);

    out->singular = !vqx_speed_is_regular(w->eig) ||
                    vqx_speed_solve(&plan->dsp, w->cov, w->samples, g->n_blocks, w->solution,
                                    w->linalg);
    if (out->singular)
        memset(w->solution, 0, sizeof(float) * SPEED_DIM * g->n_blocks);
    vqx_speed_variances(g, w->solution, w->samples, out->variance);
    vqx_speed_entropies(g, w->eig, plan->params.sigma_nn, out);
}

float vqx_speed_score(const SpeedPlan *plan, const SpeedStats *ref, const SpeedStats *dis)
{
    /* a score from one singular plane would be inflated: libvmaf says 0 */
    if (ref->singular != dis->singular) return 0.0f;

    const SpeedParams *p = &plan->params;
    const unsigned nb = plan->geo.n_blocks;
    const float floor_entropy =
        SPEED_DIM * (log2((1 + p->nn_floor) * p->sigma_nn) + LOG2_2PIE);
    float score = 0;
    for (unsigned b = 0; b < nb; b++) {
        const float er = ref->entropy[b], ed = dis->entropy[b];
        if (er < floor_entropy && ed < floor_entropy) continue;
        const float r = ref->variance[b], d = dis->variance[b];
        float spatial_ref, spatial_dis;
        switch (p->weight_var_mode) {
        case 0:
            spatial_ref = er * log2(1 + r);
            spatial_dis = ed * log2(1 + d);
            break;
        case 1:
            spatial_ref = er * log2(1 + r);
            spatial_dis = ed * log2(1 + r);
            break;
        case 2:
            spatial_ref = er * log2(1 + d);
            spatial_dis = ed * log2(1 + d);
            break;
        case 3:
            spatial_ref = er * log2(1 + (r + d) / 2.0);
            spatial_dis = ed * log2(1 + (r + d) / 2.0);
            break;
        case 4:
            spatial_ref = er * log2(1 + r);
            spatial_dis = ed * log2(1 + (r + d) / 2.0);
            break;
        case 5:
            spatial_ref = er * log2(1 + r);
            spatial_dis = ed * log2(1 + (0.75 * r + 0.25 * d));
            break;
        default: /* 6; the option allows 0..6 */
            spatial_ref = er * log2(1 + r);
            spatial_dis = ed * log2(1 + (0.25 * r + 0.75 * d));
            break;
        }
        score += fabsf(spatial_ref - spatial_dis);
    }
    return score / nb;
}

/* ---- extractors ---- */

#define DEFAULT_SIGMA_NN 0.29
#define DEFAULT_MAX_VAL 1000.0

/* Options common to both extractors, with libvmaf's names, aliases, ranges
 * and defaults; each one names keys. */
#define SPEED_COMMON_OPTIONS(State)                                                        \
    { .name = "speed_kernelscale", .alias = "ks",                                          \
      .help = "scale of the Gaussian kernels' width (2: twice the standard deviation)",    \
      .type = VQX_OPT_DOUBLE, .offset = offsetof(State, kernelscale), .def.d = 1.0,        \
      .values = vqx_vif_kernelscales, .n_values = VQX_VIF_N_KERNELSCALES,                  \
      .tolerance = VQX_VIF_KERNELSCALE_TOLERANCE,                                          \
      .flags = VQX_OPT_NAMES_KEY | VQX_OPT_VALUES_FLOAT },                                 \
    { .name = "speed_prescale", .alias = "ps",                                             \
      .help = "resize each plane by this factor first (2: twice as large)",               \
      .type = VQX_OPT_DOUBLE, .offset = offsetof(State, prescale), .def.d = 1.0,           \
      .min = 0.1, .max = 4.0, .flags = VQX_OPT_NAMES_KEY },                                \
    { .name = "speed_prescale_method", .alias = "psm",                                     \
      .help = "resampling of speed_prescale",                                              \
      .type = VQX_OPT_STRING, .offset = offsetof(State, prescale_method),                  \
      .def.s = "nearest", .choices = vqx_resample_names, .flags = VQX_OPT_NAMES_KEY }, \
    { .name = "speed_sigma_nn", .alias = "snn",                                            \
      .help = "standard deviation of the neural noise",                                    \
      .type = VQX_OPT_DOUBLE, .offset = offsetof(State, sigma_nn),                         \
      .def.d = DEFAULT_SIGMA_NN, .min = 0.1, .max = 2.0, .flags = VQX_OPT_NAMES_KEY },     \
    { .name = "speed_nn_floor", .alias = "nnf",                                            \
      .help = "neural noise floor, as a fraction of speed_sigma_nn",                       \
      .type = VQX_OPT_DOUBLE, .offset = offsetof(State, nn_floor), .def.d = 0.0,           \
      .min = 0.0, .max = 1.0, .flags = VQX_OPT_NAMES_KEY },                                \
    { .name = "speed_max_val", .alias = "mxv",                                             \
      .help = "clip scores above this value",                                              \
      .type = VQX_OPT_DOUBLE, .offset = offsetof(State, max_val),                          \
      .def.d = DEFAULT_MAX_VAL, .min = 0.0, .max = 1000.0, .flags = VQX_OPT_NAMES_KEY }

static int engine_init(SpeedEngine *e, unsigned w, unsigned h, const SpeedParams *params,
                       const char *feature, const char *plane, VqxSink *sink)
{
    char err[256];
    int ret = vqx_speed_plan_init(&e->plan, w, h, params, err, sizeof(err));
    if (ret) return vqx_fail(sink, ret, "%s: %s %s", feature, plane, err);
    ret = vqx_speed_stats_init(&e->ref, &e->plan);
    if (!ret) ret = vqx_speed_stats_init(&e->dis, &e->plan);
    return ret;
}

static void engine_free(SpeedEngine *e)
{
    vqx_speed_stats_free(&e->ref);
    vqx_speed_stats_free(&e->dis);
    vqx_speed_work_free(&e->work);
    vqx_speed_plan_free(&e->plan);
}

static float *alloc_image(unsigned w, unsigned h, ptrdiff_t *stride)
{
    *stride = (ptrdiff_t)vqx_float_stride(w);
    return malloc(sizeof(float) * *stride * h);
}

/* -- speed_chroma -- */

enum { KEY_CHROMA_U, KEY_CHROMA_V, KEY_CHROMA_UV };

const char *const vqx_speed_chroma_keys[] = {
    "Speed_chroma_feature_speed_chroma_u_score",
    "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score",
    NULL
};

const VqxOption vqx_speed_chroma_options[] = {
    SPEED_COMMON_OPTIONS(SpeedChromaState),
    { .name = "speed_weight_var_mode", .alias = "wvm",
      .help = "variance weighting: 0 own, 1 reference, 2 distorted, 3 mean, 4 own/mean, "
              "5 own/0.75 ref + 0.25 dis, 6 own/0.25 ref + 0.75 dis",
      .type = VQX_OPT_INT, .offset = offsetof(SpeedChromaState, weight_var_mode), .def.i = 0,
      .min = 0, .max = 6, .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

int vqx_speed_chroma_setup(SpeedChromaState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->layout == VQX_PIX_400)
        return vqx_fail(sink, -EINVAL, "speed_chroma: needs chroma planes, input is 4:0:0");
    /* the real, ceil-sized chroma planes (libvmaf truncates them) */
    s->w = vqx_plane_w(fmt, 1);
    s->h = vqx_plane_h(fmt, 1);
    const SpeedParams params = {
        .kernelscale = s->kernelscale,
        .prescale = s->prescale,
        .scaler = vqx_resample_method(s->prescale_method),
        .sigma_nn = s->sigma_nn,
        .nn_floor = s->nn_floor,
        .weight_var_mode = s->weight_var_mode,
        .cpu_flags = fmt->cpu_flags,
    };
    return engine_init(&s->engine, s->w, s->h, &params, "speed_chroma", "chroma plane", sink);
}

static int chroma_init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    SpeedChromaState *s = priv;
    int ret = vqx_speed_chroma_setup(s, fmt, sink);
    if (!ret) ret = vqx_speed_work_init(&s->engine.work, &s->engine.plan);
    if (ret) return ret;
    s->plane = alloc_image(s->w, s->h, &s->plane_stride);
    return s->plane ? 0 : -ENOMEM;
}

/* The plan's row runs of plane `plane` of pic as floats minus 128; the
 * other rows of dst are not read. */
static void load_rows(const SpeedPlan *plan, float *dst, ptrdiff_t stride, const VqxPicture *pic,
                      unsigned plane)
{
    for (unsigned r = 0; r < plan->n_row_runs; r++) {
        const SpeedSpan run = plan->row_runs[r];
        vqx_float_rows(&plan->picture, dst + (ptrdiff_t)run.first * stride, stride, pic, plane,
                       run.first, run.count, -128.0f);
    }
}

/* SpEED of one chroma plane; true when a covariance was singular. */
static bool chroma_plane_score(SpeedChromaState *s, const VqxPicture *ref,
                               const VqxPicture *dis, unsigned plane, float *score)
{
    SpeedEngine *e = &s->engine;
    load_rows(&e->plan, s->plane, s->plane_stride, ref, plane);
    vqx_speed_analyse(&e->plan, &e->work, s->plane, s->plane_stride, &e->ref);
    load_rows(&e->plan, s->plane, s->plane_stride, dis, plane);
    vqx_speed_analyse(&e->plan, &e->work, s->plane, s->plane_stride, &e->dis);
    *score = vqx_speed_score(&e->plan, &e->ref, &e->dis);
    return e->ref.singular || e->dis.singular;
}

static int chroma_extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                          unsigned frame, VqxSink *sink)
{
    SpeedChromaState *s = priv;
    float u, v;
    const bool singular_u = chroma_plane_score(s, ref, dis, 1, &u);
    const bool singular_v = chroma_plane_score(s, ref, dis, 2, &v);
    return vqx_speed_chroma_emit(s, u, v, singular_u, singular_v, frame, sink);
}

int vqx_speed_chroma_emit(const SpeedChromaState *s, float u, float v, bool singular_u,
                          bool singular_v, unsigned frame, VqxSink *sink)
{
    /* A plane with a singular covariance (a flat plane) takes the other
     * plane's score in the combined one. */
    float uv;
    if (singular_u && !singular_v) uv = v;
    else if (singular_v && !singular_u) uv = u;
    else uv = (u + v) / 2.0;

    int err = vqx_emit(sink, KEY_CHROMA_U, frame, u < s->max_val ? u : s->max_val);
    err |= vqx_emit(sink, KEY_CHROMA_V, frame, v < s->max_val ? v : s->max_val);
    err |= vqx_emit(sink, KEY_CHROMA_UV, frame, uv < s->max_val ? uv : s->max_val);
    return err;
}

void vqx_speed_chroma_close(void *priv)
{
    SpeedChromaState *s = priv;
    engine_free(&s->engine);
    free(s->plane);
    s->plane = NULL;
}

const VqxFeatureExtractor vqx_fex_speed_chroma = {
    .name = "speed_chroma",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_speed_chroma_keys,
    .options = vqx_speed_chroma_options,
    .state_size = sizeof(SpeedChromaState),
    .init = chroma_init,
    .extract = chroma_extract,
    .close = vqx_speed_chroma_close,
};

/* -- speed_temporal -- */

const char *const vqx_speed_temporal_keys[] = {
    "Speed_temporal_feature_speed_temporal_score",
    NULL
};

const VqxOption vqx_speed_temporal_options[] = {
    SPEED_COMMON_OPTIONS(SpeedTemporalState),
    { .name = "speed_use_ref_diff", .alias = "urd",
      .help = "take the distorted difference against the current reference frame",
      .type = VQX_OPT_BOOL, .offset = offsetof(SpeedTemporalState, use_ref_diff),
      .def.b = false, .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

int vqx_speed_temporal_setup(SpeedTemporalState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    /* libvmaf sets no weight mode for speed_temporal: 0 */
    const SpeedParams params = {
        .kernelscale = s->kernelscale,
        .prescale = s->prescale,
        .scaler = vqx_resample_method(s->prescale_method),
        .sigma_nn = s->sigma_nn,
        .nn_floor = s->nn_floor,
        .weight_var_mode = 0,
        .cpu_flags = fmt->cpu_flags,
    };
    s->have_prev = false;
    return engine_init(&s->engine, fmt->w, fmt->h, &params, "speed_temporal", "luma plane", sink);
}

static int temporal_init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    SpeedTemporalState *s = priv;
    int ret = vqx_speed_temporal_setup(s, fmt, sink);
    if (!ret) ret = vqx_speed_work_init(&s->engine.work, &s->engine.plan);
    if (ret) return ret;
    float **images[] = { &s->prev_ref, &s->prev_dis, &s->cur_ref, &s->cur_dis, &s->diff };
    for (size_t i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
        *images[i] = alloc_image(fmt->w, fmt->h, &s->stride);
        if (!*images[i]) return -ENOMEM;
    }
    return 0;
}

/* out = a - b on the plan's row runs (the rows the analysis reads). */
static void difference_rows(const SpeedPlan *plan, float *out, const float *a, const float *b,
                            ptrdiff_t stride)
{
    for (unsigned r = 0; r < plan->n_row_runs; r++) {
        const ptrdiff_t at = (ptrdiff_t)plan->row_runs[r].first * stride;
        plan->dsp.difference(out + at, a + at, b + at, stride, plan->geo.in_w,
                             plan->row_runs[r].count);
    }
}

static int temporal_extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                            unsigned frame, VqxSink *sink)
{
    SpeedTemporalState *s = priv;
    SpeedEngine *e = &s->engine;
    load_rows(&e->plan, s->cur_ref, s->stride, ref, 0);
    load_rows(&e->plan, s->cur_dis, s->stride, dis, 0);

    float score = 0.0f;
    if (s->have_prev) {
        difference_rows(&e->plan, s->diff, s->prev_ref, s->cur_ref, s->stride);
        vqx_speed_analyse(&e->plan, &e->work, s->diff, s->stride, &e->ref);
        difference_rows(&e->plan, s->diff, s->prev_dis, s->use_ref_diff ? s->cur_ref : s->cur_dis,
                        s->stride);
        vqx_speed_analyse(&e->plan, &e->work, s->diff, s->stride, &e->dis);
        score = vqx_speed_score(&e->plan, &e->ref, &e->dis);
    }
    float *t = s->prev_ref;
    s->prev_ref = s->cur_ref;
    s->cur_ref = t;
    t = s->prev_dis;
    s->prev_dis = s->cur_dis;
    s->cur_dis = t;
    s->have_prev = true;
    /* not clipped to speed_max_val, as in libvmaf */
    return vqx_emit(sink, 0, frame, score);
}

void vqx_speed_temporal_close(void *priv)
{
    SpeedTemporalState *s = priv;
    engine_free(&s->engine);
    free(s->prev_ref);
    free(s->prev_dis);
    free(s->cur_ref);
    free(s->cur_dis);
    free(s->diff);
    s->prev_ref = s->prev_dis = s->cur_ref = s->cur_dis = s->diff = NULL;
}

const VqxFeatureExtractor vqx_fex_speed_temporal = {
    .name = "speed_temporal",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_TEMPORAL | VQX_FEX_LUMA_ONLY,
    .keys = vqx_speed_temporal_keys,
    /* the score of n is SpEED of the differences of frames n - 1 and n */
    .frames_before = 1,
    .options = vqx_speed_temporal_options,
    .state_size = sizeof(SpeedTemporalState),
    .init = temporal_init,
    .extract = temporal_extract,
    .close = vqx_speed_temporal_close,
};
