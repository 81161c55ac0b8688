/* libvmaf's feature dictionaries: key/value pairs that become the options
 * string of vqx_use_feature and of model overloads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libvmaf/shim.h"

VMAF_EXPORT int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                            const char *val)
{
    if (!dict || !key || !val || !*key) return -EINVAL;
    /* the separators of the options string cannot be part of either */
    if (strpbrk(key, "=:") || strchr(val, ':')) return -EINVAL;
    VmafFeatureDictionary *d = *dict;
    if (!d) {
        d = calloc(1, sizeof(*d));
        if (!d) return -ENOMEM;
        *dict = d;
    }
    char *v = strdup(val);
    if (!v) return -ENOMEM;
    for (unsigned i = 0; i < d->n; i++) {
        if (!strcmp(d->entry[i].key, key)) {
            free(d->entry[i].val);
            d->entry[i].val = v;
            return 0;
        }
    }
    if (d->n == d->cap) {
        const unsigned cap = d->cap ? 2 * d->cap : 8;
        void *e = realloc(d->entry, cap * sizeof(*d->entry));
        if (!e) {
            free(v);
            return -ENOMEM;
        }
        d->entry = e;
        d->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return -ENOMEM;
    }
    d->entry[d->n].key = k;
    d->entry[d->n++].val = v;
    return 0;
}

VMAF_EXPORT int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict)
{
    if (!dict) return -EINVAL;
    VmafFeatureDictionary *d = *dict;
    if (!d) return 0;
    for (unsigned i = 0; i < d->n; i++) {
        free(d->entry[i].key);
        free(d->entry[i].val);
    }
    free(d->entry);
    free(d);
    *dict = NULL;
    return 0;
}

int vmaf_shim_dictionary_options(const VmafFeatureDictionary *dict, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; dict && i < dict->n; i++) {
        const int w = snprintf(buf + n, len - n, "%s%s=%s", i ? ":" : "", dict->entry[i].key,
                               dict->entry[i].val);
        if (w < 0 || (size_t)w >= len - n) return -ENOSPC;
        n += (size_t)w;
    }
    return 0;
}
