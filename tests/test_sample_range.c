/*
 * The library refuses samples above the bit depth's peak in every plane a
 * requested feature reads, for every feature: such a frame fails with
 * -ERANGE naming the plane and the position, the frames before and after it
 * are scored, and nothing reaches a metric's
 * integer paths (the sanitizer run would report their overflows). Samples at
 * the extremes (0 and the peak) are scored with finite values at 9, 10, 12
 * and 16 bits.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vqx/vqx.h"
#include "xorshift.h"

#define W 256
#define H 224

static char notices[4096];

static void keep_notice(void *cookie, const char *msg)
{
    (void)cookie;
    const size_t n = strlen(notices);
    snprintf(notices + n, sizeof(notices) - n, "%s\n", msg);
}

/* Extremes and noise: 0 and the peak in blocks placed by `pattern`, random
 * samples between, drawn from `noise` (the reference and the distorted
 * picture share the pattern, so that every metric stays finite). */
static void fill(VqxPicture *p, unsigned pattern, unsigned noise)
{
    const unsigned peak = (1u << p->bpc) - 1;
    rng = 0x9E3779B9u ^ noise;
    for (unsigned c = 0; c < vqx_picture_planes(p); c++) {
        for (unsigned y = 0; y < p->h[c]; y++) {
            uint8_t *row = (uint8_t *)p->data[c] + (ptrdiff_t)y * p->stride[c];
            for (unsigned x = 0; x < p->w[c]; x++) {
                const unsigned block = (x / 8 + y / 8 + pattern) % 3;
                const unsigned v = block == 0 ? 0 : block == 1 ? peak : rnd() % (peak + 1);
                if (p->bpc == 8) row[x] = (uint8_t)v;
                else ((uint16_t *)row)[x] = (uint16_t)v;
            }
        }
    }
}

static int send_pair(VqxContext *ctx, unsigned bpc, unsigned seed, int bad_plane, bool bad_in_ref)
{
    VqxPicture ref, dis;
    if (vqx_picture_alloc(&ref, VQX_PIX_420, bpc, W, H) ||
        vqx_picture_alloc(&dis, VQX_PIX_420, bpc, W, H))
        return -ENOMEM;
    fill(&ref, seed, 2 * seed);
    fill(&dis, seed, 2 * seed + 1);
    if (bad_plane >= 0) {
        VqxPicture *p = bad_in_ref ? &ref : &dis;
        uint16_t *row = (uint16_t *)((uint8_t *)p->data[bad_plane] + 5 * p->stride[bad_plane]);
        row[17] = (uint16_t)(1u << bpc);
    }
    const int ret = vqx_send_pictures(ctx, &ref, &dis);
    vqx_picture_free(&ref);
    vqx_picture_free(&dis);
    return ret;
}

static void check_feature(const char *name, unsigned bpc)
{
    VqxSettings s;
    vqx_default_settings(&s);
    s.notice = keep_notice;
    notices[0] = 0;
    VqxContext *ctx = NULL;
    CHECK(vqx_open(&ctx, &s) == 0, "open");
    CHECK(vqx_use_feature(ctx, name, NULL) == 0, "%s: %s", name, vqx_last_error(ctx));

    CHECK(send_pair(ctx, bpc, 1, -1, false) == 0, "%s %u-bit: frame 0: %s", name, bpc, vqx_last_error(ctx));
    unsigned sent = 1;
    /* a plane no feature reads is not checked */
    const unsigned used = vqx_planes_used(ctx);
    CHECK(used == 7 || used == 1, "%s: planes used %u", name, used);
    if (bpc < 16) {
        static const char *const planes[] = { "plane Y", "plane U", "plane V" };
        for (int plane = 0; plane < 3; plane++) {
            const bool in_ref = plane == 1;
            if (!(used >> plane & 1)) {
                CHECK(send_pair(ctx, bpc, 2, plane, in_ref) == 0, "%s %u-bit: unread plane %d refused",
                      name, bpc, plane);
                sent++;
                continue;
            }
            CHECK(send_pair(ctx, bpc, 2, plane, in_ref) == -ERANGE, "%s %u-bit: not refused", name, bpc);
            const char *msg = vqx_last_error(ctx);
            char want[128];
            snprintf(want, sizeof(want), "frame 1: %s picture, %s, sample (x 17, y 5) is %u, "
                     "above the %u-bit peak %u", in_ref ? "reference" : "distorted", planes[plane],
                     1u << bpc, bpc, (1u << bpc) - 1);
            CHECK(strstr(msg, want) != NULL, "%s %u-bit: message \"%s\"", name, bpc, msg);
        }
    }
    CHECK(send_pair(ctx, bpc, 3, -1, false) == 0, "%s %u-bit: frame 1: %s", name, bpc, vqx_last_error(ctx));
    sent++;
    /* every feature takes 256x224 4:2:0 at every depth */
    CHECK(vqx_flush(ctx) == 0, "%s %u-bit: flush: %s", name, bpc, vqx_last_error(ctx));
    CHECK(vqx_frame_count(ctx) == sent, "%s %u-bit: %u frames", name, bpc, vqx_frame_count(ctx));
    for (unsigned k = 0; k < vqx_key_count(ctx); k++) {
        for (unsigned f = 0; f < sent; f++) {
            double v;
            if (vqx_score_at(ctx, vqx_key_name(ctx, k), f, &v)) continue;
            CHECK(isfinite(v), "%s %u-bit: %s[%u] = %g", name, bpc, vqx_key_name(ctx, k), f, v);
        }
    }
    vqx_close(&ctx);
}

int main(void)
{
    static const unsigned depths[] = { 9, 10, 12, 16 };
    for (unsigned d = 0; d < sizeof(depths) / sizeof(depths[0]); d++)
        for (unsigned i = 0; vqx_feature_name(i); i++)
            check_feature(vqx_feature_name(i), depths[d]);
    return check_report();
}
