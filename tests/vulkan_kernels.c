/*
 * The Vulkan kernels against the CPU's scalar C, stage by stage, on random
 * planes with extremes (0, peak, alternating), flat planes and noisy copies
 * at every bit depth and at odd sizes: every value equal. A failure prints
 * the first differing position.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cambi_content.h"
#include "check.h"
#include "device/adm_twin.h"
#include "feature/cambi.h"
#include "feature/motion.h"
#include "feature/psnr_dsp.h"
#include "feature/registry.h"
#include "options.h"
#include "vulkan/shaders/adm_work.h"
#include "feature/vif.h"
#include "vulkan/kernels.h"
#include "vulkan_check.h"
#include "xorshift.h"

static VqxVk *vk;

#define VK(call) \
    do { \
        if (call) { \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, vqx_vk_error(vk)); \
            exit(1); \
        } \
    } while (0)

enum { CONTENT_RANDOM, CONTENT_ZERO_PEAK, CONTENT_ALTERNATING, CONTENT_FLAT, CONTENT_NOISY,
       N_CONTENTS };
static const char *const content_names[N_CONTENTS] = { "random", "0 against peak", "alternating",
                                                       "flat", "noisy copy" };

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
                case CONTENT_NOISY: { /* the same random plane, the second off by -4 to 4 */
                    const unsigned hash = ((x * 73856093u) ^ (y * 19349663u)) * 2654435761u;
                    const int base = (int)((hash >> 7) & peak);
                    const int n = second ? (int)(rnd() % 9) - 4 : 0;
                    v = (unsigned)(base + n < 0 ? 0 : base + n > (int)peak ? (int)peak : base + n);
                    break;
                }
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
    VK(vqx_vk_run(vk, &c, vqx_vk_frame_timeout_ns(vk)));

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
    VK(vqx_vk_run(vk, &c, vqx_vk_frame_timeout_ns(vk)));

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

/* The differences of 32-bit values over rows [top, bottom) and columns
 * [left, right), the device's rows `stride` apart, the C's want_stride (0:
 * one row for each); the first one printed. */
static unsigned differ_region(const void *got, const void *want, size_t stride,
                              size_t want_stride, int top, int bottom, int left, int right,
                              const char *what, const char *where)
{
    unsigned bad = 0;
    for (int i = top; i < bottom; i++)
        for (int j = left; j < right; j++) {
            const uint32_t g = ((const uint32_t *)got)[(size_t)i * stride + (size_t)j];
            const uint32_t w = ((const uint32_t *)want)[(size_t)i * want_stride + (size_t)j];
            if (g != w && !bad++)
                printf("FAIL adm %s: %s at (%d, %d): %d, C %d\n", where, what, j, i, (int32_t)g,
                       (int32_t)w);
        }
    return bad;
}

static unsigned differ64(const uint64_t *got, const uint64_t *want, unsigned n, const char *what,
                         const char *where, int row)
{
    unsigned bad = 0;
    for (unsigned q = 0; q < n; q++)
        if (got[q] != want[q] && !bad++)
            printf("FAIL adm %s: %s (row %d), sum %u: %" PRId64 ", C %" PRId64 "\n", where, what,
                   row, q, (int64_t)got[q], (int64_t)want[q]);
    return bad;
}

/* Level by level from the CPU's approximation bands of the level before:
 * the DWT's bands, the decoupled parts, the masking terms, each scored
 * row's sums after its rounding and the level's sums. */
static void check_adm(const VqxVkAdmKernels *k, unsigned w, unsigned h, unsigned bpc, int content,
                      const char *opts)
{
    char where[160], kv[160], err[256], what[64];
    snprintf(where, sizeof(where), "%ux%u %u-bit %s [%s]", w, h, bpc, content_names[content], opts);
    snprintf(kv, sizeof(kv), "%s", opts);
    AdmState *s = calloc(1, sizeof(*s));
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = bpc, .w = w, .h = h };
    const VqxFeatureExtractor *fex = vqx_registry_find("adm", VQX_BACKEND_CPU);
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) || fex->init(s, &fmt, NULL)) {
        CHECK(0, "adm %s: cpu set-up", where);
        free(s);
        return;
    }
    PlanePair pp;
    plane_pair(&pp, w, h, bpc, content);
    VqxPicture pic[2] = { { .layout = VQX_PIX_400 }, { .layout = VQX_PIX_400 } };
    for (int p = 0; p < 2; p++) {
        pic[p].bpc = bpc, pic[p].w[0] = w, pic[p].h[0] = h;
        pic[p].stride[0] = (ptrdiff_t)pp.pitch_words * 4;
        pic[p].data[0] = p ? pp.b.map : pp.a.map;
    }
    VqxVkBuffer work, rows, total;
    VK(vqx_vk_buffer(vk, vqx_vk_adm_work_bytes(s), &work));
    VK(vqx_vk_buffer(vk, vqx_vk_adm_rows_bytes(s), &rows));
    VK(vqx_vk_buffer(vk, 8 * ADM_SCALES * ADM_ROW_SUMS, &total));
    const size_t stride = (size_t)s->stride, plane = stride * (size_t)s->level[0].h;
    int32_t *planes = work.map;
    const VqxVkAdmFrame frame = { pp.a.address, pp.b.address, pp.pitch_words, work.address,
                                  rows.address, total.address };
    uint32_t *sum = malloc(4 * stride), *centre = malloc(4 * stride);
    uint64_t (*ref_rows)[3] = malloc(sizeof(*ref_rows) * (size_t)s->level[0].h);
    int64_t (*num_rows)[3] = malloc(sizeof(*num_rows) * (size_t)s->level[0].h);
    int64_t (*aim_rows)[3] = malloc(sizeof(*aim_rows) * (size_t)s->level[0].h);
    if (!sum || !centre || !ref_rows || !num_rows || !aim_rows) exit(1);
    static const char *const band_name[3] = { "h", "v", "d" };
    unsigned bad = 0;
    for (int level = 0; level < ADM_SCALES && !bad; level++) {
        const AdmLevel *lv = &s->level[level];
        if (level) /* the CPU's approximation bands of the level before */
            for (int p = 0; p < 2; p++)
                memcpy(planes + ADM_WORK_APPROX(p, (level - 1) & 1) * plane,
                       p ? s->dis_a : s->ref_a, 4 * plane);
        memset(total.map, 0, 8 * ADM_SCALES * ADM_ROW_SUMS);
        VqxVkCommands c;
        VK(vqx_vk_record(vk, &c));
        vqx_vk_adm_record(vk, &c, k, s, level, &frame);
        VK(vqx_vk_end(vk, &c));
        VK(vqx_vk_run(vk, &c, vqx_vk_frame_timeout_ns(vk)));
        vqx_vk_commands_free(vk, &c);

        vqx_adm_dwt_level(s, level, &pic[0], s->ref_a, s->ref_band);
        vqx_adm_dwt_level(s, level, &pic[1], s->dis_a, s->dis_band);
        for (int p = 0; p < 2; p++) {
            snprintf(what, sizeof(what), "level %d %s approximation", level, p ? "dis" : "ref");
            bad += differ_region(planes + ADM_WORK_APPROX(p, level & 1) * plane,
                                 p ? s->dis_a : s->ref_a, stride, stride, 0, lv->h, 0, lv->w, what,
                                 where);
            for (int b = 0; b < 3; b++) {
                snprintf(what, sizeof(what), "level %d %s band %s", level, p ? "dis" : "ref",
                         band_name[b]);
                bad += differ_region(planes + ADM_WORK_BAND(p, b) * plane,
                                     p ? s->dis_band[b] : s->ref_band[b], stride, stride, 0,
                                     lv->h, 0, lv->w, what, where);
            }
        }
        if (!vqx_adm_twin_scored(s, level)) continue;

        vqx_adm_decouple(s, level);
        const AdmRegion g = lv->grown, r = lv->roi;
        for (int b = 0; b < 3; b++) {
            snprintf(what, sizeof(what), "level %d restored %s", level, band_name[b]);
            bad += differ_region(planes + ADM_WORK_RESTORED(b) * plane, s->restored[b], stride,
                                 stride, g.top, g.bottom, g.left, g.right, what, where);
            snprintf(what, sizeof(what), "level %d additive %s", level, band_name[b]);
            bad += differ_region(planes + ADM_WORK_ADDITIVE(b) * plane, s->additive[b], stride,
                                 stride, g.top, g.bottom, g.left, g.right, what, where);
        }
        for (int m = 0; m < (s->skip_aim ? 1 : 2); m++)
            for (int i = g.top; i < g.bottom; i++) {
                vqx_adm_mask_terms(s, level, m ? s->restored : s->additive, i, sum, centre);
                snprintf(what, sizeof(what), "level %d masking of %s", level,
                         m ? "restored" : "additive");
                bad += differ_region(planes + ADM_WORK_MASK_SUM(m) * plane, sum, stride, 0, i,
                                     i + 1, g.left, g.right, what, where);
                bad += differ_region(planes + ADM_WORK_MASK_CENTRE(m) * plane, centre, stride, 0,
                                     i, i + 1, g.left, g.right, what, where);
            }
        uint64_t ref_sums[3], want[ADM_ROW_SUMS];
        int64_t num_sums[3], aim_sums[3] = { 0, 0, 0 };
        vqx_adm_reference_sums(s, level, ref_sums, ref_rows);
        vqx_adm_masked_sums(s, level, s->restored, s->additive, num_sums, num_rows);
        if (!s->skip_aim)
            vqx_adm_masked_sums(s, level, s->additive, s->restored, aim_sums, aim_rows);
        const int n_rows = r.bottom - r.top;
        const uint64_t *got_rows = rows.map;
        for (int i = 0; i < n_rows; i++) {
            uint64_t got[ADM_ROW_SUMS];
            for (int b = 0; b < 3; b++) {
                want[b] = adm_round_row_u64(ref_rows[i][b], lv->ref_row_shift);
                want[3 + b] = (uint64_t)adm_round_row(num_rows[i][b], lv->row_shift);
                want[6 + b] =
                    s->skip_aim ? 0 : (uint64_t)adm_round_row(aim_rows[i][b], lv->row_shift);
            }
            for (int q = 0; q < ADM_ROW_SUMS; q++) got[q] = got_rows[(size_t)q * n_rows + i];
            snprintf(what, sizeof(what), "level %d row sums", level);
            bad += differ64(got, want, ADM_ROW_SUMS, what, where, r.top + i);
        }
        for (int b = 0; b < 3; b++) {
            want[b] = ref_sums[b];
            want[3 + b] = (uint64_t)num_sums[b];
            want[6 + b] = (uint64_t)aim_sums[b];
        }
        snprintf(what, sizeof(what), "level %d sums", level);
        bad += differ64((const uint64_t *)total.map + ADM_ROW_SUMS * level, want, ADM_ROW_SUMS,
                        what, where, -1);
    }
    CHECK(!bad, "adm %s: %u differences", where, bad);
    free(sum);
    free(centre);
    free(ref_rows);
    free(num_rows);
    free(aim_rows);
    vqx_vk_buffer_free(vk, &work);
    vqx_vk_buffer_free(vk, &rows);
    vqx_vk_buffer_free(vk, &total);
    plane_pair_free(&pp);
    fex->close(s);
    free(s);
}

/* ---- cambi: each stage from the CPU's input of that stage (cambi.h), so
 * a difference points at one kernel ---- */


static VqxVkBuffer cambi_buffer(size_t bytes)
{
    VqxVkBuffer b;
    VK(vqx_vk_buffer(vk, bytes ? bytes : 4, &b));
    memset(b.map, 0, bytes ? bytes : 4);
    return b;
}

/* A recording of one stage, run at its end. */
static VqxVkCommands cambi_begin(void)
{
    VqxVkCommands c;
    VK(vqx_vk_record(vk, &c));
    return c;
}

static void cambi_run(VqxVkCommands *c)
{
    VK(vqx_vk_end(vk, c));
    VK(vqx_vk_run(vk, c, vqx_vk_frame_timeout_ns(vk)));
    vqx_vk_commands_free(vk, c);
}

/* The first of the n words (samples, mask flags or float bits) that differ. */
static void cambi_expect(const uint32_t *got, const void *want, unsigned size, unsigned w,
                         unsigned h, const char *what, const char *where)
{
    unsigned bad = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t c = 0;
        memcpy(&c, (const char *)want + i * size, size);
        if (got[i] != c && !bad++)
            printf("  %s %s at (%zu, %zu): vulkan 0x%x, C 0x%x\n", where, what, i % w, i / w,
                   got[i], c);
    }
    CHECK(!bad, "%s %s: %u differences", where, what, bad);
}

static void cambi_put(VqxVkBuffer *b, const void *v, unsigned size, size_t n)
{
    uint32_t *words = b->map;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = 0;
        memcpy(&x, (const char *)v + i * size, size);
        words[i] = x;
    }
}

static void check_cambi_contrast(const VqxVkCambiKernels *k, CambiState *s, unsigned w,
                                 unsigned h, unsigned window, const VqxVkBuffer *steps,
                                 const VqxVkBuffer *reciprocal, const char *what,
                                 const char *where)
{
    const size_t n = (size_t)w * h;
    VqxVkBuffer img = cambi_buffer(4 * n), mask = cambi_buffer(4 * n), out = cambi_buffer(4 * n);
    VqxVkBuffer counts = cambi_buffer(vqx_vk_cambi_counts_bytes(w, h, s->band_size));
    cambi_put(&img, s->image, 2, n);
    cambi_put(&mask, s->mask, 1, n);
    const VqxVkCambiContrast p = {
        .image = img.address, .mask = mask.address, .contrast = out.address,
        .counts = counts.address, .steps = steps->address, .reciprocal = reciprocal->address,
        .w = w, .h = h, .pad = window >> 1, .n_steps = s->n_steps, .band_lo = s->band_lo,
        .band_size = s->band_size, .vlt = s->vlt_luma,
    };
    VqxVkCommands c = cambi_begin();
    vqx_vk_cambi_contrast_record(vk, k, &c, &p);
    cambi_run(&c);
    vqx_cambi_contrast_values(s, w, h, window);
    char name[64];
    snprintf(name, sizeof(name), "%s contrast (window %u)", what, window);
    cambi_expect(out.map, s->contrast, 4, w, h, name, where);
    vqx_vk_buffer_free(vk, &img);
    vqx_vk_buffer_free(vk, &mask);
    vqx_vk_buffer_free(vk, &out);
    vqx_vk_buffer_free(vk, &counts);
}

static void check_cambi(const VqxVkCambiKernels *k, const VqxPicture *pic, const char *opts,
                        const char *where)
{
    CambiState *s = cambi_cpu_state(pic, opts, where);
    if (!s) return;
    const CambiGeometry *g = &s->dis;
    const size_t n = (size_t)g->w * g->h;
    /* the plane as the backend lays it out, and a spare word a row */
    const unsigned bps = pic->bpc == 8 ? 1 : 2, pitch_words = (pic->w[0] * bps + 3) / 4 + 1;
    VqxVkBuffer plane = cambi_buffer(4ull * pitch_words * pic->h[0]);
    for (unsigned y = 0; y < pic->h[0]; y++)
        memcpy((char *)plane.map + 4ull * pitch_words * y,
               (const char *)pic->data[0] + (size_t)pic->stride[0] * y, pic->w[0] * bps);
    VqxVkBuffer rows = cambi_buffer(4ull * g->h), cols = cambi_buffer(4ull * g->w);
    memcpy(rows.map, g->rows, 4ull * g->h);
    memcpy(cols.map, g->cols, 4ull * g->w);
    VqxVkBuffer steps = cambi_buffer(8 * CAMBI_MAX_STEPS);
    for (unsigned d = 0; d < CAMBI_MAX_STEPS; d++) {
        ((uint32_t *)steps.map)[d] = s->tvi[d];
        ((uint32_t *)steps.map)[CAMBI_MAX_STEPS + d] = (uint32_t)vqx_cambi_step_weights[d];
    }
    VqxVkBuffer reciprocal = cambi_buffer(sizeof(s->reciprocal));
    memcpy(reciprocal.map, s->reciprocal, sizeof(s->reciprocal));
    VqxVkBuffer img = cambi_buffer(4 * n), mask = cambi_buffer(4 * n);
    VqxVkBuffer out = cambi_buffer(4 * n), out_mask = cambi_buffer(4 * n);

    /* load (and smooth) and mask */
    for (unsigned smooth = 0; smooth < 2; smooth++) {
        cambi_cpu_load(s, pic, smooth);
        const VqxVkCambiLoad load = { plane.address, rows.address, cols.address, img.address,
                                      mask.address, pitch_words, pic->bpc, g->w, g->h, smooth,
                                      g->mask_threshold };
        VqxVkCommands c = cambi_begin();
        vqx_vk_cambi_load_record(vk, k, &c, &load);
        cambi_run(&c);
        cambi_expect(img.map, s->image, 2, g->w, g->h, smooth ? "load+smooth" : "load", where);
        vqx_cambi_spatial_mask(s, g->w, g->h, g->mask_threshold);
        cambi_expect(mask.map, s->mask, 1, g->w, g->h, smooth ? "mask (smoothed)" : "mask", where);
    }
    /* the picture as the extractor scores it */
    cambi_cpu_load(s, pic, s->smooth);
    vqx_cambi_spatial_mask(s, g->w, g->h, g->mask_threshold);
    unsigned w = g->w, h = g->h;
    char what[64];
    for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
        const int halve = scale || s->halve_first;
        cambi_put(&img, s->image, 2, (size_t)w * h);
        cambi_put(&mask, s->mask, 1, (size_t)w * h);
        VqxVkCommands c = cambi_begin();
        vqx_vk_cambi_scale_record(vk, k, &c, img.address, mask.address, w, h, halve, out.address,
                                  out_mask.address);
        cambi_run(&c);
        if (halve) {
            vqx_cambi_halve(s, w, h);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            snprintf(what, sizeof(what), "scale %u halved mask", scale);
            cambi_expect(out_mask.map, s->mask, 1, w, h, what, where);
        }
        vqx_cambi_mode_filter(s, w, h);
        snprintf(what, sizeof(what), "scale %u mode filter", scale);
        cambi_expect(out.map, s->image, 2, w, h, what, where);
        snprintf(what, sizeof(what), "scale %u", scale);
        check_cambi_contrast(k, s, w, h, g->window, &steps, &reciprocal, what, where);
        if (!scale && g->window != CAMBI_BIG_WINDOW)
            check_cambi_contrast(k, s, w, h, CAMBI_BIG_WINDOW, &steps, &reciprocal, what, where);
    }
    VqxVkBuffer *const buffers[] = { &plane, &rows, &cols, &steps, &reciprocal, &img, &mask,
                                     &out, &out_mask };
    for (unsigned i = 0; i < sizeof(buffers) / sizeof(buffers[0]); i++)
        vqx_vk_buffer_free(vk, buffers[i]);
    cambi_cpu_free(s);
}

/* The 16-bit sample x of row y of a plane of 16-bit means, two to a word. */
static unsigned mean_at(const VqxVkBuffer *b, unsigned pitch_words, unsigned x, unsigned y)
{
    return ((const uint16_t *)b->map)[(size_t)y * 2 * pitch_words + x];
}

/* The first of n words that differ, printed; their count. */
static unsigned differ(const char *ctx, unsigned scale, const char *what, const uint32_t *got,
                       const uint32_t *want, unsigned n, unsigned row)
{
    unsigned bad = 0;
    for (unsigned x = 0; x < n; x++)
        if (got[x] != want[x] && !bad++)
            printf("FAIL vif %s: scale %u %s (%u, %u): %u, C %u\n", ctx, scale, what, x, row,
                   got[x], want[x]);
    return bad;
}

/* Every scale's stages against the scalar C, each scale's C from the C's
 * planes of the scale before. */
static void check_vif(const VqxVkVifKernels *k, const uint16_t *log2_table, unsigned w,
                      unsigned h, unsigned bpc, int content, double gain_limit)
{
    char ctx[96];
    snprintf(ctx, sizeof(ctx), "%ux%u %u-bit %s gain limit %g", w, h, bpc, content_names[content],
             gain_limit);
    PlanePair pp;
    plane_pair(&pp, w, h, bpc, content);
    VqxVkBuffer table, sums, cols[VIF_SCALES], rows[VIF_SCALES], means[VIF_SCALES];
    VqxVkBuffer next_ref[VIF_SCALES], next_dis[VIF_SCALES];
    VK(vqx_vk_buffer(vk, 65536 * sizeof(uint16_t), &table));
    memcpy(table.map, log2_table, 65536 * sizeof(uint16_t));
    VK(vqx_vk_buffer(vk, VIF_SCALES * sizeof(VifSums), &sums));
    memset(sums.map, 0, VIF_SCALES * sizeof(VifSums));
    VqxVkCommands c;
    VK(vqx_vk_record(vk, &c));
    for (unsigned sc = 0; sc < VIF_SCALES; sc++) {
        const unsigned sw = w >> sc, sh = h >> sc, nw = sw / 2, nh = sh / 2;
        const bool last = sc + 1 == VIF_SCALES;
        VK(vqx_vk_buffer(vk, 5ull * 4 * sw * sh, &cols[sc]));
        VK(vqx_vk_buffer(vk, 4ull * 8 * sh, &rows[sc]));
        VK(vqx_vk_buffer(vk, 2ull * 4 * sw * nh + 4, &means[sc]));
        VK(vqx_vk_buffer(vk, 4ull * vqx_vk_vif_pitch_words(nw) * nh + 4, &next_ref[sc]));
        VK(vqx_vk_buffer(vk, 4ull * vqx_vk_vif_pitch_words(nw) * nh + 4, &next_dis[sc]));
        const VqxVkVifScale scale = {
            .ref = sc ? next_ref[sc - 1].address : pp.a.address,
            .dis = sc ? next_dis[sc - 1].address : pp.b.address,
            .pitch_words = sc ? vqx_vk_vif_pitch_words(sw) : pp.pitch_words,
            .w = sw, .h = sh, .bpc = bpc, .scale = sc,
            .sums = sums.address + sc * sizeof(VifSums),
            .cols = cols[sc].address, .rows = rows[sc].address, .log2_table = table.address,
            .gain_limit = gain_limit,
            .next_ref = last ? 0 : next_ref[sc].address,
            .next_dis = last ? 0 : next_dis[sc].address,
            .means = means[sc].address,
        };
        vqx_vk_vif_record(vk, &c, k, &scale);
    }
    VK(vqx_vk_end(vk, &c));
    VK(vqx_vk_run(vk, &c, vqx_vk_frame_timeout_ns(vk)));

    /* the C's work space: columns with margins, a filtered row, the planes */
    const size_t padded = w + 2 * VIF_MAX_HALF;
    uint32_t *col_mem = malloc(5 * padded * sizeof(uint32_t));
    uint64_t *scratch = malloc(3 * (size_t)w * sizeof(uint64_t));
    uint32_t *h_mu = malloc(2 * (size_t)w * sizeof(uint32_t));
    uint64_t *h_sq = malloc(3 * (size_t)w * sizeof(uint64_t));
    uint16_t *planes = malloc(2 * (size_t)w * h * sizeof(uint16_t));
    uint32_t *want = malloc(2 * padded * sizeof(uint32_t)), *got = want + padded;
    if (!col_mem || !scratch || !h_mu || !h_sq || !planes || !want) exit(1);
    VifColumns vc = { col_mem + VIF_MAX_HALF, col_mem + padded + VIF_MAX_HALF,
                      col_mem + 2 * padded + VIF_MAX_HALF, col_mem + 3 * padded + VIF_MAX_HALF,
                      col_mem + 4 * padded + VIF_MAX_HALF,
                      { scratch, scratch + w, scratch + 2 * (size_t)w } };
    const VifRow hr = { h_mu, h_mu + w, h_sq, h_sq + w, h_sq + 2 * (size_t)w };
    VifPlane p = { pp.a.map, pp.b.map, (ptrdiff_t)pp.pitch_words * 4, (ptrdiff_t)pp.pitch_words * 4,
                   w, h };
    const VifSums *got_sums = sums.map;
    unsigned bad = 0;
    for (unsigned sc = 0; sc < VIF_SCALES && !bad; sc++) {
        const VifFilter *f = &vqx_vif_filters[sc];
        const VifShifts shifts = vqx_vif_shifts(sc, bpc);
        const bool bytes1 = sc == 0 && bpc == 8;
        const unsigned n = p.w * p.h;
        const uint32_t *got_cols = cols[sc].map;
        const uint64_t *got_rows = rows[sc].map;
        VifSums total = { 0 };
        for (unsigned y = 0; y < p.h && !bad; y++) {
            (bytes1 ? vqx_vif_columns_stats_8bpc : vqx_vif_columns_stats_16bpc)(&p, y, f, &shifts,
                                                                                &vc);
            const uint32_t *c_cols[5] = { vc.mu1, vc.mu2, vc.ref_sq, vc.dis_sq, vc.ref_dis };
            static const char *const names[5] = { "vertical mu1", "vertical mu2",
                                                  "vertical ref_sq", "vertical dis_sq",
                                                  "vertical ref_dis" };
            for (unsigned a = 0; a < 5 && !bad; a++)
                bad += differ(ctx, sc, names[a], got_cols + a * n + y * p.w, c_cols[a], p.w, y);
            vqx_vif_mirror_columns(&vc, p.w, f);
            vqx_vif_horizontal_c(&vc, p.w, f, &hr);
            VifSums row = { 0 };
            vqx_vif_add_row_c(&hr, p.w, log2_table, gain_limit, &row);
            const int64_t c_row[4] = { row.num_log, row.den_log, row.num_non_log, row.den_non_log };
            for (unsigned a = 0; a < 4; a++)
                if ((int64_t)got_rows[a * p.h + y] != c_row[a] && !bad++)
                    printf("FAIL vif %s: scale %u row %u term %u: %" PRId64 ", C %" PRId64 "\n",
                           ctx, sc, y, a, (int64_t)got_rows[a * p.h + y], c_row[a]);
            total.num_log += row.num_log;
            total.den_log += row.den_log;
            total.num_non_log += row.num_non_log;
            total.den_non_log += row.den_non_log;
        }
        const VifSums *g = &got_sums[sc];
        if (!bad && (g->num_log != total.num_log || g->den_log != total.den_log ||
                     g->num_non_log != total.num_non_log || g->den_non_log != total.den_non_log)) {
            bad++;
            printf("FAIL vif %s: scale %u sums differ from the C's\n", ctx, sc);
        }
        if (sc + 1 == VIF_SCALES) break;
        /* the next scale, the C's vqx_vif_downsample, into planes */
        const VifFilter *nf = &vqx_vif_filters[sc + 1];
        const unsigned nw = p.w / 2, nh = p.h / 2, shift = sc ? 16 : bpc;
        const unsigned pitch = vqx_vk_vif_pitch_words(nw);
        /* the scales alternate between the halves of `planes` */
        uint16_t *out_ref = planes + (sc & 1) * (size_t)w * h / 2;
        uint16_t *out_dis = out_ref + (size_t)w * h / 4;
        const uint32_t *got_means = means[sc].map;
        for (unsigned y = 0; y < nh && !bad; y++) {
            (bytes1 ? vqx_vif_columns_means_8bpc : vqx_vif_columns_means_16bpc)(
                &p, 2 * y, nf, shift, 1u << (shift - 1), vc.mu1, vc.mu2);
            bad += differ(ctx, sc, "low-pass ref", got_means + y * p.w, vc.mu1, p.w, y);
            if (!bad)
                bad += differ(ctx, sc, "low-pass dis", got_means + (nh + y) * p.w, vc.mu2, p.w, y);
            vqx_vif_mirror_columns(&vc, p.w, nf);
            vqx_vif_decimate_c(vc.mu1, vc.mu2, nw, nf, out_ref + (size_t)y * nw,
                               out_dis + (size_t)y * nw);
            for (unsigned x = 0; x < nw; x++) {
                want[x] = out_ref[(size_t)y * nw + x];
                want[nw + x] = out_dis[(size_t)y * nw + x];
                got[x] = mean_at(&next_ref[sc], pitch, x, y);
                got[nw + x] = mean_at(&next_dis[sc], pitch, x, y);
            }
            if (!bad) bad += differ(ctx, sc, "decimated ref, dis", got, want, 2 * nw, y);
        }
        p = (VifPlane){ out_ref, out_dis, (ptrdiff_t)(nw * sizeof(uint16_t)),
                        (ptrdiff_t)(nw * sizeof(uint16_t)), nw, nh };
    }
    CHECK(!bad, "vif %s: the Vulkan stages equal the C's", ctx);
    free(col_mem);
    free(scratch);
    free(h_mu);
    free(h_sq);
    free(planes);
    free(want);
    vqx_vk_commands_free(vk, &c);
    plane_pair_free(&pp);
    vqx_vk_buffer_free(vk, &table);
    vqx_vk_buffer_free(vk, &sums);
    for (unsigned sc = 0; sc < VIF_SCALES; sc++) {
        vqx_vk_buffer_free(vk, &cols[sc]);
        vqx_vk_buffer_free(vk, &rows[sc]);
        vqx_vk_buffer_free(vk, &means[sc]);
        vqx_vk_buffer_free(vk, &next_ref[sc]);
        vqx_vk_buffer_free(vk, &next_dis[sc]);
    }
}

static void check_cambi_all(void)
{
    static const char *const option_sets[] = {
        "", "enc_bitdepth=8", "max_log_contrast=0", "max_log_contrast=5:eotf=pq",
        "max_log_contrast=3:cambi_vis_lum_threshold=20:tvi_threshold=0.005",
        "tvi_threshold=0.0001:max_log_contrast=4", "enc_width=217:enc_height=180:window_size=127",
    };
    /* the smallest sides (216 x 1, 1 x 216), odd ones, several strips of columns */
    static const unsigned sizes[][2] = { { 216, 1 }, { 1, 216 }, { 216, 150 }, { 241, 217 },
                                         { 1283, 219 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    VqxVkCambiKernels k;
    VK(vqx_vk_cambi_kernels(vk, &k));
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned di = 0; di < sizeof(depths) / sizeof(depths[0]); di++)
            for (int c = 0; c < CAMBI_CONTENTS; c++) {
                const unsigned w = sizes[si][0], h = sizes[si][1], bpc = depths[di];
                VqxPicture pic;
                if (vqx_picture_alloc(&pic, VQX_PIX_400, bpc, w, h)) exit(1);
                rng = 0x9E3779B9u ^ (si * 7919u + di * 104729u + (unsigned)c * 1299709u);
                cambi_fill(&pic, (enum CambiContent)c);
                for (unsigned o = 0; o < sizeof(option_sets) / sizeof(option_sets[0]); o++) {
                    if (strstr(option_sets[o], "enc_width") && (w < 217 || h < 180)) continue;
                    char where[160];
                    snprintf(where, sizeof(where), "cambi %ux%u %u-bit %s [%s]", w, h, bpc,
                             cambi_content_name[c], option_sets[o]);
                    check_cambi(&k, &pic, option_sets[o], where);
                }
                vqx_picture_free(&pic);
            }
    vqx_vk_cambi_kernels_free(vk, &k);
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
    VqxVkAdmKernels adm;
    VK(vqx_vk_adm_kernels(vk, &adm));
    /* the smallest, odd sizes, several workgroups wide */
    static const unsigned adm_sizes[][2] = { { 33, 33 }, { 37, 45 }, { 67, 34 }, { 601, 35 } };
    static const char *const adm_opts[] = {
        "",
        "adm_enhn_gain_limit=1",
        /* Barten weights beyond the fixed-point range: the CPU's wrap-arounds */
        "adm_csf_mode=1:adm_csf_scale=2:adm_csf_diag_scale=0.5",
        "adm_skip_aim=true:adm_skip_scale0=true:adm_ref_display_height=2160",
    };
    for (unsigned d = 0; d < 4; d++)
        for (unsigned s = 0; s < sizeof(adm_sizes) / sizeof(adm_sizes[0]); s++)
            for (int content = 0; content < N_CONTENTS; content++)
                for (unsigned o = 0; o < sizeof(adm_opts) / sizeof(adm_opts[0]); o++) {
                    rng = 11 + d * 977 + s * 31 + (unsigned)content * 7 + o;
                    check_adm(&adm, adm_sizes[s][0], adm_sizes[s][1], depths[d], content,
                              adm_opts[o]);
                }
    vqx_vk_adm_kernels_free(vk, &adm);
    VqxVkVifKernels vif;
    VK(vqx_vk_vif_kernels(vk, &vif));
    static uint16_t log2_table[65536];
    for (unsigned i = 32767; i < 65536; i++) log2_table[i] = vif_log2_entry(i);
    static const unsigned vif_sizes[][2] = { { 16, 16 }, { 17, 23 }, { 37, 33 }, { 255, 19 },
                                             { 576, 324 } };
    static const double gain_limits[] = { 100.0, 1.0, 1.2 };
    for (unsigned d = 0; d < 4; d++)
        for (unsigned s = 0; s < sizeof(vif_sizes) / sizeof(vif_sizes[0]); s++)
            for (int content = 0; content < N_CONTENTS; content++)
                for (unsigned g = 0; g < 3; g++) {
                    /* the limit matters only where the gain is computed */
                    if (g && content != CONTENT_NOISY && content != CONTENT_RANDOM) continue;
                    rng = 11 + d * 977 + s * 31 + (unsigned)content;
                    check_vif(&vif, log2_table, vif_sizes[s][0], vif_sizes[s][1], depths[d],
                              content, gain_limits[g]);
                }
    vqx_vk_vif_kernels_free(vk, &vif);
    check_cambi_all();
    vqx_vk_close(vk);
    return check_report();
}
