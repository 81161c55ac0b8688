/*
 * libvmaf's "null": computes and writes nothing, so that `--feature null -n`
 * times the input path and the framework alone.
 */
#include <stddef.h>

#include "feature/extractor.h"

static const char *const keys[] = { NULL };

static int extract(void *state, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    (void)state;
    (void)ref;
    (void)dis;
    (void)frame;
    (void)sink;
    return 0;
}

const VqxFeatureExtractor vqx_fex_null = {
    .name = "null",
    .backend = VQX_BACKEND_CPU,
    .keys = keys,
    .extract = extract,
};
