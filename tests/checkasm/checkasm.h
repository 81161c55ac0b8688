/*
 * checkasm (after dav1d's): every SIMD entry of a DSP table against the C
 * entry of the same table, on the same random and extreme inputs, compared
 * exactly; --bench times both. A module (vif.c) gets the table at the ISA
 * level under test and the one below it, and checks the entries that level
 * changed.
 */
#ifndef VQX_CHECKASM_H
#define VQX_CHECKASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CheckasmLevel {
    const char *isa;  /* "avx2" */
    unsigned flags;   /* cpu.h flags of this level and the levels below it */
    unsigned below;   /* the flags of the level below (0: the C) */
} CheckasmLevel;

/* Random 32-bit words, reproducible from the seed (--seed). */
uint32_t checkasm_rand(void);
/* Records a failure (printed with the function, ISA and where). */
void checkasm_fail(const char *func, const char *isa, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records that func at isa was checked (for the summary). */
void checkasm_checked(const char *func, const char *isa, bool ok);
bool checkasm_benching(void);
/* Prints the median time per call of ref and new and their ratio. */
void checkasm_report_bench(const char *func, const char *isa, const char *what,
                           double ref_ns, double new_ns);
double checkasm_now_ns(void);

/* Modules. */
void checkasm_check_vif(const CheckasmLevel *level);
void checkasm_check_motion(const CheckasmLevel *level);
void checkasm_check_adm(const CheckasmLevel *level);

#endif
