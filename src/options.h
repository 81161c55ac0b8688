#ifndef VQX_OPTIONS_H
#define VQX_OPTIONS_H

#include <stddef.h>

#include "feature/extractor.h"

/* Set every option of `fex` in `state` to its default, then apply the
 * "key=value:key=value" list `kv` (modified in place and referenced by string
 * options: keep it alive as long as the state). Keys are option names or
 * aliases; an option given twice (also as name and alias) is refused.
 * Numbers are plain decimal with an optional sign (no spaces, hexadecimal,
 * inf or nan; INT: digits only, no leading zeros); a DOUBLE -0 is 0. On
 * failure writes a one-line reason naming the extractor, the option, the
 * text and the accepted values or range: -ERANGE for a number that does not
 * parse or is out of range, -EINVAL otherwise. */
int vqx_options_apply(const VqxFeatureExtractor *fex, void *state, char *kv,
                      char *err, size_t err_len);

/* The option `key` names (its name or alias), NULL when none. */
const VqxOption *vqx_options_find(const VqxFeatureExtractor *fex, const char *key);

/* libvmaf's key suffix: "_alias_value" for every non-default option that
 * names keys, sorted by option name ("" when all are default). */
void vqx_options_key_suffix(const VqxFeatureExtractor *fex, const void *state,
                            char *buf, size_t len);

/* Every non-default option, canonical form: two requests with the same
 * identity are the same extractor instance. */
void vqx_options_identity(const VqxFeatureExtractor *fex, const void *state,
                          char *buf, size_t len);

/* The output name of an internal key (libvmaf's alias table). */
const char *vqx_key_alias(const char *internal_name);

#endif
