/*
 * Stage-level checks of SpEED's CUDA kernels (cuda/speed_kernels.h)
 * against the CPU's stage functions (feature/speed.h), value for value
 * (float bits): load (conversion, temporal difference), prescale (every
 * method), decimate, demean, covariance, eigenvalues, the Householder QR
 * (Q and R), the solve with the per-block variances and the plane records
 * (eigenvalues, singular flag, variances), and the whole chain from the raw
 * samples. One job holds four planes of different content: random full
 * range, flat (a singular covariance), horizontal stripes (singular too),
 * and the difference of two frames (as speed_temporal) of smooth content
 * with noise; at 8, 10, 12 and 16 bits, on odd sizes, the smallest frame,
 * prescaled frames and several kernel scales. Each stage reads the CPU's
 * output of the stage before it, so a difference points at one kernel.
 * `--small`: the small sizes only (for a CPU emulation of the kernels);
 * `--time`: also the device time of each stage on each job.
 * Exits 77 (meson's skip) without a CUDA device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "cuda_check.h"
#include "xorshift.h"
#include "cuda/speed_kernels.h"
#include "device/speed_twin.h"
#include "feature/float_picture.h"
#include "feature/speed.h"

#define PLANES VQX_CUDA_SPEED_PLANES
#define PITCH_PAD 5 /* samples after each device row: the kernels take a pitch */
#define N SPEED_DIM

enum Content { RANDOM, FLAT, STRIPES, SMOOTH_NOISY };
static const char *const content_name[PLANES] = { "random", "flat", "stripes", "difference" };

static unsigned sample_at(enum Content c, unsigned x, unsigned y, unsigned max, unsigned frame)
{
    switch (c) {
    case RANDOM:
        return rnd() % (max + 1);
    case FLAT:
        return max / 3;
    case STRIPES:
        return (y / 3) & 1 ? max : (y * 37) % (max + 1);
    default: {
        const unsigned base = (x * 5 + y * 3 + frame * 7 + ((x * y) >> 4)) % 256 * max / 255;
        const unsigned v = base + rnd() % (max / 16 + 2);
        return v > max ? max : v;
    }
    }
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        printf("FAIL: out of memory\n");
        exit(1);
    }
    return p;
}

static void upload(void *dev, const void *host, size_t bytes)
{
    CU(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
}

/* Counts the floats whose bits differ, any NaN equal to any NaN (the
 * QR of a singular matrix divides by zero: IEEE leaves a NaN's sign and
 * payload to the machine); reports the first. */
static unsigned differ(const void *dev, const float *cpu, size_t n, const char *what,
                       const char *where, unsigned plane)
{
    uint32_t *gpu = xmalloc(4 * n);
    CU(cudaMemcpy(gpu, dev, 4 * n, cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c;
        memcpy(&c, &cpu[i], 4);
        float g;
        memcpy(&g, &gpu[i], 4);
        if (gpu[i] != c && !(g != g && cpu[i] != cpu[i]) && !bad++) {
            printf("  %s plane %u (%s) %s [%zu]: cuda %.9g cpu %.9g\n", where, plane,
                   content_name[plane], what, i, g, cpu[i]);
        }
    }
    free(gpu);
    return bad;
}

/* The CPU's stages of one plane. */
typedef struct CpuPlane {
    float *img, *scaled, *dec, *demeaned;
    float cov[N * N], eig[N], q[N * N], r[N * N];
    bool singular;
    float *variance;
} CpuPlane;

static void cpu_plane(const SpeedPlan *plan, const float *img, CpuPlane *c)
{
    const SpeedGeometry *g = &plan->geo;
    const size_t nd = (size_t)g->dec_w * g->dec_h, nb = g->n_blocks;
    float *row = xmalloc(sizeof(float) * g->scaled_w);
    float *local = xmalloc(sizeof(float) * nd);
    float *scratch = xmalloc(sizeof(float) * vqx_speed_linalg_scratch(g->n_blocks));
    float *samples = xmalloc(sizeof(float) * N * nb), *x = xmalloc(sizeof(float) * N * nb);
    const float *src = img;
    ptrdiff_t stride = g->in_w;
    c->scaled = NULL;
    if (g->rescale) {
        c->scaled = xmalloc(sizeof(float) * g->scaled_w * g->scaled_h);
        vqx_resample(&plan->prescale, img, g->in_w, c->scaled, g->scaled_w);
        src = c->scaled;
        stride = g->scaled_w;
    }
    c->dec = xmalloc(sizeof(float) * nd);
    c->demeaned = xmalloc(sizeof(float) * nd);
    vqx_speed_decimate(plan, src, stride, row, c->dec, g->dec_w);
    memcpy(c->demeaned, c->dec, sizeof(float) * nd);
    vqx_speed_demean(plan, c->demeaned, local, g->dec_w, row);
    vqx_speed_covariance(g, c->demeaned, g->dec_w, c->cov);
    vqx_speed_eigenvalues(c->cov, c->eig, scratch);
    vqx_speed_householder_qr(&plan->dsp, c->cov, c->q, c->r, scratch);
    vqx_speed_block_samples(g, c->demeaned, g->dec_w, samples);
    c->singular = !vqx_speed_is_regular(c->eig) ||
                  vqx_speed_solve(&plan->dsp, c->cov, samples, g->n_blocks, x, scratch);
    if (c->singular) memset(x, 0, sizeof(float) * N * nb);
    c->variance = xmalloc(sizeof(float) * nb);
    vqx_speed_variances(g, x, samples, c->variance);
    free(row);
    free(local);
    free(scratch);
    free(samples);
    free(x);
}

static void cpu_plane_free(CpuPlane *c)
{
    free(c->img);
    free(c->scaled);
    free(c->dec);
    free(c->demeaned);
    free(c->variance);
}

/* The plane records against the CPU's: eigenvalues, flag, variances. */
static unsigned differ_records(const VqxCudaSpeedJob *job, const CpuPlane *cpu, const char *what,
                               const char *where)
{
    const size_t bytes = job->record_bytes * PLANES;
    char *host = xmalloc(bytes);
    CU(cudaMemcpy(host, job->result, bytes, cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (unsigned p = 0; p < PLANES; p++) {
        uint32_t singular;
        memcpy(&singular, host + p * job->record_bytes + 4 * VQX_SPEED_RECORD_SINGULAR, 4);
        const char *at = (const char *)job->result + p * job->record_bytes;
        char name[64];
        snprintf(name, sizeof(name), "%s eigenvalues", what);
        bad += differ(at, cpu[p].eig, N, name, where, p);
        snprintf(name, sizeof(name), "%s variances", what);
        bad += differ(at + 4 * VQX_SPEED_RECORD_VARIANCE, cpu[p].variance, job->geo.n_blocks, name,
                      where, p);
        if ((singular != 0) != cpu[p].singular && !bad++)
            printf("  %s plane %u %s singular: cuda %u cpu %d\n", where, p, what, singular,
                   cpu[p].singular);
    }
    free(host);
    return bad;
}

static bool time_stages;

/* Milliseconds per run of each stage (median of 15), on the job's buffers. */
static void time_chain(const VqxCudaSpeedJob *job, const char *where)
{
    static int (*const stage[])(const VqxCudaSpeedJob *, void *) = {
        vqx_cuda_speed_load, vqx_cuda_speed_prescale, vqx_cuda_speed_decimate,
        vqx_cuda_speed_demean, vqx_cuda_speed_covariance, vqx_cuda_speed_factorise,
        vqx_cuda_speed_solve, vqx_cuda_speed_chain };
    static const char *const name[] = { "load", "prescale", "decimate", "demean", "covariance",
                                        "factorise", "solve", "chain" };
    cudaEvent_t t0, t1;
    CU(cudaEventCreate(&t0));
    CU(cudaEventCreate(&t1));
    printf("%s: ms per run:", where);
    for (size_t i = 0; i < sizeof(stage) / sizeof(stage[0]); i++) {
        if (stage[i] == vqx_cuda_speed_prescale && !job->geo.rescale) continue;
        float ms[15];
        for (int r = 0; r < 15; r++) {
            CU(cudaEventRecord(t0, NULL));
            CU((cudaError_t)stage[i](job, NULL));
            CU(cudaEventRecord(t1, NULL));
            CU(cudaEventSynchronize(t1));
            CU(cudaEventElapsedTime(&ms[r], t0, t1));
        }
        for (int a = 0; a < 15; a++) /* insertion sort for the median */
            for (int b = a; b > 0 && ms[b] < ms[b - 1]; b--) {
                const float t = ms[b];
                ms[b] = ms[b - 1];
                ms[b - 1] = t;
            }
        printf(" %s %.4f", name[i], ms[7]);
    }
    printf("\n");
    CU(cudaEventDestroy(t0));
    CU(cudaEventDestroy(t1));
}

typedef struct Case {
    unsigned w, h;
    double kernelscale, prescale;
    enum VqxResampleMethod method;
} Case;

static void check_case(const Case *cs, unsigned bpc)
{
    const unsigned w = cs->w, h = cs->h, bps = bpc == 8 ? 1 : 2, max = (1u << bpc) - 1;
    char where[160];
    snprintf(where, sizeof(where), "%ux%u %u-bit ks %g ps %g %s", w, h, bpc, cs->kernelscale,
             cs->prescale, vqx_resample_names[cs->method]);
    const SpeedParams prm = { .kernelscale = cs->kernelscale, .prescale = cs->prescale,
                              .scaler = cs->method, .sigma_nn = 0.29f };
    SpeedPlan plan;
    char err[256];
    if (vqx_speed_plan_init(&plan, w, h, &prm, err, sizeof(err))) {
        CHECK(0, "%s: %s", where, err);
        return;
    }
    const SpeedGeometry *g = &plan.geo;

    /* raw planes: 0..3 the minuends, 3 also a subtrahend (the next frame) */
    const size_t pitch = w + PITCH_PAD, raw_bytes = pitch * h * bps;
    void *raw[PLANES + 1];
    for (unsigned p = 0; p <= PLANES; p++) {
        raw[p] = xmalloc(raw_bytes);
        const enum Content c = p >= SMOOTH_NOISY ? SMOOTH_NOISY : (enum Content)p;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < pitch; x++) {
                const unsigned v = x < w ? sample_at(c, x, y, max, p - (p >= SMOOTH_NOISY) * 3) : 0;
                if (bpc == 8) ((uint8_t *)raw[p])[y * pitch + x] = (uint8_t)v;
                else ((uint16_t *)raw[p])[y * pitch + x] = (uint16_t)v;
            }
    }

    /* the CPU: vqx_float_rows' conversion, speed_temporal's difference */
    const float inv_scale = 1.0f / (float)(1u << (bpc - 8));
    CpuPlane cpu[PLANES];
    for (unsigned p = 0; p < PLANES; p++) {
        cpu[p].img = xmalloc(sizeof(float) * w * h);
        (bpc == 8 ? vqx_float_convert_8bpc : vqx_float_convert_16bpc)(
            cpu[p].img, w, raw[p], (ptrdiff_t)(pitch * bps), w, h, inv_scale, -128.0f);
        if (p == PLANES - 1) {
            float *cur = xmalloc(sizeof(float) * w * h);
            (bpc == 8 ? vqx_float_convert_8bpc : vqx_float_convert_16bpc)(
                cur, w, raw[PLANES], (ptrdiff_t)(pitch * bps), w, h, inv_scale, -128.0f);
            for (size_t i = 0; i < (size_t)w * h; i++)
                cpu[p].img[i] = cpu[p].img[i] - cur[i];
            free(cur);
        }
        cpu_plane(&plan, cpu[p].img, &cpu[p]);
    }

    /* the device job */
    VqxCudaSpeedJob job = { .planes = PLANES, .geo = *g, .bpc = bpc, .inv_scale = inv_scale,
                            .offset = -128.0f };
    memcpy(job.filters.antialias, plan.antialias, sizeof(plan.antialias));
    memcpy(job.filters.local_mean, plan.local_mean, sizeof(plan.local_mean));
    job.filters.antialias_len = plan.antialias_len;
    job.filters.local_mean_len = plan.local_mean_len;
    void *d_raw[PLANES + 1];
    for (unsigned p = 0; p <= PLANES; p++) {
        d_raw[p] = dev_alloc(raw_bytes);
        upload(d_raw[p], raw[p], raw_bytes);
    }
    for (unsigned p = 0; p < PLANES; p++) {
        job.minuend[p] = d_raw[p];
        job.pitch[p] = pitch;
    }
    job.subtrahend[PLANES - 1] = d_raw[PLANES];
    const size_t in_n = (size_t)w * h, sc_n = (size_t)g->scaled_w * g->scaled_h;
    const size_t dec_n = (size_t)g->dec_w * g->dec_h;
    job.image_pitch = w;
    job.image = dev_alloc(sizeof(float) * PLANES * in_n);
    if (g->rescale) {
        const VqxResampler *rs = &plan.prescale;
        job.scaled_pitch = g->scaled_w;
        job.scaled = dev_alloc(sizeof(float) * PLANES * sc_n);
        const size_t rows = (size_t)rs->taps * g->scaled_h, cols = (size_t)rs->taps * g->scaled_w;
        int *ri = dev_alloc(sizeof(int) * rows), *ci = dev_alloc(sizeof(int) * cols);
        float *rw = dev_alloc(sizeof(float) * rows), *cw = dev_alloc(sizeof(float) * cols);
        upload(ri, rs->rows.index, sizeof(int) * rows);
        upload(rw, rs->rows.weight, sizeof(float) * rows);
        upload(ci, rs->cols.index, sizeof(int) * cols);
        upload(cw, rs->cols.weight, sizeof(float) * cols);
        job.prescale = (VqxCudaResampler){ .method = (int)rs->method,
                                           .dst_w = rs->dst_w, .dst_h = rs->dst_h,
                                           .row_index = ri, .col_index = ci,
                                           .row_weight = rw, .col_weight = cw };
    }
    job.dec = dev_alloc(sizeof(float) * PLANES * dec_n);
    job.demeaned = dev_alloc(sizeof(float) * PLANES * dec_n);
    job.cov = dev_alloc(sizeof(float) * PLANES * N * N);
    job.q = dev_alloc(sizeof(float) * PLANES * N * N);
    job.r = dev_alloc(sizeof(float) * PLANES * N * N);
    job.eig = dev_alloc(sizeof(float) * PLANES * N);
    job.record_bytes = vqx_speed_record_bytes(g->n_blocks);
    job.result = dev_alloc(job.record_bytes * PLANES);

    unsigned bad = 0;
    /* load */
    CU_LAUNCH(vqx_cuda_speed_load(&job, NULL));
    for (unsigned p = 0; p < PLANES; p++)
        bad += differ(job.image + p * in_n, cpu[p].img, in_n, "load", where, p);
    CHECK(!bad, "%s load: %u differences", where, bad);

    /* prescale, from the CPU's loaded planes */
    if (g->rescale) {
        bad = 0;
        for (unsigned p = 0; p < PLANES; p++) upload(job.image + p * in_n, cpu[p].img, 4 * in_n);
        CU_LAUNCH(vqx_cuda_speed_prescale(&job, NULL));
        for (unsigned p = 0; p < PLANES; p++)
            bad += differ(job.scaled + p * sc_n, cpu[p].scaled, sc_n, "prescale", where, p);
        CHECK(!bad, "%s prescale: %u differences", where, bad);
        for (unsigned p = 0; p < PLANES; p++) upload(job.scaled + p * sc_n, cpu[p].scaled, 4 * sc_n);
    }

    /* decimate */
    bad = 0;
    CU_LAUNCH(vqx_cuda_speed_decimate(&job, NULL));
    for (unsigned p = 0; p < PLANES; p++)
        bad += differ(job.dec + p * dec_n, cpu[p].dec, dec_n, "decimate", where, p);
    CHECK(!bad, "%s decimate: %u differences", where, bad);

    /* demean */
    bad = 0;
    for (unsigned p = 0; p < PLANES; p++) upload(job.dec + p * dec_n, cpu[p].dec, 4 * dec_n);
    CU_LAUNCH(vqx_cuda_speed_demean(&job, NULL));
    for (unsigned p = 0; p < PLANES; p++)
        bad += differ(job.demeaned + p * dec_n, cpu[p].demeaned, dec_n, "demean", where, p);
    CHECK(!bad, "%s demean: %u differences", where, bad);

    /* covariance */
    bad = 0;
    for (unsigned p = 0; p < PLANES; p++)
        upload(job.demeaned + p * dec_n, cpu[p].demeaned, 4 * dec_n);
    CU_LAUNCH(vqx_cuda_speed_covariance(&job, NULL));
    for (unsigned p = 0; p < PLANES; p++)
        bad += differ(job.cov + p * N * N, cpu[p].cov, N * N, "covariance", where, p);
    CHECK(!bad, "%s covariance: %u differences", where, bad);

    /* eigenvalues and QR */
    bad = 0;
    for (unsigned p = 0; p < PLANES; p++) upload(job.cov + p * N * N, cpu[p].cov, 4 * N * N);
    CU_LAUNCH(vqx_cuda_speed_factorise(&job, NULL));
    for (unsigned p = 0; p < PLANES; p++) {
        bad += differ(job.eig + p * N, cpu[p].eig, N, "eigenvalues", where, p);
        bad += differ(job.q + p * N * N, cpu[p].q, N * N, "Q", where, p);
        bad += differ(job.r + p * N * N, cpu[p].r, N * N, "R", where, p);
    }
    CHECK(!bad, "%s eigenvalues, Q, R: %u differences", where, bad);

    /* solve and variances, from the CPU's factors */
    for (unsigned p = 0; p < PLANES; p++) {
        upload(job.eig + p * N, cpu[p].eig, 4 * N);
        upload(job.q + p * N * N, cpu[p].q, 4 * N * N);
        upload(job.r + p * N * N, cpu[p].r, 4 * N * N);
    }
    CU_LAUNCH(vqx_cuda_speed_solve(&job, NULL));
    bad = differ_records(&job, cpu, "solve", where);
    CHECK(!bad, "%s solve: %u differences", where, bad);

    /* the whole chain from the raw samples */
    CU(cudaMemset(job.result, 0xA5, job.record_bytes * PLANES));
    CU_LAUNCH(vqx_cuda_speed_chain(&job, NULL));
    bad = differ_records(&job, cpu, "chain", where);
    CHECK(!bad, "%s chain: %u differences", where, bad);

    if (time_stages) time_chain(&job, where);

    unsigned singular = 0;
    for (unsigned p = 0; p < PLANES; p++) singular |= (unsigned)cpu[p].singular << p;
    printf("%s: checked (singular planes mask %x)\n", where, singular);

    for (unsigned p = 0; p <= PLANES; p++) {
        free(raw[p]);
        CU(cudaFree(d_raw[p]));
    }
    for (unsigned p = 0; p < PLANES; p++) cpu_plane_free(&cpu[p]);
    void *bufs[] = { job.image, job.scaled, job.dec, job.demeaned, job.cov, job.q, job.r,
                     job.eig, job.result, (void *)job.prescale.row_index,
                     (void *)job.prescale.row_weight, (void *)job.prescale.col_index,
                     (void *)job.prescale.col_weight };
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        if (bufs[i]) CU(cudaFree(bufs[i]));
    vqx_speed_plan_free(&plan);
}

int main(int argc, char **argv)
{
    skip_without_device();
    const bool small = argc > 1 && !strcmp(argv[1], "--small");
    time_stages = argc > 1 && !strcmp(argv[1], "--time");
    static const Case small_cases[] = {
        { 80, 80, 1.0, 1.0, VQX_RESAMPLE_NEAREST },      /* the smallest frame */
        { 97, 83, 1.0, 1.0, VQX_RESAMPLE_NEAREST },      /* odd */
        { 123, 171, 0.5, 1.0, VQX_RESAMPLE_NEAREST },
        { 101, 89, 360.0 / 97.0, 1.0, VQX_RESAMPLE_NEAREST }, /* the widest filters */
        { 96, 84, 1.5, 1.0005, VQX_RESAMPLE_NEAREST },   /* within 1e-3 of 1: no resample */
        { 171, 163, 1.0, 0.5, VQX_RESAMPLE_NEAREST },
        { 171, 163, 2.0, 0.5, VQX_RESAMPLE_BILINEAR },
        { 45, 41, 1.0, 2.0, VQX_RESAMPLE_BICUBIC },
        { 131, 117, 1.0, 0.7, VQX_RESAMPLE_LANCZOS4 },
        { 61, 57, 2.0 / 3.0, 1.5, VQX_RESAMPLE_BILINEAR },
        { 57, 61, 1.0, 1.5, VQX_RESAMPLE_LANCZOS4 },
        /* enough windows for a regular covariance */
        { 403, 397, 1.0, 1.0, VQX_RESAMPLE_NEAREST },
        { 289, 301, 1.0, 1.4, VQX_RESAMPLE_BILINEAR },
        { 611, 587, 3.0, 0.7, VQX_RESAMPLE_BICUBIC },
    };
    static const Case large_cases[] = {
        { 960, 540, 1.0, 1.0, VQX_RESAMPLE_NEAREST },
        { 1921, 1079, 1.0, 1.0, VQX_RESAMPLE_NEAREST },
        { 3840, 2160, 1.0, 1.0, VQX_RESAMPLE_NEAREST },
        { 1920, 1080, 1.0, 0.6, VQX_RESAMPLE_BILINEAR },
        { 1920, 1080, 3.0, 0.5, VQX_RESAMPLE_BICUBIC },
        { 1280, 720, 1.0, 1.7, VQX_RESAMPLE_LANCZOS4 },
    };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        for (size_t i = 0; i < sizeof(small_cases) / sizeof(small_cases[0]); i++) {
            rng = 0x9E3779B9u ^ (unsigned)(i * 7919u + d * 104729u);
            check_case(&small_cases[i], depths[d]);
        }
        if (small) continue;
        for (size_t i = 0; i < sizeof(large_cases) / sizeof(large_cases[0]); i++) {
            rng = 0x85EBCA6Bu ^ (unsigned)(i * 7919u + d * 104729u);
            check_case(&large_cases[i], depths[d]);
        }
    }
    return check_report();
}
