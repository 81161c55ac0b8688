/*
 * libvmaf's C API over vqx's (include/libvmaf/): the objects behind
 * libvmaf's opaque types, shared by the files of src/libvmaf/.
 */
#ifndef VQX_LIBVMAF_SHIM_H
#define VQX_LIBVMAF_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "libvmaf/libvmaf.h"
#include "vqx/vqx.h"

/* Exported from libvmaf.so.3 (the version script lists the same names). */
#if defined(__GNUC__)
#define VMAF_EXPORT __attribute__((visibility("default")))
#else
#define VMAF_EXPORT
#endif

/* Options as "key=value:key=value", in the order first set. */
struct VmafFeatureDictionary {
    struct { char *key, *val; } *entry;
    unsigned n, cap;
};

/* Writes the dictionary as vqx options into buf ("" for NULL); -ENOSPC
 * when it does not fit. */
int vmaf_shim_dictionary_options(const VmafFeatureDictionary *dict, char *buf, size_t len);

/* A model is the spec vqx_use_model takes: what the load call gave, then
 * ":EXTRACTOR.OPTION=VALUE" for each overload (a later one of the same
 * option replaces the earlier, as libvmaf merges them). */
struct VmafModel {
    char *base;                          /* "version=V:name=N..." or "path=P:..." */
    VmafFeatureDictionary *overloads;    /* "EXTRACTOR.OPTION" -> value */
    char *spec;
};

/* A bootstrap model's collection: the same spec as its main model (the
 * caller destroys the two separately, so each has its own). */
struct VmafModelCollection {
    VmafModel model;
};

/* The libvmaf context: its configuration until the vqx context opens, at
 * the first call that needs it (then every setting is known). */
struct VmafContext {
    VmafConfiguration cfg;
    void *cuda_context;            /* vmaf_cuda_import_state's CUcontext */
    bool cuda_imported;
    int cuda_prealloc;             /* a VmafCudaPicturePreallocationMethod */
    VqxContext *vqx;
    struct UsedModel { char *spec; unsigned index; } *models;
    unsigned n_models;
    VmafPictureConfiguration prealloc;
    unsigned n_read;
    int flushed;
    struct timespec first_read, flush_done;
};

/* Opens the vqx context if it is not open yet. */
int vmaf_shim_open(VmafContext *v);
/* A failure of the vqx context: its message at ERROR level, and the code. */
int vmaf_shim_failed(const VmafContext *v, int ret);
bool vmaf_shim_layout(enum VmafPixelFormat f, enum VqxPixelLayout *layout);

/* One line to stderr ("libvmaf ERROR ...", as libvmaf prints them) when
 * `level` is within the log level of the last vmaf_init (INFO before one):
 * like libvmaf's, the level is the process's. */
void vmaf_shim_set_log_level(enum VmafLogLevel level);
void vmaf_shim_log(enum VmafLogLevel level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The vqx picture a VmafPicture of this library stands for (its memory is
 * a vqx pool buffer: `priv` is the buffer, `ref` the pool's context). */
int vmaf_shim_picture_to_vqx(const VmafPicture *pic, VqxPicture *out);
/* A VmafPicture over a vqx pool picture (taken over). */
void vmaf_shim_picture_from_vqx(VmafPicture *pic, const VqxPicture *vp);

#endif
