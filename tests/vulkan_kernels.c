/*
 * The Vulkan kernels against the CPU's scalar C, stage by stage, on random
 * planes with extremes (0, peak, alternating) at every bit depth and at odd
 * sizes: every value equal. A failure prints the first differing position.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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

static void check_psnr(const VqxVkPsnrKernels *k, unsigned w, unsigned h, unsigned bpc,
                       int content)
{
    const unsigned bytes = bpc == 8 ? 1 : 2;
    /* rows padded to whole words, and one word more: kernels must not read the pad */
    const unsigned pitch_words = (w * bytes + 3) / 4 + 1, pitch = pitch_words * 4 / bytes;
    VqxVkBuffer ref, dis, rows, total;
    VK(vqx_vk_buffer(vk, (VkDeviceSize)pitch_words * 4 * h, &ref));
    VK(vqx_vk_buffer(vk, (VkDeviceSize)pitch_words * 4 * h, &dis));
    VK(vqx_vk_buffer(vk, 8ull * h, &rows));
    VK(vqx_vk_buffer(vk, 8 * 2, &total));
    fill(ref.map, pitch, w, h, bpc, content, 0);
    fill(dis.map, pitch, w, h, bpc, content, 1);
    memset(total.map, 0xff, 16);
    VqxVkCommands c;
    VK(vqx_vk_record(vk, &c));
    const VqxVkPsnrPlane plane = { ref.address, dis.address, pitch_words, w, h, bpc,
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
        const uint64_t want = dsp.row_sse((const uint8_t *)ref.map + (size_t)y * pitch_words * 4,
                                          (const uint8_t *)dis.map + (size_t)y * pitch_words * 4, w);
        sum += want;
        if (got_rows[y] != want && !bad++)
            printf("FAIL psnr %ux%u %u-bit %s: row %u: %" PRIu64 ", C %" PRIu64 "\n", w, h, bpc,
                   content_names[content], y, got_rows[y], want);
    }
    CHECK(!bad, "psnr %ux%u %u-bit %s: %u rows differ", w, h, bpc, content_names[content], bad);
    CHECK(got_total[1] == sum, "psnr %ux%u %u-bit %s: total %" PRIu64 ", C %" PRIu64, w, h, bpc,
          content_names[content], got_total[1], sum);
    vqx_vk_commands_free(vk, &c);
    vqx_vk_buffer_free(vk, &ref);
    vqx_vk_buffer_free(vk, &dis);
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
    vqx_vk_close(vk);
    return check_report();
}
