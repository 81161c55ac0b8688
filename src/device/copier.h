/*
 * The frame's copy into a backend's staging memory, the planes of both
 * pictures laid out as a VqxDeviceInput, split over helper threads when the
 * frame is large: one thread's memcpy (about 9 GB/s on the H200 host) would
 * cap 4K VMAF near 600 frames per second. Used by both backends.
 */
#ifndef VQX_DEVICE_COPIER_H
#define VQX_DEVICE_COPIER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/device.h"

#define VQX_COPIER_MAX_THREADS 8

typedef struct VqxCopier VqxCopier;

typedef struct VqxCopierHelper {
    VqxCopier *copier;
    unsigned part;
} VqxCopierHelper;

struct VqxCopier {
    const VqxDeviceInput *in;
    /* thread t copies the t-th share of the rows of every plane; the
     * sender takes share 0 */
    pthread_t thread[VQX_COPIER_MAX_THREADS];
    VqxCopierHelper helper[VQX_COPIER_MAX_THREADS];
    unsigned n_parts;            /* sender included; below 2: the sender alone */
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    const VqxPicture *ref, *dis; /* the job */
    uint8_t *dst;
    unsigned generation, left;
    bool stop, ready;
};

/* Starts the helpers for frames of layout `in` (kept by pointer): half the
 * online CPUs, at most VQX_COPIER_MAX_THREADS, none for small frames or
 * where threads cannot be made (the sender then copies alone). */
void vqx_copier_start(VqxCopier *c, const VqxDeviceInput *in);
/* Both pictures' planes into dst, rows at the layout's pitch. */
void vqx_copier_copy(VqxCopier *c, uint8_t *dst, const VqxPicture *ref, const VqxPicture *dis);
void vqx_copier_stop(VqxCopier *c);

#endif
