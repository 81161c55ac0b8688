/*
 * Stage-level checks of psnr_hvs's CUDA kernels (cuda/psnr_hvs_kernels.h)
 * against the CPU's DSP entries in C (feature/psnr_hvs_dsp.h), float bits
 * for float bits: every block's 64 terms (vqx_psnr_hvs_block_terms), the
 * plane's chain of those terms (vqx_psnr_hvs_accumulate, also from the
 * CPU's terms, so that a difference points at one kernel) and the frame's
 * three totals from the samples. Weights: the extractor's own, luma and
 * both chroma tables (vqx_psnr_hvs_setup). Contents: random full range,
 * smooth with noise (most terms masked to 0), extremes (blocks of 0 and of
 * the maximum, a 0/max checkerboard, isolated extreme samples), equal
 * pictures, and a flat reference (variance 0); at 8, 10, 12 and 16 bits
 * (above 12 the 64-bit DCT), on sizes from one block (8x8) to 1920x1080,
 * odd ones included, with a row pitch wider than the row. Then the chain
 * alone on up to 3M terms of every magnitude, on small integers (ties) and
 * on uniform floats, of lengths around its 1024-term segments.
 * Exits 77 (meson's skip) without a CUDA device.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "cuda_check.h"
#include "xorshift.h"
#include "cuda/psnr_hvs_kernels.h"
#include "feature/psnr_hvs.h"

#define TERMS PSNR_HVS_TERMS
#define PITCH_PAD 5 /* samples after each device row: the kernels take a pitch */

enum Content { RANDOM, NOISY, EXTREMES, EQUAL, FLAT_REF, N_CONTENTS };
static const char *const content_name[N_CONTENTS] = { "random", "smooth+noise", "extremes",
                                                      "equal", "flat reference" };

/* Sample (x, y) of the reference (dis 0) or of the distorted picture. */
static unsigned sample_at(enum Content c, int dis, unsigned x, unsigned y, unsigned max)
{
    const unsigned smooth = (unsigned)((x * 37u + y * 23u) % (max + 1));
    switch (c) {
    case RANDOM: return rnd() % (max + 1);
    case NOISY: {
        const int noise = dis ? (int)(rnd() % 9) - 4 : 0;
        const int v = (int)smooth + noise;
        return v < 0 ? 0 : v > (int)max ? max : (unsigned)v;
    }
    case EXTREMES: {
        const unsigned kind = (x / 8 + y / 8 * 3) % 4;
        unsigned v = kind == 0 ? 0 : kind == 1 ? max : kind == 2 ? ((x ^ y) & 1) * max
                   : (rnd() % 13 == 0 ? max : 0);
        return dis ? (kind == 3 ? rnd() % (max + 1) : max - v) : v;
    }
    case EQUAL: return smooth;
    default: return dis ? rnd() % (max + 1) : max / 3;
    }
}

typedef struct Pair {
    unsigned w, h, bpc;
    size_t bps;
    uint8_t *ref, *dis; /* host, rows packed */
    void *d_ref, *d_dis; /* device, pitch (w + PITCH_PAD) samples */
    size_t pitch_bytes;
} Pair;

static void put(uint8_t *plane, size_t bps, size_t i, unsigned v)
{
    if (bps == 1) plane[i] = (uint8_t)v;
    else memcpy(plane + 2 * i, &(uint16_t){ (uint16_t)v }, 2);
}

static Pair make_pair(unsigned w, unsigned h, unsigned bpc, enum Content c)
{
    Pair p = { .w = w, .h = h, .bpc = bpc, .bps = bpc == 8 ? 1 : 2 };
    const unsigned max = (1u << bpc) - 1;
    p.ref = malloc((size_t)w * h * p.bps);
    p.dis = malloc((size_t)w * h * p.bps);
    if (!p.ref || !p.dis) exit(1);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const size_t i = (size_t)y * w + x;
            const unsigned r = sample_at(c, 0, x, y, max);
            put(p.ref, p.bps, i, r);
            put(p.dis, p.bps, i, c == EQUAL ? r : sample_at(c, 1, x, y, max));
        }
    p.pitch_bytes = (w + PITCH_PAD) * p.bps;
    p.d_ref = dev_alloc(p.pitch_bytes * h);
    p.d_dis = dev_alloc(p.pitch_bytes * h);
    CU(cudaMemcpy2D(p.d_ref, p.pitch_bytes, p.ref, w * p.bps, w * p.bps, h,
                    cudaMemcpyHostToDevice));
    CU(cudaMemcpy2D(p.d_dis, p.pitch_bytes, p.dis, w * p.bps, w * p.bps, h,
                    cudaMemcpyHostToDevice));
    return p;
}

static void free_pair(Pair *p)
{
    free(p->ref);
    free(p->dis);
    CU(cudaFree(p->d_ref));
    CU(cudaFree(p->d_dis));
}

/* The C's terms of every block of the pair, in chain order. */
static void cpu_terms(const PsnrHvsState *s, unsigned p, const Pair *pair, float *terms)
{
    const size_t stride = pair->w * pair->bps;
    for (unsigned by = 0; by < s->blocks_y[p]; by++) {
        const size_t row = (size_t)by * PSNR_HVS_STEP * stride;
        vqx_psnr_hvs_block_terms(pair->ref + row, (ptrdiff_t)stride, pair->dis + row,
                                 (ptrdiff_t)stride, s->blocks_x[p], pair->bpc, s->weight_t[p],
                                 s->mask_t[p], terms + (size_t)by * s->blocks_x[p] * TERMS);
    }
}

static unsigned float_differences(const float *gpu, const float *cpu, size_t n, const char *what,
                                  const char *where)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&gpu[i], &cpu[i], sizeof(float)) && !bad++)
            printf("  %s %s at block %zu term %zu: cuda %.9g cpu %.9g\n", where, what,
                   i / TERMS, i % TERMS, gpu[i], cpu[i]);
    return bad;
}

static void check_pair(const Pair *pair, const char *where)
{
    PsnrHvsState s;
    const VqxFrameFormat fmt = { .layout = VQX_PIX_444, .bpc = pair->bpc, .w = pair->w,
                                 .h = pair->h };
    if (vqx_psnr_hvs_setup(&s, &fmt, NULL)) {
        CHECK(0, "%s: cpu set-up", where);
        return;
    }
    const size_t n = (size_t)s.blocks_x[0] * s.blocks_y[0] * TERMS;
    float *cpu[3], *d_weights[3], *d_terms[3], cpu_total[3];
    void *d_segments[3];
    VqxCudaPsnrHvsPlane planes[3];
    for (unsigned p = 0; p < 3; p++) {
        cpu[p] = malloc(n * sizeof(float));
        if (!cpu[p]) exit(1);
        cpu_terms(&s, p, pair, cpu[p]);
        cpu_total[p] = vqx_psnr_hvs_accumulate(0.0f, cpu[p], n);
        d_weights[p] = dev_alloc(2 * TERMS * sizeof(float));
        CU(cudaMemcpy(d_weights[p], s.weight_t[p], TERMS * sizeof(float),
                      cudaMemcpyHostToDevice));
        CU(cudaMemcpy(d_weights[p] + TERMS, s.mask_t[p], TERMS * sizeof(float),
                      cudaMemcpyHostToDevice));
        d_terms[p] = dev_alloc(n * sizeof(float));
        d_segments[p] = dev_alloc(vqx_cuda_psnr_hvs_segment_bytes(n));
        planes[p] = (VqxCudaPsnrHvsPlane){
            .ref = pair->d_ref, .dis = pair->d_dis, .pitch_bytes = pair->pitch_bytes,
            .blocks_x = s.blocks_x[p], .blocks_y = s.blocks_y[p],
            .weight_t = d_weights[p], .mask_t = d_weights[p] + TERMS, .terms = d_terms[p],
            .segments = d_segments[p],
        };
    }
    char what[64];
    /* stage 1: the terms */
    for (unsigned p = 0; p < 3; p++) {
        CU_LAUNCH(vqx_cuda_psnr_hvs_terms(&planes[p], pair->bpc, NULL));
        float *gpu = host_copy(d_terms[p], n * sizeof(float));
        snprintf(what, sizeof(what), "terms (weights of plane %u)", p);
        const unsigned bad = float_differences(gpu, cpu[p], n, what, where);
        CHECK(!bad, "%s %s: %u differences", where, what, bad);
        free(gpu);
    }
    /* stage 2: the chain, from the CPU's terms: the whole plane, all but its
     * last term, and its first 37 */
    const size_t lengths[3] = { n, n - 1, n < 37 ? n : 37 };
    VqxCudaPsnrHvsChain chains[3];
    float want[3];
    for (unsigned k = 0; k < 3; k++) {
        CU(cudaMemcpy(d_terms[k], cpu[0], n * sizeof(float), cudaMemcpyHostToDevice));
        want[k] = vqx_psnr_hvs_accumulate(0.0f, cpu[0], lengths[k]);
        chains[k] = (VqxCudaPsnrHvsChain){ d_terms[k], lengths[k], d_segments[k] };
    }
    float *d_totals = dev_alloc(3 * sizeof(float));
    CU_LAUNCH(vqx_cuda_psnr_hvs_totals(chains, d_totals, NULL));
    float *got = host_copy(d_totals, 3 * sizeof(float));
    for (unsigned k = 0; k < 3; k++)
        CHECK(!memcmp(&got[k], &want[k], sizeof(float)),
              "%s chain of %zu terms: cuda %.9g cpu %.9g", where, lengths[k], got[k], want[k]);
    free(got);
    /* the frame: terms and chains from the samples */
    CU_LAUNCH(vqx_cuda_psnr_hvs(planes, pair->bpc, d_totals, NULL));
    got = host_copy(d_totals, 3 * sizeof(float));
    for (unsigned p = 0; p < 3; p++)
        CHECK(!memcmp(&got[p], &cpu_total[p], sizeof(float)),
              "%s frame total (weights of plane %u): cuda %.9g cpu %.9g", where, p, got[p],
              cpu_total[p]);
    free(got);
    CU(cudaFree(d_totals));
    for (unsigned p = 0; p < 3; p++) {
        free(cpu[p]);
        CU(cudaFree(d_weights[p]));
        CU(cudaFree(d_terms[p]));
        CU(cudaFree(d_segments[p]));
    }
}

enum TermKind { MAGNITUDES, INTEGERS, UNIFORM, N_TERM_KINDS };
static const char *const term_name[N_TERM_KINDS] = {
    "magnitudes 2^-40 to 2^40 and zeros", "integers 0 to 1000 (ties)", "uniform in [0, 1)" };

/* A term of the kind: magnitudes cross binades and reach past the total,
 * integers make many additions ties once the total's unit exceeds 1, and
 * uniform floats make long runs in one binade. */
static float random_term(enum TermKind kind)
{
    switch (kind) {
    case MAGNITUDES: {
        if (rnd() % 7 == 0) return 0.0f;
        const float mantissa = 1.0f + (float)(rnd() >> 9) * (1.0f / 8388608.0f);
        return ldexpf(mantissa, (int)(rnd() % 81) - 40);
    }
    case INTEGERS: return (float)(rnd() % 1001);
    default: return (float)(rnd() >> 8) * (1.0f / 16777216.0f);
    }
}

/* The chain alone, on terms where most additions round, of lengths around
 * its segments, from the start and from unaligned offsets. */
static void check_chains(enum TermKind kind)
{
    static const size_t lengths[] = { 1, 31, 32, 33, 511, 1023, 1024, 1025, 100003, 3000017 };
    const size_t most = lengths[sizeof(lengths) / sizeof(lengths[0]) - 1];
    float *terms = malloc(most * sizeof(float));
    if (!terms) exit(1);
    rng = 0x2545F491u + (unsigned)kind;
    for (size_t i = 0; i < most; i++) terms[i] = random_term(kind);
    float *d_terms = dev_upload(terms, most * sizeof(float));
    float *d_totals = dev_alloc(3 * sizeof(float));
    void *d_segments[3];
    for (unsigned k = 0; k < 3; k++) d_segments[k] = dev_alloc(vqx_cuda_psnr_hvs_segment_bytes(most));
    const int before = check_failed;
    for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
        const size_t n = lengths[i];
        const size_t offset[3] = { 0, 1, 7 };
        VqxCudaPsnrHvsChain chains[3];
        for (unsigned k = 0; k < 3; k++)
            chains[k] = (VqxCudaPsnrHvsChain){ d_terms + offset[k],
                                               n <= most - offset[k] ? n : most - offset[k],
                                               d_segments[k] };
        CU_LAUNCH(vqx_cuda_psnr_hvs_totals(chains, d_totals, NULL));
        float *got = host_copy(d_totals, 3 * sizeof(float));
        for (unsigned k = 0; k < 3; k++) {
            const float want = vqx_psnr_hvs_accumulate(0.0f, terms + offset[k], chains[k].n);
            CHECK(!memcmp(&got[k], &want, sizeof(float)),
                  "chain of %zu terms (%s) from %zu: cuda %.9g cpu %.9g", chains[k].n,
                  term_name[kind], offset[k], got[k], want);
        }
        free(got);
    }
    printf("%s chains of %s\n", check_failed == before ? "ok  " : "FAIL", term_name[kind]);
    CU(cudaFree(d_terms));
    CU(cudaFree(d_totals));
    for (unsigned k = 0; k < 3; k++) CU(cudaFree(d_segments[k]));
    free(terms);
}

int main(void)
{
    skip_without_device();
    static const unsigned sizes[][2] = { { 8, 8 },    { 15, 9 },    { 16, 16 },  { 37, 35 },
                                         { 300, 41 }, { 1290, 36 }, { 97, 530 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned di = 0; di < sizeof(depths) / sizeof(depths[0]); di++)
            for (int c = 0; c < N_CONTENTS; c++) {
                const unsigned w = sizes[si][0], h = sizes[si][1], bpc = depths[di];
                rng = 0x9E3779B9u ^ (si * 7919u + di * 104729u + (unsigned)c * 1299709u);
                Pair pair = make_pair(w, h, bpc, (enum Content)c);
                char where[128];
                snprintf(where, sizeof(where), "%ux%u %u-bit %s", w, h, bpc, content_name[c]);
                const int before = check_failed;
                check_pair(&pair, where);
                printf("%s %s\n", check_failed == before ? "ok  " : "FAIL", where);
                fflush(stdout);
                free_pair(&pair);
            }
    /* a full-HD plane: long chains, where the total dwarfs most terms */
    for (unsigned bpc = 8; bpc <= 16; bpc += 8) {
        rng = 0x85EBCA6Bu + bpc;
        Pair pair = make_pair(1920, 1080, bpc, RANDOM);
        char where[128];
        snprintf(where, sizeof(where), "1920x1080 %u-bit random", bpc);
        const int before = check_failed;
        check_pair(&pair, where);
        printf("%s %s\n", check_failed == before ? "ok  " : "FAIL", where);
        free_pair(&pair);
    }
    for (int k = 0; k < N_TERM_KINDS; k++) check_chains((enum TermKind)k);
    return check_report();
}
