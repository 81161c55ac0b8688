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
        if (n_checked == before) printf("  no entry at this level\n");
        below = level.flags;
    }
    printf("checkasm: %u functions checked, %u failed, %u ISA levels skipped\n", n_checked,
           n_failed, skipped);
    return ok && !n_failed ? 0 : 1;
}
