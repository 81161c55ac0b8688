/*
 * The vectorised fast paths against their general counterparts: psnr's row
 * sums (32-bit squares, 8-bit rows summed in 32-bit chunks) against plain
 * 64-bit sums, on rows longer than a chunk and on extremes; adm's
 * decoupling of rows within +-32767 (32-bit integers and doubles) against
 * the general 64-bit path, which the same row takes once one coefficient
 * is out of that range: every other coefficient must come out the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "feature/adm_fixed.h"
#include "feature/psnr.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static uint64_t plain_sse(const void *a, const void *b, unsigned w, bool wide)
{
    uint64_t sum = 0;
    for (unsigned x = 0; x < w; x++) {
        const int64_t e = wide ? (int64_t)((const uint16_t *)a)[x] - ((const uint16_t *)b)[x]
                               : (int64_t)((const uint8_t *)a)[x] - ((const uint8_t *)b)[x];
        sum += (uint64_t)(e * e);
    }
    return sum;
}

static void test_psnr_rows(void)
{
    enum { W = 3 * 65536 + 77 };
    uint8_t *a8 = malloc(W), *b8 = malloc(W);
    uint16_t *a16 = malloc(W * sizeof(uint16_t)), *b16 = malloc(W * sizeof(uint16_t));
    for (int pattern = 0; pattern < 3; pattern++) {
        for (unsigned x = 0; x < W; x++) {
            const bool hi = pattern == 0 ? true : pattern == 1 ? (x & 1) : next() & 1;
            a8[x] = hi ? 255 : 0, b8[x] = hi ? 0 : 255;
            a16[x] = hi ? 65535 : 0, b16[x] = hi ? 0 : 65535;
            if (pattern == 2) a8[x] = (uint8_t)next(), a16[x] = (uint16_t)next();
        }
        static const unsigned widths[] = { 1, 7, 65535, 65536, 65537, W };
        for (unsigned k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
            const unsigned w = widths[k];
            CHECK(vqx_row_sse_8bpc(a8, b8, w) == plain_sse(a8, b8, w, false),
                  "8-bit row sum, pattern %d, width %u", pattern, w);
            CHECK(vqx_row_sse_16bpc(a16, b16, w) == plain_sse(a16, b16, w, true),
                  "16-bit row sum, pattern %d, width %u", pattern, w);
        }
    }
    free(a8), free(b8), free(a16), free(b16);
}

extern const VqxFeatureExtractor vqx_fex_adm;

/* coefficients within +-32767 that exercise every case of the decoupling:
 * zero, either sign, restored parts that clamp, angles that pass */
static void fill_narrow(AdmState *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t r = next();
        const int32_t o = r % 5 == 0 ? 0 : (int32_t)(next() % 65535) - 32767;
        const int32_t small = (int32_t)(next() % 2001) - 1000;
        for (int b = 0; b < 3; b++) {
            const int32_t ob = b == 0 ? o : (int32_t)(next() % 65535) - 32767;
            int32_t t;
            switch ((r >> 8) % 4) {
            case 0: t = ob * (int32_t)((i >> 3) % 5) / 2; break; /* same angle */
            case 1: t = ob + (int32_t)(next() % 7) - 3; break;
            case 2: t = small; break;
            default: t = (int32_t)(next() % 65535) - 32767; break;
            }
            t = t > 32767 ? 32767 : t < -32767 ? -32767 : t;
            s->ref_band[b][i] = ob;
            s->dis_band[b][i] = t;
        }
    }
}

static void test_adm_decouple(double gain_limit)
{
    const VqxFrameFormat fmt = { .layout = VQX_PIX_420, .bpc = 8, .w = 301, .h = 203 };
    AdmState s;
    memset(&s, 0, sizeof(s));
    s.csf_scale = s.csf_diag_scale = 1.0;
    s.dlm_weight = 0.5;
    s.gain_limit = gain_limit;
    s.view_dist = 3.0;
    s.display_height = 1080;
    s.noise_weight = 0.03125;
    CHECK(vqx_fex_adm.init(&s, &fmt, NULL) == 0, "adm init");
    const size_t plane = (size_t)s.stride * (size_t)((s.h + 1) / 2);
    int32_t *narrow[2][3];
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 3; b++) narrow[k][b] = malloc(plane * sizeof(int32_t));

    for (int scale = 0; scale < 2; scale++) {
        fill_narrow(&s, plane);
        vqx_adm_decouple(&s, scale);
        for (int b = 0; b < 3; b++) {
            memcpy(narrow[0][b], s.restored[b], plane * sizeof(int32_t));
            memcpy(narrow[1][b], s.additive[b], plane * sizeof(int32_t));
        }
        /* one coefficient per row out of range: the general path */
        const AdmRegion g = s.level[scale].grown;
        for (int i = g.top; i < g.bottom; i++) {
            const int j = g.left + (int)(next() % (unsigned)(g.right - g.left));
            s.ref_band[ADM_D][i * s.stride + j] = 40000;
        }
        vqx_adm_decouple(&s, scale);
        long same = 0, differ = 0;
        for (int i = g.top; i < g.bottom; i++)
            for (int j = g.left; j < g.right; j++) {
                const ptrdiff_t o = i * s.stride + j;
                for (int b = 0; b < 3; b++) {
                    if (b == ADM_D && s.ref_band[b][o] == 40000) continue;
                    const bool eq = s.restored[b][o] == narrow[0][b][o] &&
                                    s.additive[b][o] == narrow[1][b][o];
                    same += eq, differ += !eq;
                }
            }
        CHECK(differ == 0 && same > 0, "decoupling, level %d, gain limit %g: %ld of %ld differ",
              scale, gain_limit, differ, same + differ);
    }
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 3; b++) free(narrow[k][b]);
    free(s.mem);
}

int main(void)
{
    test_psnr_rows();
    test_adm_decouple(100.0);
    test_adm_decouple(1.0);
    test_adm_decouple(2.7);
    return check_report();
}
