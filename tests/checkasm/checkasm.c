/*
 * checkasm [--bench] [--seed=N]: checks every SIMD entry this CPU can run
 * against the C (see checkasm.h); exits 1 on any difference. ISA levels
 * the CPU lacks are named and skipped.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm.h"
#include "cpu.h"

static uint64_t rng_state;
static bool bench;
static unsigned n_checked, n_failed;

uint32_t checkasm_rand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

void checkasm_fail(const char *func, const char *isa, const char *fmt, ...)
{
    va_list ap;
    printf("FAIL %s (%s): ", func, isa);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

void checkasm_checked(const char *func, const char *isa, bool ok)
{
    n_checked++;
    if (!ok) n_failed++;
    printf("  %-28s %-10s %s\n", func, isa, ok ? "ok" : "FAILED");
}

bool checkasm_benching(void)
{
    return bench;
}

void checkasm_report_bench(const char *func, const char *isa, const char *what,
                           double ref_ns, double new_ns)
{
    printf("  bench %-26s %-10s %-18s c %10.0f ns  %s %10.0f ns  x%.2f\n", func, isa, what,
           ref_ns, isa, new_ns, ref_ns / new_ns);
}

double checkasm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *allocated(void *p)
{
    if (!p) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(2);
    }
    return p;
}

void *checkasm_malloc(size_t bytes)
{
    return allocated(malloc(bytes));
}

CheckasmBuf checkasm_buf_alloc(size_t bytes, unsigned offset)
{
    CheckasmBuf b = { allocated(aligned_alloc(64, (bytes + offset + 63) & ~(size_t)63)), NULL };
    b.p = (uint8_t *)b.mem + offset;
    return b;
}

void *checkasm_row_alloc(CheckasmBuf *b, size_t w, unsigned size, unsigned margin)
{
    const size_t bytes = (w + 2 * (size_t)margin) * size;
    *b = checkasm_buf_alloc(bytes, size * (checkasm_rand() % (64 / size)));
    memset(b->p, 0xcd, bytes);
    return b->p + (size_t)margin * size;
}

static const unsigned big_widths[7] = { 127, 128, 129, 255, 513, 1000, 1921 };

unsigned checkasm_width(unsigned i, unsigned first)
{
    const unsigned n_small = 71 - first;
    return i < n_small ? i + first : big_widths[i - n_small];
}

const unsigned checkasm_bpc[CHECKASM_N_BPC] = { 8, 9, 10, 12, 16 };

static int64_t element(CheckasmType type, const void *a, long i, bool *is_signed)
{
    *is_signed = type == CHECKASM_I16 || type == CHECKASM_I32;
    switch (type) {
    case CHECKASM_I16: return ((const int16_t *)a)[i];
    case CHECKASM_U16: return ((const uint16_t *)a)[i];
    case CHECKASM_I32: return ((const int32_t *)a)[i];
    case CHECKASM_U32: return ((const uint32_t *)a)[i];
    default: return (int64_t)((const uint64_t *)a)[i];
    }
}

bool checkasm_compare(const char *func, const char *isa, const char *array, CheckasmType type,
                      const void *ref, const void *new, long w, long margin, const char *where)
{
    for (long i = -margin; i < w + margin; i++) {
        bool is_signed;
        const int64_t x = element(type, ref, i, &is_signed), y = element(type, new, i, &is_signed);
        if (x == y) continue;
        const char *outside = i < 0 || i >= w ? " (outside the row)" : "";
        if (is_signed)
            checkasm_fail(func, isa, "%s, %s[%ld]: c %lld, simd %lld%s", where, array, i,
                          (long long)x, (long long)y, outside);
        else
            checkasm_fail(func, isa, "%s, %s[%ld]: c %llu, simd %llu%s", where, array, i,
                          (unsigned long long)x, (unsigned long long)y, outside);
        return false;
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double checkasm_median(double *t, unsigned n)
{
    qsort(t, n, sizeof(t[0]), cmp_double);
    return t[n / 2];
}

/* libvmaf's cpumask semantics: a set bit removes that flag, each on its own. */
static bool check_cpumask(unsigned detected)
{
    bool ok = vqx_cpu_flags(63) == 0 && vqx_cpu_flags(~0u) == 0;
    for (unsigned m = 0; m < 64; m++) ok = ok && vqx_cpu_flags(m) == (detected & ~m);
    if (!ok) printf("FAIL vqx_cpu_flags: a mask does not remove exactly its bits\n");
    return ok;
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bench")) {
            bench = true;
        } else if (!strncmp(argv[i], "--seed=", 7)) {
            seed = strtoull(argv[i] + 7, NULL, 0);
        } else {
            fprintf(stderr, "usage: checkasm [--bench] [--seed=N]\n");
            return 2;
        }
    }
    rng_state = seed ? seed : 1;
    const unsigned detected = vqx_cpu_flags(0);
    printf("checkasm: seed %" PRIu64 ", cpu flags 0x%x\n", seed, detected);
    bool ok = check_cpumask(detected);

    static const struct { const char *isa; unsigned flag; } isas[] = {
        { "avx2", VQX_CPU_AVX2 },
        { "avx512", VQX_CPU_AVX512 },
        { "avx512icl", VQX_CPU_AVX512ICL },
    };
    /* Each level adds its flag and those below it: the SSE levels have no
     * kernels, and are in every level the CPU has. */
    unsigned below = 0, upto = VQX_CPU_SSE2 | VQX_CPU_SSSE3 | VQX_CPU_SSE41;
    unsigned skipped = 0;
    for (unsigned i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        upto |= isas[i].flag;
        if (!(detected & isas[i].flag)) {
            printf("%s: not supported by this CPU, skipped\n", isas[i].isa);
            skipped++;
            continue;
        }
        const CheckasmLevel level = { isas[i].isa, detected & upto, below };
        printf("%s:\n", level.isa);
        const unsigned before = n_checked;
        checkasm_check_vif(&level);
        checkasm_check_motion(&level);
        checkasm_check_adm(&level);
        checkasm_check_float_adm(&level);
        checkasm_check_float_motion(&level);
        checkasm_check_float_psnr(&level);
        checkasm_check_float_ansnr(&level);
        checkasm_check_float_moment(&level);
        checkasm_check_float_vif(&level);
        checkasm_check_ssim(&level);
        checkasm_check_cambi(&level);
        checkasm_check_psnr(&level);
        checkasm_check_psnr_hvs(&level);
        checkasm_check_ssimulacra2(&level);
        checkasm_check_float_picture(&level);
        checkasm_check_resample(&level);
        checkasm_check_speed(&level);
        checkasm_check_ciede(&level);
        if (n_checked == before) printf("  no entry at this level\n");
        below = level.flags;
    }
    printf("checkasm: %u functions checked, %u failed, %u ISA levels skipped\n", n_checked,
           n_failed, skipped);
    return ok && !n_failed ? 0 : 1;
}
