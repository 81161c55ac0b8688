/*
 * libvmaf's JSON model files: one "model_dict", or a bootstrap set whose
 * top-level keys "0", "1", ... each hold one.
 */
#ifndef VQX_MODEL_JSON_MODEL_H
#define VQX_MODEL_JSON_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/svr.h"

/* Load-time flags of a model spec (libvmaf's VmafModelFlags). */
enum VqxModelFlag {
    VQX_MODEL_DISABLE_CLIP = 1 << 0,
    VQX_MODEL_ENABLE_TRANSFORM = 1 << 1,
};

/* At most this many bootstrap models besides model "0". */
#define VQX_MAX_BOOTSTRAP_MODELS 256

typedef struct VqxModelSet {
    VqxSvrModel *models; /* [0]: the model; [1..]: bootstrap models "1", "2", ... */
    unsigned n_models;
    bool bootstrap;
} VqxModelSet;

/* Parse `len` bytes of JSON. `source` names the text in messages (a path or
 * a built-in version); syntax errors read "source:line:column: reason". */
int vqx_json_model_read(VqxModelSet *set, const char *source, const char *text,
                        size_t len, unsigned flags, char *err, size_t err_len);
void vqx_model_set_free(VqxModelSet *set);

#endif
