#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"

int vqx_collector_init(VqxCollector *c)
{
    memset(c, 0, sizeof(*c));
    return -pthread_mutex_init(&c->lock, NULL);
}

void vqx_collector_free(VqxCollector *c)
{
    for (unsigned i = 0; i < c->n_keys; i++) {
        free(c->keys[i].name);
        free(c->keys[i].value);
        free(c->keys[i].written);
    }
    free(c->keys);
    free(c->order);
    for (unsigned i = 0; i < c->n_aggregate; i++)
        free(c->aggregate[i].name);
    free(c->aggregate);
    pthread_mutex_destroy(&c->lock);
    memset(c, 0, sizeof(*c));
}

int vqx_collector_find(const VqxCollector *c, const char *name)
{
    for (unsigned i = 0; i < c->n_keys; i++)
        if (!strcmp(c->keys[i].name, name))
            return (int)i;
    return -ENOENT;
}

void vqx_collector_truncate(VqxCollector *c, unsigned n_keys)
{
    pthread_mutex_lock(&c->lock);
    unsigned listed = 0;
    for (unsigned r = 0; r < c->n_keys; r++)
        if (c->order[r] < n_keys) c->order[listed++] = c->order[r];
    while (c->n_keys > n_keys) {
        VqxKeySeries *k = &c->keys[--c->n_keys];
        free(k->name);
        free(k->value);
        free(k->written);
    }
    pthread_mutex_unlock(&c->lock);
}

static bool ascii_letter(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

const char *vqx_key_name_fault(const char *name)
{
    if (!ascii_letter(name[0]) && name[0] != '_') return name;
    for (const char *ch = name + 1; *ch; ch++)
        if (!ascii_letter(*ch) && !(*ch >= '0' && *ch <= '9') && !strchr("_.-", *ch))
            return ch;
    return NULL;
}

bool vqx_key_name_reserved(const char *name)
{
    return !strcmp(name, "frameNum") || !strcmp(name, "Frame") || !strcmp(name, "frame");
}

int vqx_collector_key(VqxCollector *c, const char *name, unsigned *id)
{
    pthread_mutex_lock(&c->lock);
    int ret = vqx_collector_find(c, name);
    if (ret >= 0) {
        *id = (unsigned)ret;
        ret = 0;
        goto out;
    }
    if (c->n_keys == c->cap_keys) {
        const unsigned cap = c->cap_keys ? 2 * c->cap_keys : 32;
        VqxKeySeries *k = realloc(c->keys, cap * sizeof(*k));
        if (k) c->keys = k;
        unsigned *order = realloc(c->order, cap * sizeof(*order));
        if (order) c->order = order;
        if (!k || !order) { ret = -ENOMEM; goto out; }
        c->cap_keys = cap;
    }
    VqxKeySeries *k = &c->keys[c->n_keys];
    memset(k, 0, sizeof(*k));
    k->first = (VqxWriteStamp){ UINT_MAX, UINT_MAX, UINT_MAX };
    if (!(k->name = strdup(name))) { ret = -ENOMEM; goto out; }
    /* not written yet: listed after every written key */
    c->order[c->n_keys] = c->n_keys;
    *id = c->n_keys++;
    ret = 0;
out:
    pthread_mutex_unlock(&c->lock);
    return ret;
}

/* Values of this many frames are held from the first one on, so that the
 * frames of a stream allocate nothing (then one allocation per key at 2x,
 * 4x, ...). */
#define FIRST_CAPACITY 1024

static int grow(VqxKeySeries *k, unsigned frame)
{
    if (frame < k->capacity) return 0;
    unsigned cap = k->capacity ? k->capacity : FIRST_CAPACITY;
    while (cap <= frame) cap *= 2;
    double *v = realloc(k->value, cap * sizeof(*v));
    if (!v) return -ENOMEM;
    k->value = v;
    uint8_t *w = realloc(k->written, cap);
    if (!w) return -ENOMEM;
    memset(w + k->capacity, 0, cap - k->capacity);
    k->written = w;
    k->capacity = cap;
    return 0;
}

static int stamp_cmp(VqxWriteStamp a, VqxWriteStamp b)
{
    if (a.call != b.call) return a.call < b.call ? -1 : 1;
    if (a.writer != b.writer) return a.writer < b.writer ? -1 : 1;
    return a.seq < b.seq ? -1 : a.seq > b.seq;
}

/* Key `a` is listed before key `b`. */
static bool listed_before(const VqxCollector *c, unsigned a, unsigned b)
{
    const int cmp = stamp_cmp(c->keys[a].first, c->keys[b].first);
    return cmp < 0 || (cmp == 0 && a < b);
}

/* Key `id` has an earlier first write: move it up to its rank. Only a
 * key's first writes do, so this is rare after the first frames. */
static void relist(VqxCollector *c, unsigned id)
{
    unsigned r = 0;
    while (c->order[r] != id) r++;
    for (; r > 0 && listed_before(c, id, c->order[r - 1]); r--)
        c->order[r] = c->order[r - 1];
    c->order[r] = id;
}

int vqx_collector_put(VqxCollector *c, unsigned id, unsigned frame, double value,
                      VqxWriteStamp when)
{
    pthread_mutex_lock(&c->lock);
    VqxKeySeries *k = &c->keys[id];
    int ret = grow(k, frame);
    /* a second writer of the same value (e.g. adm=debug=true beside a
     * model's adm) changes nothing; of another value, it fails */
    if (!ret && k->written[frame])
        ret = memcmp(&k->value[frame], &value, sizeof(value)) ? -EEXIST : 0;
    else if (!ret) {
        k->value[frame] = value;
        k->written[frame] = 1;
        if (frame >= c->n_frames) c->n_frames = frame + 1;
    }
    if (!ret && stamp_cmp(when, k->first) < 0) {
        k->first = when;
        relist(c, id);
    }
    pthread_mutex_unlock(&c->lock);
    return ret;
}

const char *vqx_collector_listed_name(VqxCollector *c, unsigned rank)
{
    pthread_mutex_lock(&c->lock);
    const char *name = rank < c->n_keys ? c->keys[c->order[rank]].name : NULL;
    pthread_mutex_unlock(&c->lock);
    return name;
}

bool vqx_collector_get(VqxCollector *c, unsigned id, unsigned frame, double *value)
{
    pthread_mutex_lock(&c->lock);
    const VqxKeySeries *k = &c->keys[id];
    const bool ok = frame < k->capacity && k->written[frame];
    if (ok) *value = k->value[frame];
    pthread_mutex_unlock(&c->lock);
    return ok;
}

int vqx_collector_set_aggregate(VqxCollector *c, const char *name, double value)
{
    pthread_mutex_lock(&c->lock);
    int ret = 0;
    unsigned i;
    for (i = 0; i < c->n_aggregate; i++)
        if (!strcmp(c->aggregate[i].name, name)) break;
    if (i == c->n_aggregate) {
        void *a = realloc(c->aggregate, (i + 1) * sizeof(*c->aggregate));
        char *n = strdup(name);
        if (a) c->aggregate = a;
        if (!a || !n) {
            free(n);
            ret = -ENOMEM;
            goto out;
        }
        c->aggregate[i].name = n;
        c->n_aggregate++;
    }
    c->aggregate[i].value = value;
out:
    pthread_mutex_unlock(&c->lock);
    return ret;
}

/* libvmaf's pooling: the harmonic mean is n / sum(1 / (x + 1)) - 1 and every
 * frame in range (after subsampling) must have a value. */
int vqx_collector_pool(const VqxCollector *c, unsigned id, enum VqxPool method,
                       unsigned first, unsigned last, unsigned subsample,
                       double *value)
{
    if (id >= c->n_keys || first > last) return -EINVAL;
    const VqxKeySeries *k = &c->keys[id];
    unsigned n = 0;
    double min = 0., max = 0., sum = 0., inv_sum = 0.;
    for (unsigned i = first; i <= last; i++) {
        if (subsample > 1 && i % subsample) continue;
        if (i >= k->capacity || !k->written[i]) return -EAGAIN;
        const double s = k->value[i];
        sum += s;
        inv_sum += 1. / (s + 1.);
        if (!n || s < min) min = s;
        if (!n || s > max) max = s;
        n++;
    }
    if (!n) return -EAGAIN;
    switch (method) {
    case VQX_POOL_MIN:           *value = min; break;
    case VQX_POOL_MAX:           *value = max; break;
    case VQX_POOL_MEAN:          *value = sum / n; break;
    case VQX_POOL_HARMONIC_MEAN: *value = n / inv_sum - 1.0; break;
    default: return -EINVAL;
    }
    return 0;
}
