/* The staging copy of both backends (copier.h). */
#include "device/copier.h"

#include <string.h>
#include <unistd.h>

/* Frames below this size are copied by the sender alone. */
#define PARALLEL_COPY_BYTES ((size_t)1 << 20)

/* Share `part` of `parts` of the rows of every plane of both pictures. */
static void copy_share(const VqxDeviceInput *in, uint8_t *dst, const VqxPicture *ref,
                       const VqxPicture *dis, unsigned part, unsigned parts)
{
    for (unsigned which = 0; which < 2; which++) {
        const VqxPicture *pic = which ? dis : ref;
        for (unsigned p = 0; p < in->n_planes; p++) {
            const unsigned h = in->plane_h[p];
            const unsigned y0 = (unsigned)((uint64_t)h * part / parts);
            const unsigned y1 = (unsigned)((uint64_t)h * (part + 1) / parts);
            uint8_t *out = dst + in->plane_off[which][p];
            const size_t row = in->row_bytes[p], pitch = in->pitch[p];
            const uint8_t *from = pic->data[p];
            if (pic->stride[p] == (ptrdiff_t)row && pitch == row) {
                memcpy(out + y0 * row, from + y0 * row, row * (y1 - y0));
                continue;
            }
            for (unsigned y = y0; y < y1; y++)
                memcpy(out + y * pitch, from + (ptrdiff_t)y * pic->stride[p], row);
        }
    }
}

static void *helper_main(void *arg)
{
    const VqxCopierHelper *h = arg;
    VqxCopier *c = h->copier;
    unsigned seen = 0;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (c->generation == seen && !c->stop) pthread_cond_wait(&c->go, &c->lock);
        if (c->stop) break;
        seen = c->generation;
        const VqxPicture *ref = c->ref, *dis = c->dis;
        uint8_t *dst = c->dst;
        pthread_mutex_unlock(&c->lock);
        copy_share(c->in, dst, ref, dis, h->part, c->n_parts);
        pthread_mutex_lock(&c->lock);
        if (!--c->left) pthread_cond_signal(&c->done);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

void vqx_copier_copy(VqxCopier *c, uint8_t *dst, const VqxPicture *ref, const VqxPicture *dis)
{
    if (c->n_parts < 2) {
        copy_share(c->in, dst, ref, dis, 0, 1);
        return;
    }
    pthread_mutex_lock(&c->lock);
    c->ref = ref;
    c->dis = dis;
    c->dst = dst;
    c->left = c->n_parts - 1;
    c->generation++;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->lock);
    copy_share(c->in, dst, ref, dis, 0, c->n_parts);
    pthread_mutex_lock(&c->lock);
    while (c->left) pthread_cond_wait(&c->done, &c->lock);
    pthread_mutex_unlock(&c->lock);
}

void vqx_copier_start(VqxCopier *c, const VqxDeviceInput *in)
{
    memset(c, 0, sizeof(*c));
    c->in = in;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = cpus > 1 ? (unsigned)(cpus / 2) : 1;
    if (n > VQX_COPIER_MAX_THREADS) n = VQX_COPIER_MAX_THREADS;
    if (in->frame_bytes < PARALLEL_COPY_BYTES) n = 1;
    if (n < 2 || pthread_mutex_init(&c->lock, NULL)) return;
    pthread_cond_init(&c->go, NULL);
    pthread_cond_init(&c->done, NULL);
    c->ready = true;
    c->n_parts = 1;
    for (unsigned t = 1; t < n; t++) {
        c->helper[t] = (VqxCopierHelper){ c, t };
        if (pthread_create(&c->thread[t], NULL, helper_main, &c->helper[t])) break;
        c->n_parts++;
    }
}

void vqx_copier_stop(VqxCopier *c)
{
    if (!c->ready) return;
    pthread_mutex_lock(&c->lock);
    c->stop = true;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->lock);
    for (unsigned t = 1; t < c->n_parts; t++) pthread_join(c->thread[t], NULL);
    pthread_cond_destroy(&c->go);
    pthread_cond_destroy(&c->done);
    pthread_mutex_destroy(&c->lock);
    c->ready = false;
}
