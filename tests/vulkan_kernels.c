/*
 * The Vulkan kernels against the CPU's scalar C, stage by stage, on random
 * planes with extremes (0, peak, alternating) at every bit depth and at odd
 * sizes: every value equal. A failure prints the first differing position.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "feature/motion.h"
#include "feature/psnr_dsp.h"
#include "vulkan/kernels.h"
#include "vulkan_check.h"
#include "xorshift.h"

static VqxVk *vk;
static const uint64_t timeout_ns = 60ull * 1000000000ull;

#define VK(call) \
    do { \
        if (call) { \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, vqx_vk_error(vk)); \
            exit(1); \
        } \
    } while (0)

enum { CONTENT_RANDOM, CONTENT_ZERO_PEAK, CONTENT_ALTERNATING, CONTENT_FLAT, N_CONTENTS };
static const char *const content_names[N_CONTENTS] = { "random", "0 against peak", "alternating",
                                                       "flat" };

/* A plane's samples at row pitch `pitch` (in samples). */
static void fill(void *plane, unsigned pitch, unsigned w, unsigned h, unsigned bpc, int content,
                 int second)
{
    const unsigned peak = (1u << bpc) - 1;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < pitch; x++) {
            unsigned v = 0;
            if (x < w) {
                switch (content) {
                case CONTENT_RANDOM: v = rnd() & peak; break;
                case CONTENT_ZERO_PEAK: v = second ? peak : 0; break;
                case CONTENT_ALTERNATING: v = ((x + y + (unsigned)second) & 1) ? peak : 0; break;
                default: v = peak / 2; break;
                }
            }
            if (bpc == 8) ((uint8_t *)plane)[(size_t)y * pitch + x] = (uint8_t)v;
            else ((uint16_t *)plane)[(size_t)y * pitch + x] = (uint16_t)v;
        }
}

/* Buffers of a pair of planes, rows padded to whole words and one word
 * more (kernels must not read the pad). */
typedef struct PlanePair {
    VqxVkBuffer a, b;
    unsigned pitch_words, pitch; /* pitch in samples */
} PlanePair;

static void plane_pair(PlanePair *pp, unsigned w, unsigned h, unsigned bpc, int content)
{
    const unsigned bytes = bpc == 8 ? 1 : 2;
    pp->pitch_words = (w * bytes + 3) / 4 + 1;
    pp->pitch = pp->pitch_words * 4 / bytes;
    VK(vqx_vk_buffer(vk, (VkDeviceSize)pp->pitch_words * 4 * h, &pp->a));
    VK(vqx_vk_buffer(vk, (VkDeviceSize)pp->pitch_words * 4 * h, &pp->b));
    fill(pp->a.map, pp->pitch, w, h, bpc, content, 0);
    fill(pp->b.map, pp->pitch, w, h, bpc, content, 1);
}

static void plane_pair_free(PlanePair *pp)
{
    vqx_vk_buffer_free(vk, &pp->a);
    vqx_vk_buffer_free(vk, &pp->b);
}

static void check_psnr(const VqxVkPsnrKernels *k, unsigned w, unsigned h, unsigned bpc,
                       int content)
{
    PlanePair pp;
    plane_pair(&pp, w, h, bpc, content);
    VqxVkBuffer rows, total;
    VK(vqx_vk_buffer(vk, 8ull * h, &rows));
    VK(vqx_vk_buffer(vk, 8 * 2, &total));
    memset(total.map, 0xff, 16);
    VqxVkCommands c;
    VK(vqx_vk_record(vk, &c));
    const VqxVkPsnrPlane plane = { pp.a.address, pp.b.address, pp.pitch_words, w, h, bpc,
                                   rows.address, total.address, 1 };
    vqx_vk_psnr_record(vk, &c, k, &plane);
    VK(vqx_vk_end(vk, &c));
    VK(vqx_vk_run(vk, &c, timeout_ns));

    PsnrDSPContext dsp;
    vqx_psnr_dsp_init(&dsp, bpc, 0);
    const uint64_t *got_rows = rows.map, *got_total = total.map;
    uint64_t sum = 0;
    unsigned bad = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint64_t want = dsp.row_sse((const uint8_t *)pp.a.map + (size_t)y * pp.pitch_words * 4,
                                          (const uint8_t *)pp.b.map + (size_t)y * pp.pitch_words * 4,
                                          w);
        sum += want;
        if (got_rows[y] != want && !bad++)
            printf("FAIL psnr %ux%u %u-bit %s: row %u: %" PRIu64 ", C %" PRIu64 "\n", w, h, bpc,
                   content_names[content], y, got_rows[y], want);
    }
    CHECK(!bad, "psnr %ux%u %u-bit %s: %u rows differ", w, h, bpc, content_names[content], bad);
    CHECK(got_total[1] == sum, "psnr %ux%u %u-bit %s: total %" PRIu64 ", C %" PRIu64, w, h, bpc,
          content_names[content], got_total[1], sum);
    vqx_vk_commands_free(vk, &c);
    plane_pair_free(&pp);
    vqx_vk_buffer_free(vk, &rows);
    vqx_vk_buffer_free(vk, &total);
}

static void check_motion(const VqxVkMotionKernels *k, unsigned w, unsigned h, unsigned bpc,
                         int content)
{
    PlanePair pp;
    plane_pair(&pp, w, h, bpc, content);
    VqxVkBuffer mid, rows, total;
    VK(vqx_vk_buffer(vk, 4ull * w * h, &mid));
    VK(vqx_vk_buffer(vk, 8ull * h, &rows));
    VK(vqx_vk_buffer(vk, 8, &total));
    VqxVkCommands c;
    VK(vqx_vk_record(vk, &c));
    const VqxVkMotionPlane plane = { pp.a.address, pp.b.address, pp.pitch_words, w, h, bpc,
                                     mid.address, rows.address, total.address, 0 };
    vqx_vk_motion_record(vk, &c, k, &plane);
    VK(vqx_vk_end(vk, &c));
    VK(vqx_vk_run(vk, &c, timeout_ns));

    MotionDSPContext dsp;
    vqx_motion_dsp_init(&dsp, bpc, 0);
    int32_t *row = malloc(sizeof(int32_t) * (w + 2 * VQX_MOTION_RADIUS));
    if (!row) exit(1);
    const ptrdiff_t stride = (ptrdiff_t)pp.pitch_words * 4;
    const int32_t *got_mid = mid.map;
    const uint64_t *got_rows = rows.map;
    unsigned bad = 0;
    uint64_t sad = 0;
    for (unsigned y = 0; y < h; y++) {
        int32_t *m = row + VQX_MOTION_RADIUS;
        dsp.blur_columns(pp.a.map, stride, pp.b.map, stride, y, w, h, bpc, m);
        for (unsigned x = 0; x < w; x++)
            if (got_mid[(size_t)y * w + x] != m[x] && !bad++)
                printf("FAIL motion %ux%u %u-bit %s: column pass (%u, %u): %d, C %d\n", w, h, bpc,
                       content_names[content], x, y, got_mid[(size_t)y * w + x], m[x]);
        const uint32_t want = dsp.row_sad(m, w);
        sad += want;
        if (got_rows[y] != want && !bad++)
            printf("FAIL motion %ux%u %u-bit %s: row %u: %" PRIu64 ", C %u\n", w, h, bpc,
                   content_names[content], y, got_rows[y], want);
    }
    CHECK(!bad, "motion %ux%u %u-bit %s: %u values differ", w, h, bpc, content_names[content], bad);
    const uint64_t want_sad = vqx_motion_plane_sad(&dsp, pp.a.map, stride, pp.b.map, stride, row,
                                                   w, h, bpc);
    CHECK(sad == want_sad && *(const uint64_t *)total.map == want_sad,
          "motion %ux%u %u-bit %s: SAD %" PRIu64 ", C %" PRIu64, w, h, bpc,
          content_names[content], *(const uint64_t *)total.map, want_sad);
    free(row);
    vqx_vk_commands_free(vk, &c);
    plane_pair_free(&pp);
    vqx_vk_buffer_free(vk, &mid);
    vqx_vk_buffer_free(vk, &rows);
    vqx_vk_buffer_free(vk, &total);
}

int main(void)
{
    vk = vulkan_device_or_skip();
    static const unsigned sizes[][2] = { { 1, 1 }, { 3, 5 }, { 37, 17 }, { 255, 3 },
                                         { 257, 2 }, { 576, 324 }, { 1921, 7 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    VqxVkPsnrKernels psnr;
    VK(vqx_vk_psnr_kernels(vk, &psnr));
    for (unsigned d = 0; d < 4; d++)
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int content = 0; content < N_CONTENTS; content++) {
                rng = 1 + d * 977 + s * 31 + (unsigned)content;
                check_psnr(&psnr, sizes[s][0], sizes[s][1], depths[d], content);
            }
    vqx_vk_psnr_kernels_free(vk, &psnr);
    VqxVkMotionKernels motion;
    VK(vqx_vk_motion_kernels(vk, &motion));
    static const unsigned motion_sizes[][2] = { { 3, 3 }, { 4, 7 }, { 37, 17 }, { 257, 5 },
                                                { 576, 324 }, { 1921, 9 } };
    for (unsigned d = 0; d < 4; d++)
        for (unsigned s = 0; s < sizeof(motion_sizes) / sizeof(motion_sizes[0]); s++)
            for (int content = 0; content < N_CONTENTS; content++) {
                rng = 7 + d * 977 + s * 31 + (unsigned)content;
                check_motion(&motion, motion_sizes[s][0], motion_sizes[s][1], depths[d], content);
            }
    vqx_vk_motion_kernels_free(vk, &motion);
    vqx_vk_close(vk);
    return check_report();
}
