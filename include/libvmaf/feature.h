/* libvmaf 3.2's feature option dictionaries (libvmaf/feature.h), as vqx
 * implements them. */
#ifndef VQX_LIBVMAF_FEATURE_H
#define VQX_LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Sets key to val, creating the dictionary when *dict is NULL; a key set
 * again takes the new value. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif
