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

/* ---- helpers of the modules ---- */

/* malloc that exits 2 when out of memory. */
void *checkasm_malloc(size_t bytes);

/* A buffer whose start p is `offset` bytes past a 64-byte boundary;
 * free(mem) frees it. */
typedef struct CheckasmBuf {
    void *mem;
    uint8_t *p;
} CheckasmBuf;

CheckasmBuf checkasm_buf_alloc(size_t bytes, unsigned offset);

/* A row of w elements of `size` bytes with `margin` canary elements (bytes
 * 0xcd) on either side, starting a random multiple of size past a 64-byte
 * boundary; returns element 0. */
void *checkasm_row_alloc(CheckasmBuf *b, size_t w, unsigned size, unsigned margin);

/* The widths checked: first..70, then some large ones. */
#define CHECKASM_N_WIDTHS(first) (71u - (first) + 7u)
unsigned checkasm_width(unsigned i, unsigned first);

/* The bit depths checked. */
#define CHECKASM_N_BPC 5
extern const unsigned checkasm_bpc[CHECKASM_N_BPC];

typedef enum CheckasmType {
    CHECKASM_I16,
    CHECKASM_U16,
    CHECKASM_I32,
    CHECKASM_U32,
    CHECKASM_U64,
} CheckasmType;

/* Compares elements -margin .. w + margin - 1 of ref and new (arrays of
 * `type`); records the first difference as a failure of func, naming
 * `array` and `where`. */
bool checkasm_compare(const char *func, const char *isa, const char *array, CheckasmType type,
                      const void *ref, const void *new, long w, long margin, const char *where);

/* Timings per bench: checkasm_median() sorts them and returns the median. */
#define CHECKASM_BENCH_RUNS 31
double checkasm_median(double *t, unsigned n);

/* Modules. */
void checkasm_check_vif(const CheckasmLevel *level);
void checkasm_check_motion(const CheckasmLevel *level);
void checkasm_check_adm(const CheckasmLevel *level);
void checkasm_check_float_adm(const CheckasmLevel *level);
void checkasm_check_float_motion(const CheckasmLevel *level);
void checkasm_check_float_psnr(const CheckasmLevel *level);
void checkasm_check_float_ansnr(const CheckasmLevel *level);
void checkasm_check_float_moment(const CheckasmLevel *level);
void checkasm_check_float_vif(const CheckasmLevel *level);
void checkasm_check_ssim(const CheckasmLevel *level);
void checkasm_check_cambi(const CheckasmLevel *level);
void checkasm_check_psnr(const CheckasmLevel *level);
void checkasm_check_psnr_hvs(const CheckasmLevel *level);
void checkasm_check_ssimulacra2(const CheckasmLevel *level);
void checkasm_check_float_picture(const CheckasmLevel *level);
void checkasm_check_resample(const CheckasmLevel *level);
void checkasm_check_speed(const CheckasmLevel *level);
void checkasm_check_ciede(const CheckasmLevel *level);

#endif
