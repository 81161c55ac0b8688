/* Per-frame values of every output key, and the aggregate values. */
#ifndef VQX_COLLECTOR_H
#define VQX_COLLECTOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "vqx/vqx.h"

typedef struct VqxKeySeries {
    char *name;
    double *value;
    uint8_t *written;
    unsigned capacity;
} VqxKeySeries;

typedef struct VqxCollector {
    pthread_mutex_t lock;
    VqxKeySeries *keys;
    unsigned n_keys, cap_keys;
    struct { char *name; double value; } *aggregate;
    unsigned n_aggregate;
    unsigned n_frames; /* 1 + the highest frame any key was written for */
} VqxCollector;

int vqx_collector_init(VqxCollector *c);
void vqx_collector_free(VqxCollector *c);
/* Id of the key `name`, registering it when new. */
int vqx_collector_key(VqxCollector *c, const char *name, unsigned *id);
int vqx_collector_find(const VqxCollector *c, const char *name);
/* -EEXIST when the frame's value is already written, with another value. */
int vqx_collector_put(VqxCollector *c, unsigned id, unsigned frame, double value);
/* false when not written (yet) */
bool vqx_collector_get(VqxCollector *c, unsigned id, unsigned frame, double *value);
int vqx_collector_set_aggregate(VqxCollector *c, const char *name, double value);
int vqx_collector_pool(const VqxCollector *c, unsigned id, enum VqxPool method,
                       unsigned first, unsigned last, unsigned subsample,
                       double *value);

#endif
