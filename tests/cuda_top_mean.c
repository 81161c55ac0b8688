/*
 * Checks of the device's top-k mean (src/cuda/top_mean_kernels.cu) against
 * vqx_mean_of_top on copies of the same arrays: CAMBI-like contrast values
 * (many zeros, many ties), values whose sums pass 2^28 by far (so that the
 * double sum rounds and its order matters), tiny and mixed magnitudes,
 * sorted, reversed, all equal, all zero; n from 1 to 3840x2160, k from 1 to
 * n. Each case compares the reordered values (the select) and the mean's
 * double bits (the sum), and prints one line. One case runs as a captured
 * graph, replayed on fresh data, and is timed (at 1920x1080 and the largest
 * size).
 * usage: cuda_top_mean [largest n]. Exits 77 without a CUDA device.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "cuda_check.h"
#include "cuda/top_mean.h"
#include "feature/top_mean.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* CAMBI's contrast: (float)(w * p0 * p1) * r[p0 + p1], r[n] = 1/n to 9
 * digits (src/feature/cambi.c), with counts p0, p1 of one 65x65 window. */
#define WINDOW_AREA (65 * 65)
static float reciprocal[WINDOW_AREA + 1];
static const int weights[] = { 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                               8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };

static float contrast(unsigned zero_percent, unsigned most)
{
    if (rnd() % 100 < zero_percent) return 0.0f;
    const unsigned p0 = 1 + rnd() % most;
    unsigned p1 = 1 + rnd() % most;
    if (p0 + p1 > WINDOW_AREA) p1 = WINDOW_AREA - p0;
    if (!p1) p1 = 1;
    const int w = weights[rnd() % 32];
    return (float)(w * (int)(p0 * p1)) * reciprocal[p0 + p1];
}

enum Content { CAMBI, CAMBI_BIG, CAMBI_SCALED, CAMBI_SMALL, TIES, SORTED, REVERSED, EQUAL, ZERO,
               TINY, MIXED, N_CONTENTS };
static const char *const content_name[N_CONTENTS] = {
    "cambi", "cambi-big-sums", "cambi-x65536", "cambi-small", "ties", "sorted", "reversed",
    "equal", "zero", "tiny", "mixed-magnitudes" };

static void fill(float *v, unsigned n, enum Content c)
{
    const unsigned zeros = rnd() % 90, most = 1 + rnd() % 2000;
    const unsigned distinct = 1 + rnd() % 6;
    for (unsigned i = 0; i < n; i++) {
        switch (c) {
        case CAMBI: v[i] = contrast(zeros, most); break;
        /* counts up to the window: values in the thousands, sums far past 2^28 */
        case CAMBI_BIG: v[i] = contrast(zeros / 3, WINDOW_AREA - 1); break;
        /* rounding from small n on */
        case CAMBI_SCALED: v[i] = contrast(zeros, most) * 65536.0f; break;
        case CAMBI_SMALL: v[i] = contrast(zeros, 8); break;
        case TIES: v[i] = (float)(rnd() % distinct) * 1000.25f; break;
        case SORTED: v[i] = (float)(i % 70000) * 0.75f + 0.25f; break;
        case REVERSED: v[i] = (float)((n - i) % 70000) * 0.75f + 0.25f; break;
        case EQUAL: v[i] = 3000.125f; break;
        case ZERO: v[i] = 0.0f; break;
        case TINY: v[i] = ldexpf((float)(rnd() & 0xffffff), -60 - (int)(rnd() % 20)); break;
        default: v[i] = ldexpf((float)(rnd() & 0xffffff), (int)(rnd() % 40) - 40); break;
        }
    }
}

static float *dev_values, *dev_pristine;
static void *dev_scratch;
static double *dev_mean;
static float *host_cpu, *host_dev;

/* One case: the device's reordering and mean against the CPU's. */
static void check_case(unsigned n, double fraction, enum Content c)
{
    const unsigned k = (unsigned)vqx_top_count((int)n, fraction);
    fill(host_cpu, n, c);
    CU(cudaMemcpy(dev_values, host_cpu, n * sizeof(float), cudaMemcpyHostToDevice));
    const double want = vqx_mean_of_top(host_cpu, (int)n, fraction);
    CU((cudaError_t)vqx_cuda_top_mean(dev_values, n, k, dev_scratch, dev_mean, NULL));
    CU(cudaDeviceSynchronize());
    double got;
    CU(cudaMemcpy(&got, dev_mean, sizeof(got), cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(host_dev, dev_values, n * sizeof(float), cudaMemcpyDeviceToHost));
    unsigned first_diff = n;
    for (unsigned i = 0; i < n && first_diff == n; i++)
        if (memcmp(&host_cpu[i], &host_dev[i], sizeof(float))) first_diff = i;
    const int same_mean = !memcmp(&want, &got, sizeof(got));
    printf("%-4s %-16s n=%-8u k=%-8u cpu %.17g dev %.17g%s\n",
           same_mean && first_diff == n ? "ok" : "FAIL", content_name[c], n, k, want, got,
           first_diff == n ? "" : " (order differs)");
    CHECK(first_diff == n, "%s n=%u k=%u: order differs at %u: %.9g vs %.9g", content_name[c], n,
          k, first_diff, first_diff < n ? host_cpu[first_diff] : 0,
          first_diff < n ? host_dev[first_diff] : 0);
    CHECK(same_mean, "%s n=%u k=%u: mean %.17g, want %.17g", content_name[c], n, k, got, want);
}

/* The launches captured once and replayed on new data of the same size, as
 * the CAMBI twin does; at the largest size the replay is timed too. */
static void check_graph(unsigned n, double fraction)
{
    const unsigned k = (unsigned)vqx_top_count((int)n, fraction);
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CU(cudaStreamCreate(&stream));
    CU(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    CU(cudaMemcpyAsync(dev_values, dev_pristine, n * sizeof(float), cudaMemcpyDeviceToDevice,
                       stream));
    CU((cudaError_t)vqx_cuda_top_mean(dev_values, n, k, dev_scratch, dev_mean, stream));
    CU(cudaStreamEndCapture(stream, &graph));
    CU(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 3; replay++) {
        fill(host_cpu, n, replay == 1 ? CAMBI : CAMBI_BIG);
        CU(cudaMemcpy(dev_pristine, host_cpu, n * sizeof(float), cudaMemcpyHostToDevice));
        CU(cudaGraphLaunch(exec, stream));
        CU(cudaStreamSynchronize(stream));
        const double want = vqx_mean_of_top(host_cpu, (int)n, fraction);
        double got;
        CU(cudaMemcpy(&got, dev_mean, sizeof(got), cudaMemcpyDeviceToHost));
        const int same = !memcmp(&want, &got, sizeof(got));
        printf("%-4s graph replay %d n=%-8u k=%-8u cpu %.17g dev %.17g\n", same ? "ok" : "FAIL",
               replay, n, k, want, got);
        CHECK(same, "graph replay %d n=%u: mean %.17g, want %.17g", replay, n, got, want);
    }
    cudaEvent_t t0, t1;
    CU(cudaEventCreate(&t0));
    CU(cudaEventCreate(&t1));
    const int reps = 20;
    CU(cudaEventRecord(t0, stream));
    for (int r = 0; r < reps; r++) CU(cudaGraphLaunch(exec, stream));
    CU(cudaEventRecord(t1, stream));
    CU(cudaEventSynchronize(t1));
    float ms = 0;
    CU(cudaEventElapsedTime(&ms, t0, t1));
    printf("time n=%u k=%u: %.3f ms per replay (with a %zu-byte device copy)\n", n, k, ms / reps,
           n * sizeof(float));
    CU(cudaEventDestroy(t0));
    CU(cudaEventDestroy(t1));
    CU(cudaGraphExecDestroy(exec));
    CU(cudaGraphDestroy(graph));
    CU(cudaStreamDestroy(stream));
}

int main(int argc, char **argv)
{
    skip_without_device();
    for (unsigned p = 1; p <= WINDOW_AREA; p++) {
        char digits[32];
        snprintf(digits, sizeof(digits), "%.9g", 1.0 / p);
        reciprocal[p] = strtof(digits, NULL);
    }
    const unsigned largest = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3840 * 2160;
    host_cpu = malloc(largest * sizeof(float));
    host_dev = malloc(largest * sizeof(float));
    CU(cudaMalloc((void **)&dev_values, largest * sizeof(float)));
    CU(cudaMalloc((void **)&dev_pristine, largest * sizeof(float)));
    CU(cudaMalloc(&dev_scratch, vqx_cuda_top_mean_scratch_bytes(largest)));
    CU(cudaMalloc((void **)&dev_mean, sizeof(double)));
    if (!host_cpu || !host_dev) return 1;

    static const double fractions[] = { 0.0, 0.0001, 0.01, 0.3, 0.6, 0.9, 0.999, 1.0 };
    const unsigned n_fractions = sizeof(fractions) / sizeof(fractions[0]);
    static const unsigned small[] = { 1, 2, 3, 4, 5, 7, 31, 32, 33, 100, 255, 256, 257, 1000,
                                      4096, 10007, 32768, 32769, 32770, 40000, 65536, 100003 };
    for (unsigned s = 0; s < sizeof(small) / sizeof(small[0]) && small[s] <= largest; s++)
        for (unsigned c = 0; c < N_CONTENTS; c++)
            for (unsigned f = 0; f < n_fractions; f++) check_case(small[s], fractions[f], c);
    /* larger: CAMBI's default 0.6 on every content, the extremes on CAMBI's */
    static const unsigned large[] = { 262147, 1u << 20, 1920 * 1080, 3840 * 2160 };
    for (unsigned s = 0; s < sizeof(large) / sizeof(large[0]) && large[s] <= largest; s++) {
        for (unsigned c = 0; c < N_CONTENTS; c++) check_case(large[s], 0.6, c);
        for (unsigned f = 0; f < n_fractions; f++)
            if (fractions[f] != 0.6) check_case(large[s], fractions[f], CAMBI_BIG);
    }
    /* many small random cases: sizes, fractions and contents mixed */
    for (int t = 0; t < 300; t++) {
        const unsigned n = 1 + rnd() % (t % 10 ? 3000 : 70000);
        if (n <= largest)
            check_case(n, fractions[rnd() % n_fractions] * (0.5 + (rnd() % 1000) / 1000.0),
                       (enum Content)(rnd() % N_CONTENTS));
    }
    if (1920 * 1080 < largest) check_graph(1920 * 1080, 0.6);
    check_graph(largest, 0.6);

    CU(cudaFree(dev_values));
    CU(cudaFree(dev_pristine));
    CU(cudaFree(dev_scratch));
    CU(cudaFree(dev_mean));
    free(host_cpu);
    free(host_dev);
    return check_report();
}
