/*
 * The model files built into the library (generated from the models/ JSON files by
 * tools/embed_models.py).
 */
#ifndef VQX_MODEL_BUILTIN_H
#define VQX_MODEL_BUILTIN_H

#include <stddef.h>

typedef struct VqxBuiltinModel {
    const char *version; /* file name without .json */
    const char *json;
    size_t len;
} VqxBuiltinModel;

extern const VqxBuiltinModel vqx_builtin_models[];
extern const unsigned vqx_builtin_model_count;

#endif
