/*
 * libvmaf 3.2's C API (libvmaf/libvmaf.h), as vqx implements it in its
 * libvmaf.so.3: the declarations, enums and struct layouts are libvmaf's,
 * so that a program built against libvmaf (FFmpeg's libvmaf filter, PyAV)
 * gets vqx's scores without being rebuilt. Where vqx behaves differently
 * it is said here and in docs/libvmaf.md.
 *
 * Ownership: dictionaries passed to vmaf_use_feature and the overload calls
 * are taken over; pictures passed to vmaf_read_pictures are taken over when
 * it succeeds (the caller's structs are cleared), and stay the caller's
 * when it fails.
 */
#ifndef VQX_LIBVMAF_LIBVMAF_H
#define VQX_LIBVMAF_LIBVMAF_H

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/model.h"
#include "libvmaf/picture.h"
#include "libvmaf/feature.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

/* log_level: messages at or above it go to stderr (NONE: none).
 * n_threads: 0 scores in the calling thread. n_subsample: every n-th frame.
 * cpumask: instruction sets not to use (1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2,
 * 16 AVX-512, 32 AVX-512 ICL); results are the same for every mask.
 * gpumask: non-zero keeps a context with a CUDA state on the CPU. */
typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;
    unsigned n_subsample;
    uint64_t cpumask;
    uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

/* Features, before the first picture. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);
int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                     VmafFeatureDictionary *opts_dict);
/* A value computed elsewhere, written as frame `index`'s value of the key. */
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                              double value, unsigned index);

/* One reference/distorted pair, frames numbered from 0 in the order they are
 * read (vqx refuses an index out of that order); ref = dist = NULL flushes,
 * after which nothing more is read. */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                       unsigned index);

/* Scores: a model's, a bootstrap collection's, or any key's, for one frame or
 * pooled over [index_low, index_high] (subsampled frames only). */
int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                        unsigned index);
int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                         VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score,
                                         unsigned index);
int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                double *score, unsigned index);
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                      enum VmafPoolingMethod pool_method, double *score,
                      unsigned index_low, unsigned index_high);
int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                       VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score,
                                       unsigned index_low, unsigned index_high);
int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score,
                              unsigned index_low, unsigned index_high);

typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

/* Pictures from the context's own pool (see vqx.h, "Ownership"): the
 * recycled memory of frames already scored. */
int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg);
int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

int vmaf_close(VmafContext *vmaf);

/* The file vqx's CLI writes for the same run. */
int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                      enum VmafOutputFormat fmt);

const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif
