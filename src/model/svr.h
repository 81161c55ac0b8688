/*
 * One VMAF regression model (a libvmaf "model_dict"): feature normalisation,
 * the SVM, de-normalisation, score transform and clipping, in the order and
 * double arithmetic of libvmaf's predict.c.
 */
#ifndef VQX_MODEL_SVR_H
#define VQX_MODEL_SVR_H

#include <stdbool.h>
#include <stddef.h>

#include "model/svm.h"

/* libvmaf's limits (read_json_model.c MAX_FEATURE_COUNT, MAX_KNOT_COUNT). */
#define VQX_SVR_MAX_FEATURES 64
#define VQX_SVR_MAX_KNOTS 10

typedef struct VqxFeatureOption {
    char *name;
    char *value; /* as libvmaf's dictionary holds it (numbers normalised) */
} VqxFeatureOption;

typedef struct VqxSvrFeature {
    char *name;  /* libvmaf's internal key, e.g. "VMAF_integer_feature_adm2_score" */
    VqxFeatureOption *options;
    unsigned n_options;
    double slope, intercept;
    unsigned input; /* where its value sits in the model's input vector */
} VqxSvrFeature;

typedef struct VqxScoreTransform {
    bool enabled;
    bool has_p[3];  /* polynomial p0 + p1 x + p2 x^2, absent terms skipped */
    double p[3];
    unsigned n_knots; /* piecewise-linear map; 0 when absent */
    double knot_x[VQX_SVR_MAX_KNOTS], knot_y[VQX_SVR_MAX_KNOTS];
    bool out_lte_in, out_gte_in;
} VqxScoreTransform;

enum VqxSvrType {
    VQX_SVR_SINGLE,             /* LIBSVMNUSVR */
    VQX_SVR_BOOTSTRAP,          /* BOOTSTRAP_LIBSVMNUSVR */
    VQX_SVR_RESIDUE_BOOTSTRAP,  /* RESIDUEBOOTSTRAP_LIBSVMNUSVR */
};

typedef struct VqxSvrModel {
    enum VqxSvrType type;
    bool linear_rescale; /* norm_type: linear_rescale, else none */
    double slope, intercept;
    VqxSvrFeature *features;
    unsigned n_features;
    bool clip;
    double clip_min, clip_max;
    VqxScoreTransform transform;
    /* v1.0 models: a speed_chroma value of exactly 0 is replaced by one
     * derived from adm3 (libvmaf's chroma_correction_parameter). */
    bool chroma_correction;
    double chroma_parameter;
    unsigned guiding; /* feature index of adm3 */
    unsigned guided;  /* feature index of speed_chroma */
    VqxSvm svm;
} VqxSvrModel;

/* The score for feature values inputs[features[i].input]; `raw` stops after
 * de-normalisation (no transform, no clip). */
double vqx_svr_predict(const VqxSvrModel *m, const double *inputs, bool raw);
/* The transform (when enabled) then the clip (when enabled). */
double vqx_svr_finish(const VqxSvrModel *m, double score);

/* Set (or replace) an extractor option of a feature. */
int vqx_svr_feature_set_option(VqxSvrFeature *f, const char *name, const char *value);
/* A numeric option value as libvmaf's dictionary stores it: parsed as float
 * (strtof), printed with %g. */
void vqx_format_option_number(const char *text, char *buf, size_t len);

void vqx_svr_free(VqxSvrModel *m);

#endif
