/*
 * Kernel-level checks of the CUDA twins, in the manner of dav1d's
 * checkasm: each kernel runs on device buffers of random content (full
 * range, extremes, smooth with noise, equal pictures), at 8, 10, 12 and 16
 * bits, on odd sizes and sizes that span several blocks, with a row pitch
 * wider than the row; every intermediate buffer it produces is compared,
 * value for value, with what the CPU extractor's own stage functions
 * compute from the same input:
 *   psnr    each row's squared error, the plane's sum;
 *   motion  the column-blurred plane, each row's SAD modulo 2^32, the sum;
 *   vif     per scale: the vertical pass (five planes), the horizontal
 *           pass (five planes), each row's four sums, the scale's sums,
 *           and the next scale's planes (also made alone, with other
 *           blocks);
 *   adm     per level: the approximation and detail bands of both
 *           pictures, the restored and additive bands, the masking terms,
 *           each scored row's nine sums before the row shift, and the
 *           level's nine sums;
 *   float_psnr, float_moment  the plane's double chains, from the
 *           integer sums and from the device's own raster chains (forced),
 *           also on a 4K 16-bit plane where the device must chain;
 *   float_ansnr  both filtered planes, each row's energies, the totals;
 *   float_motion  per filter size, with and without the halving: both
 *           blurred planes, both halves, the sums of differences;
 *   float_vif  per scale: the vertical moments (five planes), each pixel's
 *           numerator and denominator, each row's sums, the scale's sums,
 *           and the next scale's planes;
 *   float_adm  per level: the approximation and detail bands of both
 *           pictures, the restored and additive bands, each scored row's
 *           nine sums and the level's nine sums;
 *   ssimulacra2  on 4:2:0 and 4:4:4 pictures (random chroma), per option
 *           set: both pictures' linear planes; per scale the halved planes,
 *           XYB, the products, both blur passes of the 15 maps, the
 *           per-sample SSIM and edge terms, the scale's sums; then the
 *           whole chain's sums of every scale (the score is the host's
 *           function of them).
 * Each kernel reads the CPU's input of its stage (later scales and levels
 * start from the CPU's planes), so a difference points at one kernel.
 * Exits 77 (meson's skip) without a CUDA device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "cuda_check.h"
#include "picture_content.h"
#include "xorshift.h"
#include "cuda/adm_twin.h"
#include "cuda/kernels.h"
#include "cuda/ssimulacra2_kernels.h"
#include "feature/adm_fixed.h"
#include "feature/float_ansnr.h"
#include "feature/float_moment_dsp.h"
#include "feature/float_motion.h"
#include "feature/float_picture.h"
#include "feature/float_psnr_dsp.h"
#include "feature/float_adm.h"
#include "feature/float_adm_pixel.h"
#include "feature/float_vif.h"
#include "feature/motion.h"
#include "feature/psnr.h"
#include "feature/registry.h"
#include "feature/ssimulacra2.h"
#include "feature/ssimulacra2_dsp.h"
#include "feature/vif.h"
#include "options.h"

/* The CPU's conversion of the samples to floats: its scalar C (set in main). */
static FloatPictureDSPContext cpu_conversion;

/* Extra samples at the end of each device row: the kernels take a pitch. */
#define PITCH_PAD 5

static void *dev_zeroed(size_t bytes)
{
    void *p = dev_alloc(bytes);
    CU(cudaMemset(p, 0, bytes));
    return p;
}

/* Luma of a picture on the device, `pitch` samples per row. */
static void *dev_plane(const VqxPicture *p, size_t pitch)
{
    const size_t bps = p->bpc == 8 ? 1 : 2;
    void *d = dev_alloc(pitch * bps * p->h[0]);
    CU(cudaMemcpy2D(d, pitch * bps, p->data[0], (size_t)p->stride[0], p->w[0] * bps, p->h[0],
                    cudaMemcpyHostToDevice));
    return d;
}

/* Counts differences of two arrays of 32- or 64-bit words; reports the first. */
static unsigned differ32(const uint32_t *gpu, const uint32_t *cpu, size_t n, const char *what,
                         const char *where, unsigned row)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (gpu[i] != cpu[i] && !bad++)
            printf("  %s %s row %u [%zu]: cuda %u cpu %u\n", where, what, row, i, gpu[i], cpu[i]);
    return bad;
}

static unsigned differ64(const uint64_t *gpu, const uint64_t *cpu, size_t n, const char *what,
                         const char *where, unsigned row)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (gpu[i] != cpu[i] && !bad++)
            printf("  %s %s row %u [%zu]: cuda %lld cpu %lld\n", where, what, row, i,
                   (long long)gpu[i], (long long)cpu[i]);
    return bad;
}

/* ---- psnr ---- */

static void check_psnr(const VqxPicture *ref, const VqxPicture *dis, const char *where)
{
    const unsigned w = ref->w[0], h = ref->h[0], bpc = ref->bpc;
    const size_t pitch = w + PITCH_PAD;
    void *d_ref = dev_plane(ref, pitch), *d_dis = dev_plane(dis, pitch);
    unsigned long long *d_sse = dev_zeroed(8), *d_rows = dev_alloc(8 * (size_t)h);
    CU_LAUNCH(vqx_cuda_psnr_sse(d_ref, d_dis, pitch, w, h, bpc, d_sse, d_rows, NULL));
    uint64_t *rows = host_copy(d_rows, 8 * (size_t)h), *sse = host_copy(d_sse, 8);
    unsigned bad = 0;
    for (unsigned y = 0; y < h; y++) {
        const void *r = (const uint8_t *)ref->data[0] + y * ref->stride[0];
        const void *d = (const uint8_t *)dis->data[0] + y * dis->stride[0];
        const uint64_t cpu = (bpc == 8 ? vqx_row_sse_8bpc : vqx_row_sse_16bpc)(r, d, w);
        bad += differ64(&rows[y], &cpu, 1, "row sse", where, y);
    }
    const uint64_t total = (bpc == 8 ? vqx_plane_sse_8bpc : vqx_plane_sse_16bpc)(
        ref->data[0], ref->stride[0], dis->data[0], dis->stride[0], w, h);
    bad += differ64(sse, &total, 1, "plane sse", where, 0);
    CHECK(!bad, "%s psnr: %u differences", where, bad);
    free(rows);
    free(sse);
    CU(cudaFree(d_ref));
    CU(cudaFree(d_dis));
    CU(cudaFree(d_sse));
    CU(cudaFree(d_rows));
}

/* ---- float_psnr and float_moment ---- */

/* The CPU's chains of the luma: float_psnr's, then float_moment's four. */
static void float_chains(const VqxPicture *ref, const VqxPicture *dis, double chain[5])
{
    const unsigned w = ref->w[0], h = ref->h[0];
    float *r = malloc(sizeof(float) * w), *d = malloc(sizeof(float) * w);
    if (!r || !d) exit(1);
    for (unsigned k = 0; k < 5; k++) chain[k] = 0;
    for (unsigned y = 0; y < h; y++) {
        vqx_float_rows(&cpu_conversion, r, 0, ref, 0, y, 1, 0.0f);
        vqx_float_rows(&cpu_conversion, d, 0, dis, 0, y, 1, 0.0f);
        chain[0] = vqx_float_psnr_row_noise_c(r, d, (int)w, chain[0]);
        vqx_float_moment_row_sums_c(r, d, (int)w, chain + 1);
    }
    free(r);
    free(d);
}

static unsigned differ_double(double gpu, double cpu, const char *what, const char *where)
{
    if (!memcmp(&gpu, &cpu, sizeof(gpu))) return 0;
    printf("  %s %s: cuda %.17g cpu %.17g\n", where, what, gpu, cpu);
    return 1;
}

/* Both kinds, by the integer sums (chained: whether the device must chain)
 * and by the device's chains forced. */
static void check_float_sums(const VqxPicture *ref, const VqxPicture *dis, const char *where,
                             int chained)
{
    const unsigned w = ref->w[0], h = ref->h[0], bpc = ref->bpc;
    const size_t pitch = w + PITCH_PAD;
    void *d_ref = dev_plane(ref, pitch), *d_dis = dev_plane(dis, pitch);
    VqxCudaFloatSums *d_sums = dev_alloc(sizeof(VqxCudaFloatSums));
    double cpu[5];
    float_chains(ref, dis, cpu);
    static const char *const names[5] = { "float_psnr chain", "moment ref1", "moment dis1",
                                          "moment ref2", "moment dis2" };
    unsigned bad = 0;
    for (int kind = VQX_CUDA_FLOAT_PSNR; kind <= VQX_CUDA_FLOAT_MOMENT; kind++)
        for (int force = 0; force < 2; force++) {
            CU(cudaMemset(d_sums, 0, sizeof(VqxCudaFloatSums)));
            CU_LAUNCH(vqx_cuda_float_sums(d_ref, d_dis, pitch, w, h, bpc, kind, force, d_sums,
                                          NULL));
            VqxCudaFloatSums *sums = host_copy(d_sums, sizeof(VqxCudaFloatSums));
            if ((int)sums->chained != (force || chained)) {
                printf("  %s kind %d: chained %llu, expected %d\n", where, kind, sums->chained,
                       force || chained);
                bad++;
            }
            const unsigned first = kind == VQX_CUDA_FLOAT_PSNR ? 0 : 1;
            for (unsigned k = 0; k < (kind == VQX_CUDA_FLOAT_PSNR ? 1u : 4u); k++)
                bad += differ_double(vqx_cuda_float_sum(sums, k), cpu[first + k],
                                     names[first + k], where);
            free(sums);
        }
    CHECK(!bad, "%s float sums: %u differences", where, bad);
    CU(cudaFree(d_ref));
    CU(cudaFree(d_dis));
    CU(cudaFree(d_sums));
}

/* ---- float_ansnr ---- */

/* Row y of the CPU's filter n of pic (rows and columns mirrored). */
static void ansnr_cpu_row(const VqxPicture *pic, const float *filter, int n, int y, float *out)
{
    const int w = (int)pic->w[0], h = (int)pic->h[0], margin = FLOAT_ANSNR_DIS_TAPS / 2;
    float *rows = malloc(sizeof(float) * (size_t)(w + 2 * margin) * (size_t)n);
    if (!rows) exit(1);
    const float *taps_rows[FLOAT_ANSNR_MAX_TAPS];
    for (int i = 0; i < n; i++) {
        float *row = rows + (size_t)i * (size_t)(w + 2 * margin) + margin;
        vqx_float_rows(&cpu_conversion, row, 0, pic, 0,
                       (unsigned)vqx_mirror_hybrid(y - n / 2 + i, h), 1, -128.0f);
        for (int m = 1; m <= margin; m++) {
            row[-m] = row[vqx_mirror_hybrid(-m, w)];
            row[w - 1 + m] = row[vqx_mirror_hybrid(w - 1 + m, w)];
        }
        taps_rows[i] = row;
    }
    vqx_float_ansnr_filter_row_c(filter, n, taps_rows, w, out);
    free(rows);
}

static unsigned differ_floats(const float *gpu, const float *cpu, size_t n, const char *what,
                              const char *where, unsigned row)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&gpu[i], &cpu[i], sizeof(float)) && !bad++)
            printf("  %s %s row %u [%zu]: cuda %.9g cpu %.9g\n", where, what, row, i, gpu[i],
                   cpu[i]);
    return bad;
}

static void check_float_ansnr(const VqxPicture *ref, const VqxPicture *dis, const char *where)
{
    const unsigned w = ref->w[0], h = ref->h[0];
    const size_t pitch = w + PITCH_PAD, plane = sizeof(float) * w * h;
    enum { REF_N = FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS,
           DIS_N = FLOAT_ANSNR_DIS_TAPS * FLOAT_ANSNR_DIS_TAPS };
    float taps[REF_N + DIS_N];
    memcpy(taps, vqx_float_ansnr_ref_filter, sizeof(vqx_float_ansnr_ref_filter));
    memcpy(taps + REF_N, vqx_float_ansnr_dis_filter, sizeof(vqx_float_ansnr_dis_filter));
    const VqxCudaFloatAnsnr job = {
        .ref = dev_plane(ref, pitch), .dis = dev_plane(dis, pitch), .pitch = pitch,
        .w = (int)w, .h = (int)h, .bpc = ref->bpc, .taps = dev_upload(taps, sizeof(taps)),
        .terms = dev_alloc(2 * plane), .row_sums = dev_alloc(2 * sizeof(float) * h),
        .filtered_ref = dev_alloc(plane), .filtered_dis = dev_alloc(plane),
    };
    float *d_total = dev_alloc(2 * sizeof(float));
    CU_LAUNCH(vqx_cuda_float_ansnr(&job, d_total, NULL));
    float *fr = host_copy(job.filtered_ref, plane), *fd = host_copy(job.filtered_dis, plane);
    float *rs = host_copy(job.row_sums, 2 * sizeof(float) * h), *rn = rs + h;
    float *total = host_copy(d_total, 8);
    float *cr = malloc(sizeof(float) * w), *cd = malloc(sizeof(float) * w);
    if (!cr || !cd) exit(1);
    unsigned bad = 0;
    float signal = 0, noise = 0;
    for (unsigned y = 0; y < h; y++) {
        ansnr_cpu_row(ref, vqx_float_ansnr_ref_filter, FLOAT_ANSNR_REF_TAPS, (int)y, cr);
        ansnr_cpu_row(dis, vqx_float_ansnr_dis_filter, FLOAT_ANSNR_DIS_TAPS, (int)y, cd);
        bad += differ_floats(fr + (size_t)y * w, cr, w, "filtered ref", where, y);
        bad += differ_floats(fd + (size_t)y * w, cd, w, "filtered dis", where, y);
        float row_signal, row_noise;
        vqx_float_ansnr_row_energies_c(cr, cd, (ptrdiff_t)w, (int)w, 1, &row_signal, &row_noise);
        bad += differ_floats(&rs[y], &row_signal, 1, "row signal", where, y);
        bad += differ_floats(&rn[y], &row_noise, 1, "row noise", where, y);
        signal += row_signal;
        noise += row_noise;
    }
    bad += differ_floats(&total[0], &signal, 1, "signal", where, 0);
    bad += differ_floats(&total[1], &noise, 1, "noise", where, 0);
    CHECK(!bad, "%s float_ansnr: %u differences", where, bad);
    const void *const dev_buffers[] = { job.ref, job.dis, job.taps, job.terms, job.row_sums,
                                        job.filtered_ref, job.filtered_dis, d_total };
    for (unsigned i = 0; i < sizeof(dev_buffers) / sizeof(dev_buffers[0]); i++)
        CU(cudaFree((void *)dev_buffers[i]));
    free(fr);
    free(fd);
    free(rs);
    free(total);
    free(cr);
    free(cd);
}

/* ---- float_motion ---- */

/* The CPU's blurred plane of pic (float_motion.c's blur_plane, from the
 * table's C entries) and its sum of |a - b| (rows, then over rows). */
static void motion_cpu_blur(const FloatMotionState *s, const VqxPicture *pic, float *out)
{
    const int w = (int)pic->w[0], h = (int)pic->h[0], r = s->n_taps / 2;
    float *plane = malloc(sizeof(float) * (size_t)w * h), *mid = malloc(sizeof(float) * (w + 4));
    if (!plane || !mid) exit(1);
    vqx_float_plane(&cpu_conversion, plane, w, pic, 0, -128.0f);
    for (int y = 0; y < h; y++) {
        const float *rows[FLOAT_MOTION_MAX_TAPS];
        for (int k = 0; k < s->n_taps; k++)
            rows[k] = plane + (size_t)vqx_reflect101(y - r + k, h) * w;
        vqx_float_motion_blur_columns_c(s->taps, s->n_taps, rows, w, mid + 2);
        for (int m = 1; m <= r; m++) {
            mid[2 - m] = mid[2 + m];
            mid[2 + w - 1 + m] = mid[2 + w - 1 - m];
        }
        vqx_float_motion_blur_row_c(s->taps, s->n_taps, mid + 2, w, out + (size_t)y * w);
    }
    free(plane);
    free(mid);
}

static float motion_cpu_total(const float *a, const float *b, int w, int h)
{
    float total = 0;
    for (int y = 0; y < h; y++) {
        float line;
        vqx_float_motion_row_sads_c(a + (size_t)y * w, b + (size_t)y * w, w, w, 1, &line);
        total += line;
    }
    return total;
}

static void check_float_motion(const VqxPicture *prev, const VqxPicture *cur, const char *opts,
                               const char *where)
{
    FloatMotionState *s = calloc(1, sizeof(*s));
    char kv[128], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = prev->bpc, .w = prev->w[0],
                                 .h = prev->h[0] };
    const VqxFeatureExtractor *fex = vqx_registry_find("float_motion", VQX_BACKEND_CPU);
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) ||
        vqx_float_motion_setup(s, &fmt, NULL)) {
        CHECK(0, "%s float_motion: cpu set-up", where);
        free(s);
        return;
    }
    const FloatMotionGeometry *g = &s->geo[0];
    const int w = g->w, h = g->h, hw = g->half_w, hh = g->half_h;
    const size_t plane = sizeof(float) * (size_t)w * h, half = sizeof(float) * (size_t)hw * hh;
    const size_t pitch = (size_t)w + PITCH_PAD;
    VqxCudaFloatMotionPlane job = {
        .pitch = pitch, .w = w, .h = h, .bpc = prev->bpc,
        .taps = dev_upload(s->taps, sizeof(float) * (size_t)s->n_taps), .n_taps = s->n_taps,
        .mid = dev_alloc(plane), .row_sums = dev_alloc(sizeof(float) * (size_t)h),
        .half_w = hw, .half_h = hh,
    };
    float *d_blur[2] = { dev_zeroed(plane), dev_zeroed(plane) };
    float *d_half[2] = { NULL, NULL };
    if (s->add_scale1) {
        const VqxResampler *r = &g->halve;
        job.row_index = dev_upload(r->rows.index, 2 * sizeof(int) * (size_t)hh);
        job.col_index = dev_upload(r->cols.index, 2 * sizeof(int) * (size_t)hw);
        job.row_weight = dev_upload(r->rows.weight, 2 * sizeof(float) * (size_t)hh);
        job.col_weight = dev_upload(r->cols.weight, 2 * sizeof(float) * (size_t)hw);
        d_half[0] = dev_zeroed(half);
        d_half[1] = dev_zeroed(half);
    }
    float *d_totals = dev_alloc(4 * sizeof(float));
    const VqxPicture *pics[2] = { prev, cur };
    for (int i = 0; i < 2; i++) {
        job.src = dev_plane(pics[i], pitch);
        job.present = d_blur[i];
        job.past = d_blur[!i];
        job.half_present = d_half[i];
        job.half_past = d_half[!i];
        CU_LAUNCH(vqx_cuda_float_motion_plane(&job, d_totals + 2 * i, NULL));
        CU(cudaFree((void *)job.src));
    }
    unsigned bad = 0;
    float *cpu_blur[2], *cpu_half[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        cpu_blur[i] = malloc(plane);
        if (!cpu_blur[i]) exit(1);
        motion_cpu_blur(s, pics[i], cpu_blur[i]);
        float *gpu = host_copy(d_blur[i], plane);
        for (int y = 0; y < h; y++)
            bad += differ_floats(gpu + (size_t)y * w, cpu_blur[i] + (size_t)y * w, (size_t)w,
                                 i ? "blurred cur" : "blurred prev", where, (unsigned)y);
        free(gpu);
        if (!s->add_scale1) continue;
        cpu_half[i] = malloc(half);
        if (!cpu_half[i]) exit(1);
        vqx_resample(&g->halve, cpu_blur[i], w, cpu_half[i], hw);
        gpu = host_copy(d_half[i], half);
        bad += differ_floats(gpu, cpu_half[i], (size_t)hw * hh, i ? "half cur" : "half prev",
                             where, 0);
        free(gpu);
    }
    float *totals = host_copy(d_totals + 2, 2 * sizeof(float));
    const float total = motion_cpu_total(cpu_blur[0], cpu_blur[1], w, h);
    bad += differ_floats(&totals[0], &total, 1, "sum", where, 0);
    if (s->add_scale1) {
        const float half_total = motion_cpu_total(cpu_half[0], cpu_half[1], hw, hh);
        bad += differ_floats(&totals[1], &half_total, 1, "half sum", where, 0);
    }
    CHECK(!bad, "%s float_motion %s: %u differences", where, opts, bad);
    const void *const dev_buffers[] = { job.taps, job.mid, job.row_sums, job.row_index,
                                        job.col_index, job.row_weight, job.col_weight,
                                        d_blur[0], d_blur[1], d_half[0], d_half[1], d_totals };
    for (unsigned i = 0; i < sizeof(dev_buffers) / sizeof(dev_buffers[0]); i++)
        CU(cudaFree((void *)dev_buffers[i]));
    for (int i = 0; i < 2; i++) {
        free(cpu_blur[i]);
        free(cpu_half[i]);
    }
    free(totals);
    vqx_float_motion_close(s);
    free(s);
}

/* ---- float_vif ---- */

/* Rows of plane (w x h, packed) around row `center`, mirrored. */
static void vif_tap_rows(const float *plane, int w, int h, int center, int width,
                         const float **rows)
{
    for (int k = 0; k < width; k++)
        rows[k] = plane + (size_t)vqx_reflect101(center - width / 2 + k, h) * w;
}

/* The row pass of the C entry over `in` (w values) mirrored into a padded copy. */
static void vif_cpu_row(const float *f, int width, const float *in, int w, float *padded,
                        float *out)
{
    const int half = width / 2;
    for (int x = -half; x < w + half; x++) padded[half + x] = in[vqx_reflect101(x, w)];
    vqx_float_vif_filter_row_c(f, width, padded + half, w, out);
}

static unsigned check_float_vif_scale(const FloatVifState *s, unsigned sc, const float *ref,
                                      const float *dis, int w, int h, const char *where)
{
    const float *f = s->filter[sc];
    const int width = (int)s->filter_width[sc];
    const size_t plane = (size_t)w * h;
    VqxCudaFloatVifScale job = {
        .ref = dev_upload(ref, plane * 4), .dis = dev_upload(dis, plane * 4), .w = w, .h = h,
        .filter = dev_upload(f, (size_t)width * 4), .width = width,
        .stat = vqx_float_vif_stat(s), .moments = dev_alloc(5 * plane * 4),
        .terms = dev_alloc(2 * plane * 4), .row_sums = dev_alloc(2 * (size_t)h * 4),
        .total = dev_alloc(8),
    };
    CU_LAUNCH(vqx_cuda_float_vif_scale(&job, NULL));
    float *moments = host_copy(job.moments, 5 * plane * 4);
    float *num = host_copy(job.terms, 2 * plane * 4), *den = num + plane;
    float *row_num = host_copy(job.row_sums, 2 * (size_t)h * 4), *row_den = row_num + h;
    float *total = host_copy(job.total, 8);
    float *v = malloc(5 * (size_t)w * 4), *o = malloc(5 * (size_t)w * 4);
    float *padded = malloc(((size_t)w + (size_t)width) * 4), *pn = malloc((size_t)w * 4);
    float *pd = malloc((size_t)w * 4);
    if (!v || !o || !padded || !pn || !pd) exit(1);
    static const char *const names[5] = { "mu1", "mu2", "xx", "yy", "xy" };
    const FloatVifStat st = vqx_float_vif_stat(s);
    unsigned bad = 0;
    float total_num = 0, total_den = 0;
    for (int y = 0; y < h; y++) {
        const float *rr[FLOAT_VIF_MAX_TAPS], *dr[FLOAT_VIF_MAX_TAPS];
        vif_tap_rows(ref, w, h, y, width, rr);
        vif_tap_rows(dis, w, h, y, width, dr);
        vqx_float_vif_moment_columns_c(f, width, rr, dr, w, v, v + w, v + 2 * w, v + 3 * w,
                                       v + 4 * w);
        for (int a = 0; a < 5; a++) {
            char what[32];
            snprintf(what, sizeof(what), "scale %u %s", sc, names[a]);
            bad += differ_floats(moments + a * plane + (size_t)y * w, v + a * w, (size_t)w, what,
                                 where, (unsigned)y);
            vif_cpu_row(f, width, v + a * w, w, padded, o + a * w);
        }
        vqx_float_vif_pixel_stats_c(&st, o, o + w, o + 2 * w, o + 3 * w, o + 4 * w, w, pn, pd);
        float rn = 0, rd = 0;
        for (int x = 0; x < w; x++) {
            bad += differ_floats(&num[(size_t)x * h + y], &pn[x], 1, "num", where, (unsigned)y);
            bad += differ_floats(&den[(size_t)x * h + y], &pd[x], 1, "den", where, (unsigned)y);
            rn += pn[x];
            rd += pd[x];
        }
        bad += differ_floats(&row_num[y], &rn, 1, "row num", where, (unsigned)y);
        bad += differ_floats(&row_den[y], &rd, 1, "row den", where, (unsigned)y);
        total_num += rn;
        total_den += rd;
    }
    bad += differ_floats(&total[0], &total_num, 1, "scale num", where, sc);
    bad += differ_floats(&total[1], &total_den, 1, "scale den", where, sc);
    const void *const dev_buffers[] = { job.ref, job.dis, job.filter, job.moments, job.terms,
                                        job.row_sums, job.total };
    for (unsigned i = 0; i < sizeof(dev_buffers) / sizeof(dev_buffers[0]); i++)
        CU(cudaFree((void *)dev_buffers[i]));
    free(moments);
    free(num);
    free(row_num);
    free(total);
    free(v);
    free(o);
    free(padded);
    free(pn);
    free(pd);
    return bad;
}

/* The next scale's plane of `src` by the C entries, and the device's. */
static unsigned check_float_vif_down(const FloatVifState *s, unsigned sc, const float *src,
                                     int src_w, int src_h, float *dst, int w, int h,
                                     const char *where)
{
    const float *f = s->filter[sc];
    const int width = (int)s->filter_width[sc];
    float *col = malloc((size_t)src_w * 4), *row = malloc((size_t)src_w * 4);
    float *padded = malloc(((size_t)src_w + (size_t)width) * 4);
    if (!col || !row || !padded) exit(1);
    for (int i = 0; i < h; i++) {
        const float *rows[FLOAT_VIF_MAX_TAPS];
        vif_tap_rows(src, src_w, src_h, 2 * i, width, rows);
        vqx_float_vif_filter_columns_c(f, width, rows, src_w, col);
        vif_cpu_row(f, width, col, src_w, padded, row);
        for (int j = 0; j < w; j++) dst[(size_t)i * w + j] = row[2 * j];
    }
    const size_t src_bytes = (size_t)src_w * src_h * 4, bytes = (size_t)w * h * 4;
    VqxCudaFloatVifDown down = {
        .src_ref = dev_upload(src, src_bytes), .src_dis = dev_upload(src, src_bytes),
        .src_w = src_w, .src_h = src_h, .ref = dev_alloc(bytes), .dis = dev_alloc(bytes),
        .w = w, .h = h, .filter = dev_upload(f, (size_t)width * 4), .width = width,
        .rows = dev_alloc((size_t)h * src_w * 4),
    };
    CU_LAUNCH(vqx_cuda_float_vif_downsample(&down, NULL));
    float *gpu = host_copy(down.dis, bytes);
    char what[32];
    snprintf(what, sizeof(what), "scale %u plane", sc);
    const unsigned bad = differ_floats(gpu, dst, (size_t)w * h, what, where, 0);
    const void *const dev_buffers[] = { down.src_ref, down.src_dis, down.ref, down.dis,
                                        down.filter, down.rows };
    for (unsigned i = 0; i < sizeof(dev_buffers) / sizeof(dev_buffers[0]); i++)
        CU(cudaFree((void *)dev_buffers[i]));
    free(gpu);
    free(col);
    free(row);
    free(padded);
    return bad;
}

static void check_float_vif(const VqxPicture *ref, const VqxPicture *dis, const char *opts,
                            const char *where)
{
    FloatVifState *s = calloc(1, sizeof(*s));
    char kv[128], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = ref->bpc, .w = ref->w[0],
                                 .h = ref->h[0] };
    const VqxFeatureExtractor *fex = vqx_registry_find("float_vif", VQX_BACKEND_CPU);
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) ||
        vqx_float_vif_setup(s, &fmt, NULL)) {
        CHECK(0, "%s float_vif: cpu set-up", where);
        free(s);
        return;
    }
    /* the device's conversion against the CPU's, then every scale from the CPU's planes */
    int w = (int)ref->w[0], h = (int)ref->h[0];
    float *planes[2] = { malloc((size_t)w * h * 4), malloc((size_t)w * h * 4) };
    float *next[2] = { malloc((size_t)w * h * 4), malloc((size_t)w * h * 4) };
    if (!planes[0] || !planes[1] || !next[0] || !next[1]) exit(1);
    const VqxPicture *pics[2] = { ref, dis };
    unsigned bad = 0;
    for (int i = 0; i < 2; i++) {
        vqx_float_plane(&cpu_conversion, planes[i], w, pics[i], 0, -128.0f);
        const size_t pitch = (size_t)w + PITCH_PAD;
        void *d_src = dev_plane(pics[i], pitch);
        float *d_dst = dev_alloc((size_t)w * h * 4);
        CU_LAUNCH(vqx_cuda_float_convert(d_src, pitch, w, h, ref->bpc, -128.0f, d_dst, NULL));
        float *gpu = host_copy(d_dst, (size_t)w * h * 4);
        bad += differ_floats(gpu, planes[i], (size_t)w * h, "converted", where, 0);
        free(gpu);
        CU(cudaFree(d_src));
        CU(cudaFree(d_dst));
    }
    for (unsigned sc = 0; sc < FLOAT_VIF_SCALES; sc++) {
        if (sc > 0) {
            const int nw = (int)s->planes[sc].w, nh = (int)s->planes[sc].h;
            for (int i = 0; i < 2; i++) {
                bad += check_float_vif_down(s, sc, planes[i], w, h, next[i], nw, nh, where);
                float *t = planes[i];
                planes[i] = next[i];
                next[i] = t;
            }
            w = nw;
            h = nh;
        }
        if (sc > 0 || !s->skip_scale0)
            bad += check_float_vif_scale(s, sc, planes[0], planes[1], w, h, where);
    }
    CHECK(!bad, "%s float_vif %s: %u differences", where, opts, bad);
    for (int i = 0; i < 2; i++) {
        free(planes[i]);
        free(next[i]);
    }
    vqx_float_vif_close(s);
    free(s);
}

/* ---- float_adm ---- */

/* The CPU's level of one picture from `in` (w x h floats, packed): the DWT
 * of float_adm.c, statement for statement (float_adm_pixel.h's taps). */
static void adm_cpu_dwt(const float *in, int w, int h, int bw, int bh, float *a, float *band[3])
{
    for (int i = 0; i < bh; i++)
        for (int j = 0; j < bw; j++) {
            float lo[4], hi[4];
            for (int t = 0; t < 4; t++) {
                const int c = vqx_mirror_hybrid(2 * j - 1 + t, w);
                float v[4];
                for (int k = 0; k < 4; k++)
                    v[k] = in[(size_t)vqx_mirror_hybrid(2 * i - 1 + k, h) * w + c];
                lo[t] = vqx_float_adm_taps(vqx_float_adm_db2_lo, v[0], v[1], v[2], v[3]);
                hi[t] = vqx_float_adm_taps(vqx_float_adm_db2_hi, v[0], v[1], v[2], v[3]);
            }
            const size_t o = (size_t)i * bw + j;
            a[o] = vqx_float_adm_taps(vqx_float_adm_db2_lo, lo[0], lo[1], lo[2], lo[3]);
            band[ADM_V][o] = vqx_float_adm_taps(vqx_float_adm_db2_hi, lo[0], lo[1], lo[2], lo[3]);
            band[ADM_H][o] = vqx_float_adm_taps(vqx_float_adm_db2_lo, hi[0], hi[1], hi[2], hi[3]);
            band[ADM_D][o] = vqx_float_adm_taps(vqx_float_adm_db2_hi, hi[0], hi[1], hi[2], hi[3]);
        }
}

/* A masking threshold row of the CPU: float_adm.c's masked_sums. */
static void adm_cpu_threshold(float *const mask[3], const float weight[3], int w, int h, int i,
                              int left, int right, float *thr)
{
    const int rows[3] = { vqx_mirror_hybrid(i - 1, h), i, vqx_mirror_hybrid(i + 1, h) };
    for (int j = left; j < right; j++) {
        thr[j] = 0.0f;
        for (int b = 0; b < 3; b++) {
            float win[3][3];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    win[r][c] = vqx_float_adm_mask(fabsf(
                        weight[b] *
                        mask[b][(size_t)rows[r] * w + vqx_mirror_hybrid(j - 1 + c, w)]));
            thr[j] += vqx_float_adm_window(win[0], win[1], win[2],
                                           fabsf(weight[b] * mask[b][(size_t)i * w + j]));
        }
    }
}

static void check_float_adm(const VqxPicture *ref, const VqxPicture *dis, const char *opts,
                            const char *where)
{
    FloatAdmState *s = calloc(1, sizeof(*s));
    char kv[160], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = ref->bpc, .w = ref->w[0],
                                 .h = ref->h[0] };
    const VqxFeatureExtractor *fex = vqx_registry_find("float_adm", VQX_BACKEND_CPU);
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) ||
        vqx_float_adm_setup(s, &fmt, NULL)) {
        CHECK(0, "%s float_adm: cpu set-up", where);
        free(s);
        return;
    }
    const int W = (int)ref->w[0], H = (int)ref->h[0];
    const size_t band = (size_t)s->level[0].w * s->level[0].h;
    /* host planes: the current input of each picture, its bands, the decoupled parts */
    float *in[2], *a[2], *bands[2][3], *rest[3], *add[3];
    for (int p = 0; p < 2; p++) {
        in[p] = malloc((size_t)W * H * 4);
        a[p] = malloc(band * 4);
        for (int b = 0; b < 3; b++) bands[p][b] = malloc(band * 4);
        if (!in[p] || !a[p]) exit(1);
    }
    for (int b = 0; b < 3; b++) {
        rest[b] = malloc(band * 4);
        add[b] = malloc(band * 4);
    }
    float *thr = malloc((size_t)s->level[0].w * 4);
    float *cpu_rows = malloc(9 * (size_t)s->level[0].h * 4);
    if (!thr || !cpu_rows) exit(1);
    vqx_float_plane(&cpu_conversion, in[0], W, ref, 0, -128.0f);
    vqx_float_plane(&cpu_conversion, in[1], W, dis, 0, -128.0f);
    const size_t pitch = (size_t)W + PITCH_PAD;
    void *d_pic[2] = { dev_plane(ref, pitch), dev_plane(dis, pitch) };
    float taps[8];
    memcpy(taps, vqx_float_adm_db2_lo, 16);
    memcpy(taps + 4, vqx_float_adm_db2_hi, 16);
    float *d_taps = dev_upload(taps, sizeof(taps));
    uint32_t *d_recip = dev_upload(s->recip_table, sizeof(s->recip_table));
    unsigned bad = 0;
    int iw = W, ih = H;
    for (int k = 0; k < ADM_SCALES; k++) {
        const FloatAdmLevel *lv = &s->level[k];
        const int bw = lv->w, bh = lv->h, rw = lv->roi.right - lv->roi.left,
                  rh = lv->roi.bottom - lv->roi.top;
        const size_t n = (size_t)bw * bh;
        VqxCudaFloatAdmLevelJob job = {
            .level = k, .scored = 1, .src_pitch = k ? (size_t)iw : pitch, .src_w = iw,
            .src_h = ih, .bpc = ref->bpc, .lo_taps = d_taps, .hi_taps = d_taps + 4,
            .w = bw, .h = bh, .decouple = s->decouple,
            .weight = { lv->weight[0], lv->weight[1], lv->weight[2] },
            .top = lv->roi.top, .bottom = lv->roi.bottom, .left = lv->roi.left,
            .right = lv->roi.right, .bypass_cm = s->bypass_cm,
            .cubes = dev_alloc(9 * (size_t)rw * rh * 4),
            .row_sums = dev_alloc(9 * (size_t)rh * 4), .sums = dev_alloc(9 * 4),
        };
        job.decouple.recip = d_recip;
        for (int p = 0; p < 2; p++) {
            job.src[p] = k ? dev_upload(in[p], (size_t)iw * ih * 4) : d_pic[p];
            job.approx[p] = dev_alloc(n * 4);
            for (int b = 0; b < 3; b++) job.bands[p].band[b] = dev_alloc(n * 4);
        }
        for (int b = 0; b < 3; b++) {
            job.restored.band[b] = dev_alloc(n * 4);
            job.additive.band[b] = dev_alloc(n * 4);
        }
        CU_LAUNCH(vqx_cuda_float_adm_level(&job, NULL));
        char what[48];
        for (int p = 0; p < 2; p++) {
            adm_cpu_dwt(in[p], iw, ih, bw, bh, a[p], bands[p]);
            float *g = host_copy(job.approx[p], n * 4);
            snprintf(what, sizeof(what), "level %d approx %d", k, p);
            bad += differ_floats(g, a[p], n, what, where, 0);
            free(g);
            for (int b = 0; b < 3; b++) {
                g = host_copy(job.bands[p].band[b], n * 4);
                snprintf(what, sizeof(what), "level %d band %d of %d", k, b, p);
                bad += differ_floats(g, bands[p][b], n, what, where, 0);
                free(g);
            }
        }
        for (size_t x = 0; x < n; x++) {
            const float r[3] = { bands[0][0][x], bands[0][1][x], bands[0][2][x] };
            const float d[3] = { bands[1][0][x], bands[1][1][x], bands[1][2][x] };
            float rr[3], aa[3];
            vqx_float_adm_decouple(r, d, &s->decouple, rr, aa);
            for (int b = 0; b < 3; b++) {
                rest[b][x] = rr[b];
                add[b][x] = aa[b];
            }
        }
        for (int b = 0; b < 3; b++) {
            float *g = host_copy(job.restored.band[b], n * 4);
            snprintf(what, sizeof(what), "level %d restored %d", k, b);
            bad += differ_floats(g, rest[b], n, what, where, 0);
            free(g);
            g = host_copy(job.additive.band[b], n * 4);
            snprintf(what, sizeof(what), "level %d additive %d", k, b);
            bad += differ_floats(g, add[b], n, what, where, 0);
            free(g);
        }
        /* the CPU's row sums of the nine, by the table's C entry */
        float total[9] = { 0 };
        float *zero = calloc((size_t)bw, 4);
        if (!zero) exit(1);
        for (int y = 0; y < rh; y++) {
            const int i = lv->roi.top + y;
            const size_t o = (size_t)i * bw + lv->roi.left;
            const float *const xr[3] = { bands[0][0] + o, bands[0][1] + o, bands[0][2] + o };
            const float *const xn[3] = { rest[0] + o, rest[1] + o, rest[2] + o };
            const float *const xa[3] = { add[0] + o, add[1] + o, add[2] + o };
            float row[9];
            vqx_float_adm_cube_sums_c(xr, lv->weight, zero, rw, row);
            if (s->bypass_cm) memset(thr, 0, (size_t)bw * 4);
            else adm_cpu_threshold(add, lv->weight, bw, bh, i, lv->roi.left, lv->roi.right, thr);
            vqx_float_adm_cube_sums_c(xn, lv->weight, thr + lv->roi.left, rw, row + 3);
            if (!s->bypass_cm)
                adm_cpu_threshold(rest, lv->weight, bw, bh, i, lv->roi.left, lv->roi.right, thr);
            vqx_float_adm_cube_sums_c(xa, lv->weight, thr + lv->roi.left, rw, row + 6);
            for (int q = 0; q < 9; q++) {
                cpu_rows[(size_t)q * rh + y] = row[q];
                total[q] += row[q];
            }
        }
        free(zero);
        float *g = host_copy(job.row_sums, 9 * (size_t)rh * 4);
        snprintf(what, sizeof(what), "level %d row sums", k);
        bad += differ_floats(g, cpu_rows, 9 * (size_t)rh, what, where, 0);
        free(g);
        g = host_copy(job.sums, 36);
        snprintf(what, sizeof(what), "level %d sums", k);
        bad += differ_floats(g, total, 9, what, where, 0);
        free(g);
        for (int p = 0; p < 2; p++) {
            if (k) CU(cudaFree((void *)job.src[p]));
            CU(cudaFree(job.approx[p]));
            for (int b = 0; b < 3; b++) CU(cudaFree(job.bands[p].band[b]));
            memcpy(in[p], a[p], n * 4);
        }
        for (int b = 0; b < 3; b++) {
            CU(cudaFree(job.restored.band[b]));
            CU(cudaFree(job.additive.band[b]));
        }
        CU(cudaFree(job.cubes));
        CU(cudaFree(job.row_sums));
        CU(cudaFree(job.sums));
        iw = bw;
        ih = bh;
    }
    CHECK(!bad, "%s float_adm %s: %u differences", where, opts, bad);
    for (int p = 0; p < 2; p++) {
        CU(cudaFree(d_pic[p]));
        free(in[p]);
        free(a[p]);
        for (int b = 0; b < 3; b++) free(bands[p][b]);
    }
    for (int b = 0; b < 3; b++) {
        free(rest[b]);
        free(add[b]);
    }
    free(thr);
    free(cpu_rows);
    CU(cudaFree(d_taps));
    CU(cudaFree(d_recip));
    free(s);
}

/* ---- motion ---- */

static void check_motion(const VqxPicture *prev, const VqxPicture *cur, const char *where)
{
    const unsigned w = prev->w[0], h = prev->h[0], bpc = prev->bpc;
    const size_t pitch = w + PITCH_PAD, plane = (size_t)w * h;
    void *d_prev = dev_plane(prev, pitch), *d_cur = dev_plane(cur, pitch);
    uint32_t *d_rows = dev_alloc(4 * (size_t)h);
    unsigned long long *d_sad = dev_alloc(8);
    int32_t *d_blur = dev_alloc(4 * plane);
    CU_LAUNCH(vqx_cuda_motion_sad(d_prev, d_cur, pitch, w, h, bpc, vqx_cuda_motion_rows(w, h, bpc),
                                  d_rows, d_sad, d_blur, NULL));
    uint32_t *rows = host_copy(d_rows, 4 * (size_t)h);
    uint64_t *sad = host_copy(d_sad, 8);
    int32_t *blur = host_copy(d_blur, 4 * plane);
    int32_t *mid = malloc(sizeof(int32_t) * (w + 2 * VQX_MOTION_RADIUS));
    if (!mid) exit(1);
    unsigned bad = 0;
    for (unsigned y = 0; y < h; y++) {
        int32_t *m = mid + VQX_MOTION_RADIUS;
        (bpc == 8 ? vqx_motion_blur_columns_8bpc : vqx_motion_blur_columns_16bpc)(
            prev->data[0], prev->stride[0], cur->data[0], cur->stride[0], y, w, h, bpc, m);
        bad += differ32((const uint32_t *)(blur + (size_t)y * w), (const uint32_t *)m, w,
                        "column blur", where, y);
        const uint32_t row = vqx_motion_row_sad(m, w);
        bad += differ32(&rows[y], &row, 1, "row sad", where, y);
    }
    const uint64_t total = (bpc == 8 ? vqx_motion_sad_8bpc : vqx_motion_sad_16bpc)(
        prev->data[0], prev->stride[0], cur->data[0], cur->stride[0], mid, w, h, bpc);
    bad += differ64(sad, &total, 1, "sad", where, 0);
    CHECK(!bad, "%s motion: %u differences", where, bad);
    free(mid);
    free(rows);
    free(sad);
    free(blur);
    CU(cudaFree(d_prev));
    CU(cudaFree(d_cur));
    CU(cudaFree(d_rows));
    CU(cudaFree(d_sad));
    CU(cudaFree(d_blur));
}

/* ---- vif ---- */

/* Differences of the next scale's planes made on the device from the CPU's
 * (dst: vqx_vif_downsample's output). */
static unsigned differ_next(const uint16_t *d_ref, const uint16_t *d_dis, const VifPlane *dst,
                            const char *what, const char *where)
{
    const size_t n = (size_t)dst->w * dst->h;
    uint16_t *g_ref = host_copy(d_ref, 2 * n), *g_dis = host_copy(d_dis, 2 * n);
    unsigned bad = 0;
    for (size_t o = 0; o < n; o++) {
        const uint16_t c_ref = ((const uint16_t *)dst->ref)[o];
        const uint16_t c_dis = ((const uint16_t *)dst->dis)[o];
        if ((g_ref[o] != c_ref || g_dis[o] != c_dis) && !bad++)
            printf("  %s %s row %zu [%zu]: cuda %u %u cpu %u %u\n", where, what, o / dst->w,
                   o % dst->w, g_ref[o], g_dis[o], c_ref, c_dis);
    }
    free(g_ref);
    free(g_dis);
    return bad;
}

/* Scale sc's kernel on the device copies of plane p against the CPU's
 * stages: the statistics, then the next scale's planes, which the CPU
 * makes into s->planes[sc + 1]. Run twice: with the planned rows per block
 * and the statistics, then with 3 rows per block and the next scale only. */
static unsigned check_vif_scale(VifState *s, const VifPlane *p, const void *d_ref,
                                const void *d_dis, size_t pitch, unsigned sc,
                                const uint16_t *d_table, const char *where)
{
    const unsigned w = p->w, h = p->h;
    const size_t plane = (size_t)w * h;
    const int last = sc + 1 == VIF_SCALES;
    VifPlane *next = last ? NULL : &s->planes[sc + 1];
    const size_t next_plane = next ? (size_t)next->w * next->h : 0;
    VqxCudaVifProbe probe;
    for (int k = 0; k < 5; k++) probe.vert[k] = dev_alloc(4 * plane);
    for (int k = 0; k < 2; k++) probe.mu[k] = dev_alloc(4 * plane);
    for (int k = 0; k < 3; k++) probe.sq[k] = dev_alloc(8 * plane);
    probe.rows = dev_zeroed(4 * 8 * (size_t)h);
    long long *d_sums = dev_zeroed(4 * 8);
    uint16_t *d_next[2] = { dev_alloc(2 * next_plane), dev_alloc(2 * next_plane) };
    const VifShifts sh = vqx_vif_shifts(sc, s->bpc);
    const int bytes1 = sc == 0 && s->bpc == 8;
    VqxCudaVifScale job = {
        .ref = d_ref, .dis = d_dis, .pitch = pitch, .w = w, .h = h, .bytes1 = bytes1,
        .scale = sc, .mean_shift = sh.mean, .sq_shift = sh.sq, .log2_table = d_table,
        .gain_limit = s->gain_limit, .sums = d_sums,
        .next_ref = next ? d_next[0] : NULL, .next_dis = next ? d_next[1] : NULL,
        .next_w = next ? next->w : 0, .next_h = next ? next->h : 0,
        .next_shift = sc == 0 ? s->bpc : 16,
        .rows = vqx_cuda_vif_rows(w, h, bytes1, sc),
    };
    CU_LAUNCH(vqx_cuda_vif_scale(&job, &probe, NULL));
    uint32_t *vert[5], *mu[2];
    uint64_t *sq[3];
    for (int k = 0; k < 5; k++) vert[k] = host_copy(probe.vert[k], 4 * plane);
    for (int k = 0; k < 2; k++) mu[k] = host_copy(probe.mu[k], 4 * plane);
    for (int k = 0; k < 3; k++) sq[k] = host_copy(probe.sq[k], 8 * plane);
    int64_t *rows = host_copy(probe.rows, 4 * 8 * (size_t)h), *sums = host_copy(d_sums, 4 * 8);

    static const char *const vert_name[5] = { "vertical mu1", "vertical mu2", "vertical ref_sq",
                                              "vertical dis_sq", "vertical ref_dis" };
    char what[64];
    const VifFilter *f = &vqx_vif_filters[sc];
    VifColumns *c = &s->cols;
    VifSums total = { 0 };
    unsigned bad = 0;
    for (unsigned i = 0; i < h; i++) {
        (bytes1 ? vqx_vif_columns_stats_8bpc : vqx_vif_columns_stats_16bpc)(p, i, f, &sh, c);
        const uint32_t *cpu_vert[5] = { c->mu1, c->mu2, c->ref_sq, c->dis_sq, c->ref_dis };
        for (int k = 0; k < 5; k++) {
            snprintf(what, sizeof(what), "scale %u %s", sc, vert_name[k]);
            bad += differ32(vert[k] + (size_t)i * w, cpu_vert[k], w, what, where, i);
        }
        vqx_vif_filter_row(s, w, f);
        snprintf(what, sizeof(what), "scale %u horizontal", sc);
        bad += differ32(mu[0] + (size_t)i * w, s->h_mu1, w, what, where, i);
        bad += differ32(mu[1] + (size_t)i * w, s->h_mu2, w, what, where, i);
        bad += differ64(sq[0] + (size_t)i * w, s->h_ref_sq, w, what, where, i);
        bad += differ64(sq[1] + (size_t)i * w, s->h_dis_sq, w, what, where, i);
        bad += differ64(sq[2] + (size_t)i * w, s->h_ref_dis, w, what, where, i);
        VifSums row = { 0 };
        vqx_vif_add_row(s, w, &row);
        const int64_t cpu_row[4] = { row.num_log, row.den_log, row.num_non_log, row.den_non_log };
        snprintf(what, sizeof(what), "scale %u row sums", sc);
        bad += differ64((const uint64_t *)rows + 4 * (size_t)i, (const uint64_t *)cpu_row, 4,
                        what, where, i);
        total.num_log += row.num_log;
        total.den_log += row.den_log;
        total.num_non_log += row.num_non_log;
        total.den_non_log += row.den_non_log;
    }
    const int64_t cpu_sums[4] = { total.num_log, total.den_log, total.num_non_log,
                                  total.den_non_log };
    snprintf(what, sizeof(what), "scale %u sums", sc);
    bad += differ64((const uint64_t *)sums, (const uint64_t *)cpu_sums, 4, what, where, 0);

    if (next) {
        vqx_vif_downsample(s, p, next, sc + 1);
        snprintf(what, sizeof(what), "scale %u planes", sc + 1);
        bad += differ_next(d_next[0], d_next[1], next, what, where);
        /* the next scale alone (vif_skip_scale0's scale 0), other blocks */
        CU(cudaMemset(d_next[0], 0xA5, 2 * next_plane));
        CU(cudaMemset(d_next[1], 0xA5, 2 * next_plane));
        job.sums = NULL;
        job.rows = 3;
        CU_LAUNCH(vqx_cuda_vif_scale(&job, NULL, NULL));
        snprintf(what, sizeof(what), "scale %u planes (alone)", sc + 1);
        bad += differ_next(d_next[0], d_next[1], next, what, where);
    }

    for (int k = 0; k < 5; k++) { free(vert[k]); CU(cudaFree(probe.vert[k])); }
    for (int k = 0; k < 2; k++) { free(mu[k]); CU(cudaFree(probe.mu[k])); }
    for (int k = 0; k < 3; k++) { free(sq[k]); CU(cudaFree(probe.sq[k])); }
    free(rows);
    free(sums);
    CU(cudaFree(probe.rows));
    CU(cudaFree(d_sums));
    CU(cudaFree(d_next[0]));
    CU(cudaFree(d_next[1]));
    return bad;
}

static void check_vif(const VqxPicture *ref, const VqxPicture *dis, const char *opts,
                      const char *where)
{
    VifState *s = calloc(1, sizeof(*s));
    char kv[128], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = ref->bpc, .w = ref->w[0],
                                 .h = ref->h[0] };
    const VqxFeatureExtractor *fex = vqx_registry_find("vif", VQX_BACKEND_CPU);
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) || fex->init(s, &fmt, NULL)) {
        CHECK(0, "%s vif: cpu set-up", where);
        free(s);
        return;
    }
    uint16_t *d_table = dev_upload(s->log2_table, sizeof(s->log2_table));
    const size_t pitch = ref->w[0] + PITCH_PAD;
    void *d_ref = dev_plane(ref, pitch), *d_dis = dev_plane(dis, pitch);
    VifPlane p0 = { ref->data[0], dis->data[0], ref->stride[0], dis->stride[0], ref->w[0],
                    ref->h[0] };
    unsigned bad = check_vif_scale(s, &p0, d_ref, d_dis, pitch, 0, d_table, where);
    for (unsigned sc = 1; sc < VIF_SCALES; sc++) {
        /* from the device copy of the CPU's planes of this scale */
        const VifPlane *p = &s->planes[sc];
        const size_t bytes = (size_t)p->w * p->h * 2;
        void *s_ref = dev_upload(p->ref, bytes), *s_dis = dev_upload(p->dis, bytes);
        bad += check_vif_scale(s, p, s_ref, s_dis, p->w, sc, d_table, where);
        CU(cudaFree(s_ref));
        CU(cudaFree(s_dis));
    }
    CHECK(!bad, "%s vif %s: %u differences", where, opts, bad);
    CU(cudaFree(d_table));
    CU(cudaFree(d_ref));
    CU(cudaFree(d_dis));
    fex->close(s);
    free(s);
}

/* ---- adm ---- */

/* Differences of a band region (stride `stride`) between device and host. */
static unsigned differ_region(const void *dev, const void *host, size_t stride, int top,
                              int bottom, int left, int right, const char *what,
                              const char *where)
{
    unsigned bad = 0;
    uint32_t *g = host_copy(dev, 4 * stride * (size_t)bottom);
    for (int i = top; i < bottom; i++)
        bad += differ32(g + (size_t)i * stride + left,
                        (const uint32_t *)host + (size_t)i * stride + left,
                        (size_t)(right - left), what, where, (unsigned)i);
    free(g);
    return bad;
}

static void check_adm(const VqxPicture *ref, const VqxPicture *dis, const char *opts,
                      const char *where)
{
    AdmState *s = calloc(1, sizeof(*s));
    char kv[160], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = ref->bpc, .w = ref->w[0],
                                 .h = ref->h[0] };
    const VqxFeatureExtractor *fex = vqx_registry_find("adm", VQX_BACKEND_CPU);
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) || fex->init(s, &fmt, NULL)) {
        CHECK(0, "%s adm: cpu set-up", where);
        free(s);
        return;
    }
    const size_t stride = (size_t)s->stride;
    const size_t plane = 4 * stride * (size_t)((s->h + 1) / 2);
    const size_t pitch = ref->w[0] + PITCH_PAD;
    void *d_pic[2] = { dev_plane(ref, pitch), dev_plane(dis, pitch) };
    void *d_src[2] = { dev_alloc(plane), dev_alloc(plane) };
    int32_t *d_approx[2] = { dev_alloc(plane), dev_alloc(plane) };
    VqxCudaAdmBands probe[2];
    VqxCudaAdmWork work;
    for (int b = 0; b < 3; b++) {
        probe[0].band[b] = dev_alloc(plane);
        probe[1].band[b] = dev_alloc(plane);
        work.restored.band[b] = dev_alloc(plane);
        work.additive.band[b] = dev_alloc(plane);
    }
    for (int k = 0; k < 4; k++) work.mask[k] = dev_alloc(plane);
    work.row_acc = dev_alloc(9 * 8 * (size_t)s->level[0].h);
    work.blocks_done = dev_alloc(sizeof(unsigned));
    unsigned long long *d_sums = dev_alloc(9 * 8);
    uint32_t *sum = malloc(4 * stride), *centre = malloc(4 * stride);
    uint64_t (*ref_rows)[3] = malloc(sizeof(*ref_rows) * (size_t)s->level[0].h);
    int64_t (*num_rows)[3] = malloc(sizeof(*num_rows) * (size_t)s->level[0].h);
    int64_t (*aim_rows)[3] = malloc(sizeof(*aim_rows) * (size_t)s->level[0].h);
    if (!sum || !centre || !ref_rows || !num_rows || !aim_rows) exit(1);
    char what[64];
    unsigned bad = 0;

    for (int k = 0; k < ADM_SCALES; k++) {
        const AdmLevel *lv = &s->level[k];
        const int in_w = k ? s->level[k - 1].w : s->w, in_h = k ? s->level[k - 1].h : s->h;
        const void *src[2] = { d_pic[0], d_pic[1] };
        if (k) { /* the CPU's approximation bands of the level before */
            CU(cudaMemcpy(d_src[0], s->ref_a, plane, cudaMemcpyHostToDevice));
            CU(cudaMemcpy(d_src[1], s->dis_a, plane, cudaMemcpyHostToDevice));
            src[0] = d_src[0];
            src[1] = d_src[1];
        }
        const VqxCudaAdmLevel p = vqx_cuda_adm_params(s, k);
        CU(cudaMemset(work.row_acc, 0, 9 * 8 * (size_t)s->level[0].h));
        CU(cudaMemset(work.blocks_done, 0, sizeof(unsigned)));
        CU(cudaMemset(d_sums, 0, 9 * 8));
        CU_LAUNCH(vqx_cuda_adm_level(&p, src, k ? stride : pitch, in_w, in_h, s->bpc, d_approx,
                                     &work, s->cos_1deg_sq, s->gain_limit, d_sums, probe, NULL));

        vqx_adm_dwt_level(s, k, ref, s->ref_a, s->ref_band);
        vqx_adm_dwt_level(s, k, dis, s->dis_a, s->dis_band);
        static const char *const band_name[3] = { "h", "v", "d" };
        for (int pic = 0; pic < 2; pic++) {
            snprintf(what, sizeof(what), "level %d %s approximation", k, pic ? "dis" : "ref");
            bad += differ_region(d_approx[pic], pic ? s->dis_a : s->ref_a, stride, 0, lv->h, 0,
                                 lv->w, what, where);
            for (int b = 0; b < 3; b++) {
                snprintf(what, sizeof(what), "level %d %s band %s", k, pic ? "dis" : "ref",
                         band_name[b]);
                bad += differ_region(probe[pic].band[b], pic ? s->dis_band[b] : s->ref_band[b],
                                     stride, 0, lv->h, 0, lv->w, what, where);
            }
        }
        if (!p.scored) continue;

        vqx_adm_decouple(s, k);
        const AdmRegion g = lv->grown, r = lv->roi;
        for (int b = 0; b < 3; b++) {
            snprintf(what, sizeof(what), "level %d restored %s", k, band_name[b]);
            bad += differ_region(work.restored.band[b], s->restored[b], stride, g.top, g.bottom,
                                 g.left, g.right, what, where);
            snprintf(what, sizeof(what), "level %d additive %s", k, band_name[b]);
            bad += differ_region(work.additive.band[b], s->additive[b], stride, g.top, g.bottom,
                                 g.left, g.right, what, where);
        }
        for (int m = 0; m < (s->skip_aim ? 1 : 2); m++) {
            uint32_t *g_sum = host_copy(work.mask[2 * m], plane);
            uint32_t *g_centre = host_copy(work.mask[2 * m + 1], plane);
            for (int i = g.top; i < g.bottom; i++) {
                vqx_adm_mask_terms(s, k, m ? s->restored : s->additive, i, sum, centre);
                snprintf(what, sizeof(what), "level %d masking of %s", k,
                         m ? "restored" : "additive");
                bad += differ32(g_sum + (size_t)i * stride + g.left, sum + g.left,
                                (size_t)(g.right - g.left), what, where, (unsigned)i);
                bad += differ32(g_centre + (size_t)i * stride + g.left, centre + g.left,
                                (size_t)(g.right - g.left), what, where, (unsigned)i);
            }
            free(g_sum);
            free(g_centre);
        }
        uint64_t ref_sums[3];
        int64_t num_sums[3], aim_sums[3] = { 0, 0, 0 };
        vqx_adm_reference_sums(s, k, ref_sums, ref_rows);
        vqx_adm_masked_sums(s, k, s->restored, s->additive, num_sums, num_rows);
        if (!s->skip_aim) vqx_adm_masked_sums(s, k, s->additive, s->restored, aim_sums, aim_rows);
        const int n_rows = r.bottom - r.top;
        uint64_t *g_rows = host_copy(work.row_acc, 9 * 8 * (size_t)n_rows);
        for (int i = 0; i < n_rows; i++) {
            uint64_t cpu[9];
            for (int b = 0; b < 3; b++) {
                cpu[b] = ref_rows[i][b];
                cpu[3 + b] = (uint64_t)num_rows[i][b];
                cpu[6 + b] = s->skip_aim ? 0 : (uint64_t)aim_rows[i][b];
            }
            snprintf(what, sizeof(what), "level %d row sums", k);
            bad += differ64(g_rows + 9 * (size_t)i, cpu, 9, what, where, (unsigned)(r.top + i));
        }
        free(g_rows);
        uint64_t *g_sums = host_copy(d_sums, 9 * 8), cpu_sums[9];
        for (int b = 0; b < 3; b++) {
            cpu_sums[b] = ref_sums[b];
            cpu_sums[3 + b] = (uint64_t)num_sums[b];
            cpu_sums[6 + b] = (uint64_t)aim_sums[b];
        }
        snprintf(what, sizeof(what), "level %d sums", k);
        bad += differ64(g_sums, cpu_sums, 9, what, where, 0);
        free(g_sums);
    }
    CHECK(!bad, "%s adm %s: %u differences", where, opts, bad);

    free(sum);
    free(centre);
    free(ref_rows);
    free(num_rows);
    free(aim_rows);
    for (int pic = 0; pic < 2; pic++) {
        CU(cudaFree(d_pic[pic]));
        CU(cudaFree(d_src[pic]));
        CU(cudaFree(d_approx[pic]));
        for (int b = 0; b < 3; b++) CU(cudaFree(probe[pic].band[b]));
    }
    for (int b = 0; b < 3; b++) {
        CU(cudaFree(work.restored.band[b]));
        CU(cudaFree(work.additive.band[b]));
    }
    for (int k = 0; k < 4; k++) CU(cudaFree(work.mask[k]));
    CU(cudaFree(work.row_acc));
    CU(cudaFree(work.blocks_done));
    CU(cudaFree(d_sums));
    fex->close(s);
    free(s);
}

/* ---- ssimulacra2 ---- */

static void *dev_plane_p(const VqxPicture *pic, unsigned p, size_t pitch)
{
    const size_t bps = pic->bpc == 8 ? 1 : 2;
    void *d = dev_alloc(pitch * bps * pic->h[p]);
    CU(cudaMemcpy2D(d, pitch * bps, pic->data[p], (size_t)pic->stride[p], pic->w[p] * bps,
                    pic->h[p], cudaMemcpyHostToDevice));
    return d;
}

/* Counts the differences of a packed device plane of w x h values (floats
 * or doubles: `size` bytes) from a CPU plane of `stride` values a row;
 * reports the first. */
static unsigned differ_plane(const void *gpu, const void *cpu, size_t size, int w, int h,
                             ptrdiff_t stride, const char *what, const char *where)
{
    unsigned bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const char *g = (const char *)gpu + ((size_t)y * w + x) * size;
            const char *c = (const char *)cpu + ((size_t)y * stride + x) * size;
            if (!memcmp(g, c, size) || bad++) continue;
            double gv, cv;
            if (size == sizeof(float)) {
                float gf, cf;
                memcpy(&gf, g, sizeof(gf));
                memcpy(&cf, c, sizeof(cf));
                gv = gf;
                cv = cf;
            } else {
                memcpy(&gv, g, sizeof(gv));
                memcpy(&cv, c, sizeof(cv));
            }
            printf("  %s %s (%d, %d) of %dx%d: cuda %.17g cpu %.17g\n", where, what, x, y, w, h,
                   gv, cv);
        }
    return bad;
}

/* A CPU plane (stride values a row) into a packed device buffer. */
static void upload_plane(void *dev, const void *cpu, size_t size, int w, int h, ptrdiff_t stride)
{
    CU(cudaMemcpy2D(dev, (size_t)w * size, cpu, (size_t)stride * size, (size_t)w * size,
                    (size_t)h, cudaMemcpyHostToDevice));
}

static unsigned compare_plane(const void *dev, const void *cpu, size_t size, int w, int h,
                              ptrdiff_t stride, const char *what, const char *where)
{
    void *gpu = host_copy(dev, (size_t)w * h * size);
    const unsigned bad = differ_plane(gpu, cpu, size, w, h, stride, what, where);
    free(gpu);
    return bad;
}

/* The device's buffers of a whole frame, as the twin allocates them. */
static void ssimu2_job_alloc(VqxCudaSsimu2 *job, const Ssimu2State *s, const VqxPicture *ref,
                             const VqxPicture *dis, const float *d_table)
{
    memset(job, 0, sizeof(*job));
    for (unsigned p = 0; p < 3; p++) {
        job->pics.pitch[p] = ref->w[p] + PITCH_PAD;
        job->pics.ref[p] = dev_plane_p(ref, p, job->pics.pitch[p]);
        job->pics.dis[p] = dev_plane_p(dis, p, job->pics.pitch[p]);
    }
    job->pics.ssx = ref->layout != VQX_PIX_444;
    job->pics.ssy = ref->layout == VQX_PIX_420;
    job->pics.bpc = ref->bpc;
    job->yuv = s->yuv;
    job->gauss = s->gauss;
    job->neg_bias_cbrt = vqx_ssimu2_neg_bias_cbrt();
    job->linear_of_u16 = d_table;
    job->n_scales = vqx_ssimu2_scale_sizes(s->w, s->h, job->w, job->h);
    job->plane = (size_t)job->w[0] * job->h[0];
    size_t terms = 0;
    for (int sc = 0; sc < job->n_scales; sc++) {
        const size_t n = (size_t)job->w[sc] * job->h[sc];
        for (int k = 0; k < 6; k++) job->lin[sc][k] = dev_alloc(n * sizeof(float));
        job->term_offset[sc] = terms;
        terms += 6 * n;
    }
    job->maps = dev_alloc(SSIMU2_CUDA_MAPS * job->plane * sizeof(float));
    job->scratch = dev_alloc(SSIMU2_CUDA_MAPS * job->plane * sizeof(float));
    job->blurred = dev_alloc(SSIMU2_CUDA_MAPS * job->plane * sizeof(float));
    job->terms = dev_alloc(terms * sizeof(double));
}

static void ssimu2_job_free(VqxCudaSsimu2 *job)
{
    for (unsigned p = 0; p < 3; p++) {
        CU(cudaFree((void *)job->pics.ref[p]));
        CU(cudaFree((void *)job->pics.dis[p]));
    }
    for (int sc = 0; sc < job->n_scales; sc++)
        for (int k = 0; k < 6; k++) CU(cudaFree(job->lin[sc][k]));
    CU(cudaFree(job->maps));
    CU(cudaFree(job->scratch));
    CU(cudaFree(job->blurred));
    CU(cudaFree(job->terms));
}

/* Every stage of every scale from the CPU's input of that stage (the C
 * entries of the DSP table and ssimulacra2.c's statements), then the whole
 * chain from the pictures: its sums, from which the host's score follows
 * by the CPU's own function. */
static void check_ssimulacra2(const VqxPicture *ref, const VqxPicture *dis, const char *opts,
                              const char *where)
{
    const VqxFeatureExtractor *fex = vqx_registry_find("ssimulacra2", VQX_BACKEND_CPU);
    Ssimu2State *s = calloc(1, fex->state_size);
    char kv[128], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = ref->layout, .bpc = ref->bpc, .w = ref->w[0],
                                 .h = ref->h[0] };
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) || fex->init(s, &fmt, NULL)) {
        CHECK(0, "%s ssimulacra2: cpu set-up", where);
        free(s);
        return;
    }
    const ptrdiff_t st = s->stride;
    VqxCudaSsimu2 job;
    float *d_table = dev_upload(s->linear_of_u16, sizeof(float) * 65536);
    ssimu2_job_alloc(&job, s, ref, dis, d_table);
    const size_t plane = job.plane;
    double *d_result = dev_alloc(sizeof(double) * SSIMU2_CUDA_SCALES * 3 * SSIMU2_CUDA_SUMS);
    unsigned bad = 0;
    int w = s->w, h = s->h;
    /* linear planes */
    const VqxPicture *pics[2] = { ref, dis };
    for (int i = 0; i < 2; i++)
        for (int y = 0; y < h; y++) {
            vqx_ssimu2_rgb16_row(pics[i], (unsigned)y, &s->yuv, s->rgb16);
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 3; c++)
                    s->lin[i][c][y * st + x] = s->linear_of_u16[s->rgb16[3 * x + c]];
        }
    CU_LAUNCH(vqx_cuda_ssimu2_linear(&job.pics, &s->yuv, d_table, w, h, job.lin[0], NULL));
    for (int k = 0; k < 6; k++)
        bad += compare_plane(job.lin[0][k], s->lin[k / 3][k % 3], sizeof(float), w, h, st,
                             "linear", where);
    double cpu_sums[SSIMU2_CUDA_SCALES][3][SSIMU2_CUDA_SUMS];
    for (int sc = 0; sc < job.n_scales; sc++) {
        char what[64];
        if (sc) {
            /* halving, from the CPU's previous planes */
            for (int k = 0; k < 6; k++)
                upload_plane(job.lin[sc - 1][k], s->lin[k / 3][k % 3], sizeof(float), w, h, st);
            const float *src[6];
            for (int k = 0; k < 6; k++) src[k] = job.lin[sc - 1][k];
            CU_LAUNCH(vqx_cuda_ssimu2_downsample(src, w, h, job.lin[sc], NULL));
            for (int k = 0; k < 6; k++)
                vqx_ssimu2_downsample_c(s->lin[k / 3][k % 3], s->lin[k / 3][k % 3], st, w, h);
            w = job.w[sc];
            h = job.h[sc];
            snprintf(what, sizeof(what), "scale %d halved", sc);
            for (int k = 0; k < 6; k++)
                bad += compare_plane(job.lin[sc][k], s->lin[k / 3][k % 3], sizeof(float), w, h,
                                     st, what, where);
        }
        /* XYB, from the CPU's linear planes */
        const float *lin[6];
        for (int k = 0; k < 6; k++) {
            upload_plane(job.lin[sc][k], s->lin[k / 3][k % 3], sizeof(float), w, h, st);
            lin[k] = job.lin[sc][k];
        }
        CU_LAUNCH(vqx_cuda_ssimu2_xyb(lin, w, h, job.neg_bias_cbrt, job.maps, plane, NULL));
        for (int i = 0; i < 2; i++)
            for (int y = 0; y < h; y++) {
                const ptrdiff_t o = y * st;
                vqx_ssimu2_xyb_row_c(s->lin[i][0] + o, s->lin[i][1] + o, s->lin[i][2] + o,
                                     s->xyb[i][0] + o, s->xyb[i][1] + o, s->xyb[i][2] + o, w);
            }
        snprintf(what, sizeof(what), "scale %d xyb", sc);
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 2; i++)
                bad += compare_plane(job.maps + (size_t)(c * 5 + 3 + i) * plane, s->xyb[i][c],
                                     sizeof(float), w, h, st, what, where);
        /* products, blurs and terms of each plane, from the CPU's maps */
        float *cpu_maps = malloc(sizeof(float) * SSIMU2_CUDA_MAPS * (size_t)st * h);
        float *cpu_scratch = malloc(sizeof(float) * (size_t)st * h);
        float *cpu_blurred = malloc(sizeof(float) * SSIMU2_CUDA_MAPS * (size_t)st * h);
        double *cpu_terms = malloc(sizeof(double) * 6 * (size_t)w * h);
        if (!cpu_maps || !cpu_scratch || !cpu_blurred || !cpu_terms) exit(1);
        const size_t cpu_plane = (size_t)st * h;
        for (int c = 0; c < 3; c++) {
            const float *img[2] = { s->xyb[0][c], s->xyb[1][c] };
            for (int i = 0; i < 2; i++) {
                upload_plane(job.maps + (size_t)(c * 5 + 3 + i) * plane, img[i], sizeof(float), w,
                             h, st);
                memcpy(cpu_maps + (c * 5 + 3 + i) * cpu_plane, img[i], sizeof(float) * cpu_plane);
            }
            for (int y = 0; y < h; y++) {
                const ptrdiff_t o = y * st;
                vqx_ssimu2_multiply_row_c(img[0] + o, img[0] + o, cpu_maps + c * 5 * cpu_plane + o,
                                          w);
                vqx_ssimu2_multiply_row_c(img[1] + o, img[1] + o,
                                          cpu_maps + (c * 5 + 1) * cpu_plane + o, w);
                vqx_ssimu2_multiply_row_c(img[0] + o, img[1] + o,
                                          cpu_maps + (c * 5 + 2) * cpu_plane + o, w);
            }
        }
        CU_LAUNCH(vqx_cuda_ssimu2_products(job.maps, plane, w, h, NULL));
        snprintf(what, sizeof(what), "scale %d products", sc);
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
                bad += compare_plane(job.maps + (size_t)(c * 5 + k) * plane,
                                     cpu_maps + (c * 5 + k) * cpu_plane, sizeof(float), w, h, st,
                                     what, where);
        for (int m = 0; m < SSIMU2_CUDA_MAPS; m++)
            upload_plane(job.maps + (size_t)m * plane, cpu_maps + m * cpu_plane, sizeof(float), w,
                         h, st);
        CU_LAUNCH(vqx_cuda_ssimu2_blur(&s->gauss, job.maps, job.scratch, job.blurred, plane,
                                       SSIMU2_CUDA_MAPS, w, h, NULL));
        for (int m = 0; m < SSIMU2_CUDA_MAPS; m++) {
            vqx_ssimu2_blur_h_c(&s->gauss, cpu_maps + m * cpu_plane, cpu_scratch, st, w, h);
            snprintf(what, sizeof(what), "scale %d map %d blurred rows", sc, m);
            bad += compare_plane(job.scratch + (size_t)m * plane, cpu_scratch, sizeof(float), w, h,
                                 st, what, where);
            vqx_ssimu2_blur_v_c(&s->gauss, cpu_scratch, cpu_blurred + m * cpu_plane, st, w, h);
            snprintf(what, sizeof(what), "scale %d map %d blurred", sc, m);
            bad += compare_plane(job.blurred + (size_t)m * plane, cpu_blurred + m * cpu_plane,
                                 sizeof(float), w, h, st, what, where);
            upload_plane(job.blurred + (size_t)m * plane, cpu_blurred + m * cpu_plane,
                         sizeof(float), w, h, st);
        }
        CU_LAUNCH(vqx_cuda_ssimu2_terms(job.maps, job.blurred, plane, w, h, job.terms, NULL));
        for (int c = 0; c < 3; c++) {
            const float *m = cpu_maps + c * 5 * cpu_plane, *b = cpu_blurred + c * 5 * cpu_plane;
            double *ssim_t = cpu_terms + (size_t)(2 * c) * w * h;
            double *edge_t = cpu_terms + (size_t)(2 * c + 1) * w * h;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    const size_t o = (size_t)y * st + x, t = (size_t)y * w + x;
                    ssim_t[t] = ssimu2_ssim_error(b[3 * cpu_plane + o], b[4 * cpu_plane + o], b[o],
                                                  b[cpu_plane + o], b[2 * cpu_plane + o]);
                    edge_t[t] = ssimu2_edge_diff(m[3 * cpu_plane + o], b[3 * cpu_plane + o],
                                                 m[4 * cpu_plane + o], b[4 * cpu_plane + o]);
                }
            double *sums = cpu_sums[sc][c];
            for (int k = 0; k < SSIMU2_CUDA_SUMS; k++) sums[k] = 0.0;
            vqx_ssimu2_ssim_sums_c(b + 3 * cpu_plane, b + 4 * cpu_plane, b, b + cpu_plane,
                                   b + 2 * cpu_plane, st, w, h, sums);
            vqx_ssimu2_edge_sums_c(m + 3 * cpu_plane, b + 3 * cpu_plane, m + 4 * cpu_plane,
                                   b + 4 * cpu_plane, st, w, h, sums + 2);
        }
        snprintf(what, sizeof(what), "scale %d terms", sc);
        bad += compare_plane(job.terms, cpu_terms, sizeof(double), w * h, 6, w * h, what, where);
        /* the sums of this scale alone, from the CPU's terms */
        CU(cudaMemcpy(job.terms, cpu_terms, sizeof(double) * 6 * (size_t)w * h,
                      cudaMemcpyHostToDevice));
        const size_t offset[SSIMU2_CUDA_SCALES] = { 0 };
        const int sw[SSIMU2_CUDA_SCALES] = { w }, sh[SSIMU2_CUDA_SCALES] = { h };
        CU_LAUNCH(vqx_cuda_ssimu2_sums(job.terms, offset, sw, sh, 1, d_result, NULL));
        snprintf(what, sizeof(what), "scale %d sums", sc);
        bad += compare_plane(d_result, cpu_sums[sc], sizeof(double), 3 * SSIMU2_CUDA_SUMS, 1, 0,
                             what, where);
        free(cpu_maps);
        free(cpu_scratch);
        free(cpu_blurred);
        free(cpu_terms);
    }
    /* the whole chain from the pictures: every scale's sums */
    VqxCudaSsimu2 whole;
    ssimu2_job_alloc(&whole, s, ref, dis, d_table);
    CU(cudaMemset(d_result, 0xA5, sizeof(double) * SSIMU2_CUDA_SCALES * 3 * SSIMU2_CUDA_SUMS));
    CU_LAUNCH(vqx_cuda_ssimu2(&whole, d_result, NULL));
    bad += compare_plane(d_result, cpu_sums, sizeof(double), 3 * SSIMU2_CUDA_SUMS, job.n_scales,
                         3 * SSIMU2_CUDA_SUMS, "frame sums", where);
    CHECK(!bad, "%s ssimulacra2 %s: %u differences", where, opts, bad);
    ssimu2_job_free(&whole);
    ssimu2_job_free(&job);
    CU(cudaFree(d_table));
    CU(cudaFree(d_result));
    fex->close(s);
    free(s);
}

/* 4:2:0 and 4:4:4 pictures of one content (chroma included) and depth. */
static void check_ssimulacra2_size(unsigned w, unsigned h, unsigned bpc, enum Content c,
                                   unsigned seed)
{
    static const char *const opts[] = { "", "matrix=bt2020:range=full", "matrix=bt601" };
    static const enum VqxPixelLayout layouts[] = { VQX_PIX_420, VQX_PIX_444 };
    for (unsigned li = 0; li < 2; li++) {
        VqxPicture ref, dis;
        if (vqx_picture_alloc(&ref, layouts[li], bpc, w, h) ||
            vqx_picture_alloc(&dis, layouts[li], bpc, w, h))
            exit(1);
        rng = seed ^ (li * 15485863u);
        fill(&ref, &dis, c);
        fill_chroma(&ref, &dis, c);
        char where[96];
        snprintf(where, sizeof(where), "%ux%u %s %u-bit %s", w, h, li ? "4:4:4" : "4:2:0", bpc,
                 content_name[c]);
        for (unsigned o = 0; o < (li ? 1u : 3u); o++) check_ssimulacra2(&ref, &dis, opts[o], where);
        vqx_picture_free(&ref);
        vqx_picture_free(&dis);
    }
}

static const char *const float_motion_opts[] = {
    "", "motion_filter_size=3:motion_add_scale1=true", "motion_filter_size=1",
    "motion_add_scale1=true",
};
static const char *const float_vif_opts[] = {
    "", "vif_enhn_gain_limit=1.0:vif_sigma_nsq=0.5", "vif_kernelscale=0.5:vif_skip_scale0=true",
};
static const char *const float_adm_opts[] = {
    "", "adm_enhn_gain_limit=1.0:adm_csf_mode=1", "adm_bypass_cm=1:adm_csf_mode=2",
};
static const char *const vif_opts[] = { "", "vif_enhn_gain_limit=1.0" };
static const char *const adm_opts[] = {
    "",
    "adm_enhn_gain_limit=1",
    /* Barten weights beyond the fixed-point range: the CPU's wrap-arounds */
    "adm_csf_mode=1:adm_csf_scale=2:adm_csf_diag_scale=0.5",
    "adm_skip_aim=true:adm_skip_scale0=true:adm_ref_display_height=2160",
};

int main(void)
{
    vqx_float_picture_dsp_init(&cpu_conversion, 0);
    skip_without_device();
    /* odd sizes, each feature's smallest, several blocks wide and tall */
    static const unsigned sizes[][2] = { { 3, 3 }, { 16, 16 }, { 33, 33 }, { 37, 35 },
                                         { 300, 41 }, { 1290, 36 }, { 97, 530 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned di = 0; di < 4; di++)
            for (int c = 0; c < N_CONTENTS; c++) {
                const unsigned w = sizes[si][0], h = sizes[si][1], bpc = depths[di];
                VqxPicture ref, dis;
                if (vqx_picture_alloc(&ref, VQX_PIX_400, bpc, w, h) ||
                    vqx_picture_alloc(&dis, VQX_PIX_400, bpc, w, h))
                    return 1;
                rng = 0x9E3779B9u ^ (si * 7919u + di * 104729u + (unsigned)c * 1299709u);
                fill(&ref, &dis, (enum Content)c);
                char where[96];
                snprintf(where, sizeof(where), "%ux%u %u-bit %s", w, h, bpc, content_name[c]);
                check_psnr(&ref, &dis, where);
                check_float_sums(&ref, &dis, where, 0);
                if (w >= 3 && h >= 3) {
                    check_float_ansnr(&ref, &dis, where);
                    for (unsigned o = 0; o < 4; o++)
                        check_float_motion(&ref, &dis, float_motion_opts[o], where);
                }
                check_motion(&ref, &dis, where);
                if (w >= 16 && h >= 16)
                    for (unsigned o = 0; o < 2; o++) check_vif(&ref, &dis, vif_opts[o], where);
                if (w >= 33 && h >= 33)
                    for (unsigned o = 0; o < 3; o++) {
                        check_float_vif(&ref, &dis, float_vif_opts[o], where);
                        check_float_adm(&ref, &dis, float_adm_opts[o], where);
                    }
                if (w >= 33 && h >= 33)
                    for (unsigned o = 0; o < 4; o++) check_adm(&ref, &dis, adm_opts[o], where);
                vqx_picture_free(&ref);
                vqx_picture_free(&dis);
                if (w >= 8 && h >= 8)
                    check_ssimulacra2_size(w, h, bpc, (enum Content)c, rng);
            }
    /* ssimulacra2's smallest: one scale less than 8 wide (9x8: 5x4), and odd */
    static const unsigned ssimu2_sizes[][2] = { { 8, 8 }, { 9, 8 }, { 13, 17 }, { 8, 31 } };
    for (unsigned si = 0; si < sizeof(ssimu2_sizes) / sizeof(ssimu2_sizes[0]); si++)
        for (unsigned di = 0; di < 4; di++)
            for (int c = 0; c < N_CONTENTS; c++)
                check_ssimulacra2_size(ssimu2_sizes[si][0], ssimu2_sizes[si][1], depths[di],
                                       (enum Content)c, 0x2545F491u ^ (si * 7919u + di * 104729u +
                                                                       (unsigned)c * 1299709u));
    /* a plane whose squared errors outgrow the exact sums: the device chains */
    VqxPicture ref, dis;
    if (vqx_picture_alloc(&ref, VQX_PIX_400, 16, 3840, 2160) ||
        vqx_picture_alloc(&dis, VQX_PIX_400, 16, 3840, 2160))
        return 1;
    fill(&ref, &dis, EXTREMES);
    check_float_sums(&ref, &dis, "3840x2160 16-bit extremes", 1);
    vqx_picture_free(&ref);
    vqx_picture_free(&dis);
    return check_report();
}
