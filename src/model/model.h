/*
 * VMAF models: libvmaf's JSON model format (SVM and residue bootstrap),
 * the built-in models, and prediction from per-frame feature values.
 */
#ifndef VQX_MODEL_MODEL_H
#define VQX_MODEL_MODEL_H

#include <stddef.h>

typedef struct VqxModel VqxModel;

/* Load a model from a CLI/API spec, "version=NAME" or "path=FILE", with
 * optional ":name=OUT", ":disable_clip", ":enable_transform" and per-feature
 * option overrides ":EXTRACTOR.OPTION=VALUE" (e.g. "vif.vif_enhn_gain_limit=1.0";
 * OPTION is a name or an alias, and either replaces the model's own value of
 * that option; one option overridden twice is refused). On failure writes a
 * one-line reason (for an unknown version it lists the built-in names). */
int vqx_model_load(VqxModel **model, const char *spec, char *err, size_t err_len);
void vqx_model_free(VqxModel **model);

/* The features the model reads, in the order predict() takes them: an
 * internal key name as libvmaf's registry knows it (e.g.
 * "VMAF_integer_feature_adm2_score") and the options, "k=v:k=v" or "", of
 * the extractor instance that must compute it (overrides applied). */
unsigned vqx_model_input_count(const VqxModel *m);
const char *vqx_model_input_key(const VqxModel *m, unsigned i);
const char *vqx_model_input_options(const VqxModel *m, unsigned i);

/* The keys the model writes for each frame: its name first, then for a
 * bootstrap model the per-model scores, _bagging, _stddev, _ci_p95_lo and
 * _ci_p95_hi, named as libvmaf names them. */
unsigned vqx_model_output_count(const VqxModel *m);
const char *vqx_model_output_name(const VqxModel *m, unsigned i);

/* Scores of one frame from its feature values (same order as the inputs). */
int vqx_model_predict(const VqxModel *m, const double *inputs, double *outputs);

/* Built-in versions, for help texts; NULL past the end. */
const char *vqx_model_builtin_name(unsigned i);

#endif
