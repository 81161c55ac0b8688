/*
 * The vectorised fast paths against their general counterparts: psnr's row
 * sums (32-bit squares, 8-bit rows summed in 32-bit chunks) against plain
 * 64-bit sums, on rows longer than a chunk and on extremes; adm's
 * decoupling through the extractor's table on this CPU against the C, on
 * bands within +-32767 (where the SIMD entries take 32-bit paths) and on
 * the same bands with one coefficient per row out of that range (the
 * 64-bit path for its chunk, the 32-bit one for the others); adm's
 * row-by-row pass of extract() (rings of band rows) against its staged
 * functions on whole planes, level by level: the same integer sums.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "feature/adm_fixed.h"
#include "feature/psnr.h"
#include "options.h"

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

/* vqx_adm_decouple through the table of this CPU and through the C: every
 * restored and additive coefficient of the grown region the same. */
static void compare_decouple(AdmState *s, int scale, const char *what, double gain_limit)
{
    const size_t plane = (size_t)s->stride * (size_t)((s->h + 1) / 2);
    int32_t *simd[2][3];
    vqx_adm_dsp_init(&s->dsp, vqx_cpu_flags(0));
    vqx_adm_decouple(s, scale);
    for (int b = 0; b < 3; b++) {
        simd[0][b] = malloc(plane * sizeof(int32_t));
        simd[1][b] = malloc(plane * sizeof(int32_t));
        memcpy(simd[0][b], s->restored[b], plane * sizeof(int32_t));
        memcpy(simd[1][b], s->additive[b], plane * sizeof(int32_t));
    }
    vqx_adm_dsp_init(&s->dsp, 0);
    vqx_adm_decouple(s, scale);
    const AdmRegion g = s->level[scale].grown;
    long differ = 0, n = 0;
    for (int i = g.top; i < g.bottom; i++)
        for (int j = g.left; j < g.right; j++)
            for (int b = 0; b < 3; b++, n++) {
                const ptrdiff_t o = i * s->stride + j;
                differ += s->restored[b][o] != simd[0][b][o] || s->additive[b][o] != simd[1][b][o];
            }
    CHECK(differ == 0 && n > 0, "decoupling, level %d, %s, gain limit %g: %ld of %ld differ",
          scale, what, gain_limit, differ, n);
    for (int b = 0; b < 3; b++) free(simd[0][b]), free(simd[1][b]);
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
    for (int scale = 0; scale < 2; scale++) {
        fill_narrow(&s, plane);
        compare_decouple(&s, scale, "within +-32767", gain_limit);
        const AdmRegion g = s.level[scale].grown;
        for (int i = g.top; i < g.bottom; i++) {
            const int j = g.left + (int)(next() % (unsigned)(g.right - g.left));
            s.ref_band[ADM_D][i * s.stride + j] = 40000;
        }
        compare_decouple(&s, scale, "one coefficient per row beyond", gain_limit);
    }
    free(s.mem);
}

/* An edge, a gradient and noise, the distorted picture blurred and noisier. */
static void fill_picture(VqxPicture *p, bool distort)
{
    const unsigned peak = (1u << p->bpc) - 1;
    for (unsigned y = 0; y < p->h[0]; y++)
        for (unsigned x = 0; x < p->w[0]; x++) {
            unsigned v = (x * 5 + y * 3) % 200 + (x > y ? 50 : 0) + next() % (distort ? 40 : 8);
            v = (v << (p->bpc - 8)) + (p->bpc > 8 ? next() % (1u << (p->bpc - 8)) : 0);
            v = v > peak ? peak : v;
            if (p->bpc == 8) ((uint8_t *)p->data[0] + y * p->stride[0])[x] = (uint8_t)v;
            else ((uint16_t *)((uint8_t *)p->data[0] + y * p->stride[0]))[x] = (uint16_t)v;
        }
}

static void test_adm_streaming(unsigned bpc, const char *options)
{
    const unsigned w = 301, h = 203;
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = bpc, .w = w, .h = h,
                                 .cpu_flags = vqx_cpu_flags(0) };
    VqxPicture ref, dis;
    CHECK(vqx_picture_alloc(&ref, VQX_PIX_400, bpc, w, h) == 0, "picture");
    CHECK(vqx_picture_alloc(&dis, VQX_PIX_400, bpc, w, h) == 0, "picture");
    fill_picture(&ref, false);
    fill_picture(&dis, true);
    AdmState *st[2];
    char kv[2][96], err[256];
    for (int k = 0; k < 2; k++) {
        st[k] = calloc(1, sizeof(AdmState));
        snprintf(kv[k], sizeof(kv[k]), "%s", options);
        CHECK(vqx_options_apply(&vqx_fex_adm, st[k], kv[k], err, sizeof(err)) == 0 &&
              vqx_fex_adm.init(st[k], &fmt, NULL) == 0, "adm set-up %s", options);
    }
    AdmState *a = st[0], *b = st[1];
    for (int k = 0; k < ADM_SCALES; k++) {
        AdmLevelSums row_pass;
        vqx_adm_level_sums(a, k, &ref, &dis, &row_pass);
        uint64_t ref_sums[3];
        int64_t num[3], aim[3] = { 0, 0, 0 };
        vqx_adm_dwt_level(b, k, &ref, b->ref_a, b->ref_band);
        vqx_adm_dwt_level(b, k, &dis, b->dis_a, b->dis_band);
        vqx_adm_decouple(b, k);
        vqx_adm_reference_sums(b, k, ref_sums, NULL);
        vqx_adm_masked_sums(b, k, b->restored, b->additive, num, NULL);
        if (!b->skip_aim) vqx_adm_masked_sums(b, k, b->additive, b->restored, aim, NULL);
        bool same = true;
        for (int o = 0; o < 3; o++)
            same = same && row_pass.ref[o] == ref_sums[o] && row_pass.num[o] == num[o] &&
                   row_pass.aim[o] == aim[o];
        CHECK(same, "adm row pass against the staged functions, %u-bit, level %d, '%s'", bpc, k,
              options);
    }
    for (int k = 0; k < 2; k++) {
        free(st[k]->mem);
        free(st[k]);
    }
    vqx_picture_free(&ref);
    vqx_picture_free(&dis);
}

int main(void)
{
    test_psnr_rows();
    test_adm_decouple(100.0);
    test_adm_decouple(1.0);
    test_adm_decouple(2.7);
    for (unsigned bpc = 8; bpc <= 16; bpc += 4) test_adm_streaming(bpc, "");
    test_adm_streaming(10, "adm_csf_mode=1:adm_enhn_gain_limit=1.5");
    test_adm_streaming(8, "adm_skip_aim=true");
    return check_report();
}
