/* Per-frame values of every output key, and the aggregate values. */
#ifndef VQX_COLLECTOR_H
#define VQX_COLLECTOR_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "vqx/vqx.h"

/* Where a one-thread libvmaf run writes a value: in its call for frame
 * `call` (or its flush, or the model scores after it), by writer `writer`
 * (VQX_WRITER_CALLER: a score the caller imports before that frame; then
 * the extractors in request order), as the `seq`-th value of that call.
 * Keys are listed in the order of their earliest write, as libvmaf's
 * collector lists them. */
typedef struct VqxWriteStamp {
    unsigned call, writer, seq;
} VqxWriteStamp;
#define VQX_CALL_FLUSH (UINT_MAX - 1)
#define VQX_CALL_MODELS UINT_MAX
#define VQX_WRITER_CALLER 0u

typedef struct VqxKeySeries {
    char *name;
    double *value;
    uint8_t *written;
    unsigned capacity;
    VqxWriteStamp first; /* the earliest write; all UINT_MAX before any */
} VqxKeySeries;

typedef struct VqxCollector {
    pthread_mutex_t lock;
    VqxKeySeries *keys;
    unsigned n_keys, cap_keys;
    /* ids by their first write, then the keys not written yet by id: the
     * order of the output files and of vqx_key_name, whatever the number
     * of threads and whichever finishes first */
    unsigned *order;
    struct { char *name; double value; } *aggregate;
    unsigned n_aggregate;
    unsigned n_frames; /* 1 + the highest frame any key was written for */
} VqxCollector;

int vqx_collector_init(VqxCollector *c);
void vqx_collector_free(VqxCollector *c);
/* Id of the key `name`, registering it when new. */
int vqx_collector_key(VqxCollector *c, const char *name, unsigned *id);
int vqx_collector_find(const VqxCollector *c, const char *name);
/* Forget the keys from `n_keys` on (a request that failed half-way). */
void vqx_collector_truncate(VqxCollector *c, unsigned n_keys);
/* Every output format carries a key as it is (an XML attribute name, a CSV
 * header, a JSON string without escapes, a SUB label) when it is a letter or
 * '_' followed by letters, digits, '_', '.' or '-'. Returns the first
 * character outside that rule, NULL when the name follows it. */
const char *vqx_key_name_fault(const char *name);
/* Names the output files use for the frame number (XML and JSON frameNum,
 * CSV's Frame column, SUB's frame label). */
bool vqx_key_name_reserved(const char *name);
#define VQX_KEY_NAME_RULE "a letter or '_', then letters, digits, '_', '.' or '-'"
/* -EEXIST when the frame's value is already written, with another value. */
int vqx_collector_put(VqxCollector *c, unsigned id, unsigned frame, double value,
                      VqxWriteStamp when);
/* Name of the key listed rank-th (see `order`), NULL past the end. */
const char *vqx_collector_listed_name(VqxCollector *c, unsigned rank);
/* false when not written (yet) */
bool vqx_collector_get(VqxCollector *c, unsigned id, unsigned frame, double *value);
int vqx_collector_set_aggregate(VqxCollector *c, const char *name, double value);
int vqx_collector_pool(const VqxCollector *c, unsigned id, enum VqxPool method,
                       unsigned first, unsigned last, unsigned subsample,
                       double *value);

#endif
