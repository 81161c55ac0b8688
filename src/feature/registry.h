#ifndef VQX_FEATURE_REGISTRY_H
#define VQX_FEATURE_REGISTRY_H

#include "feature/extractor.h"

/* The name vqx registers the extractor `name` under: the CPU twin's of
 * libvmaf's CUDA names (vif_cuda: vif), else `name` itself. */
const char *vqx_registry_canonical_name(const char *name);
/* The extractor registered under `name` for `backend`, NULL when none. */
const VqxFeatureExtractor *vqx_registry_find(const char *name, enum VqxBackend backend);
/* The extractor that provides the internal key `key` (e.g.
 * "VMAF_integer_feature_adm2_score"), NULL when none. */
const VqxFeatureExtractor *vqx_registry_find_by_key(const char *key, enum VqxBackend backend);
/* i-th registered extractor of any backend, NULL past the end. */
const VqxFeatureExtractor *vqx_registry_at(unsigned i);
/* Comma-separated names of the extractors of `backend`, for messages. */
void vqx_registry_names(enum VqxBackend backend, char *buf, size_t len);

#endif
