/*
 * Double sums that come out the same in any order, for float_psnr_simd.h
 * and float_moment_simd.h, at the width LANES (8: AVX2, 16: AVX-512) that
 * their including file sets, with avx2.h or avx512.h.
 *
 * The C adds float terms to a double one at a time. If every term is >= 0
 * and a multiple of a power of two u, and the total stays below 2^53 u,
 * every partial sum is a multiple of u below 2^53 u, so is exact, and any
 * order of additions gives the C's value. libvmaf's float conversion gives
 * multiples of 2^-8 (of 1 at 8 bits, 2^-2 at 10): the kernels check every
 * value for this rather than assume it, and give the row to the C when a
 * check fails (other inputs, or a total that outgrows 2^53 u).
 */
#ifndef VQX_X86_FLOAT_EXACT_SUM_H
#define VQX_X86_FLOAT_EXACT_SUM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#if LANES == 8
#define VECF __m256
#define VECD __m256d
#define VECI __m256i
#define VF(op) _mm256_##op##_ps
#define VD(op) _mm256_##op##_pd
#define VI(op) _mm256_##op
#define VOR_I(a, b) _mm256_or_si256(a, b)
#define VZERO_I() _mm256_setzero_si256()
#define VSTORE_I(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define CASTI(v) _mm256_castps_si256(v)
/* a float vector's halves as doubles */
#define WIDEN_LO(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define WIDEN_HI(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))
/* tail_mask's first floats, zeros after */
#define LOAD_TAIL(p, m) _mm256_maskload_ps(p, m)
#else
#define VECF __m512
#define VECD __m512d
#define VECI __m512i
#define VF(op) _mm512_##op##_ps
#define VD(op) _mm512_##op##_pd
#define VI(op) _mm512_##op
#define VOR_I(a, b) _mm512_or_si512(a, b)
#define VZERO_I() _mm512_setzero_si512()
#define VSTORE_I(p, v) _mm512_storeu_si512(p, v)
#define CASTI(v) _mm512_castps_si512(v)
#define WIDEN_LO(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define WIDEN_HI(v) _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1))
#define LOAD_TAIL(p, m) _mm512_maskz_loadu_ps(m, p)
#endif

/* The values seen: the OR of every value * 256 as an int32, and the OR of
 * the bits of what that int32 misses of value * 256 (0 when nothing). */
typedef struct ExactGrain {
    VECI bits, inexact;
} ExactGrain;

ALWAYS_INLINE void grain_add(ExactGrain *g, VECF v)
{
    const VECF q = VF(mul)(v, VF(set1)(256.0f));
    const VECI k = VI(cvtps_epi32)(q); /* out of range: INT32_MIN, which misses q */
    g->inexact = VOR_I(g->inexact, CASTI(VF(sub)(q, VI(cvtepi32_ps)(k))));
    g->bits = VOR_I(g->bits, k);
}

ALWAYS_INLINE uint32_t or_lanes(VECI v)
{
    uint32_t lane[LANES], all = 0;
    VSTORE_I(lane, v);
    for (int i = 0; i < LANES; i++) all |= lane[i];
    return all;
}

ALWAYS_INLINE double sum_lanes(VECD v)
{
    double lane[LANES / 2], sum = 0;
    VD(storeu)(lane, v);
    for (int i = 0; i < LANES / 2; i++) sum += lane[i];
    return sum;
}

/* Whether every value seen is a multiple of 2^-8 in int32 range (and >= 0
 * unless signed_ok); *exp: the largest e <= 0 with every value a multiple
 * of 2^e. */
ALWAYS_INLINE bool grain_exp(const ExactGrain *g, bool signed_ok, int *exp)
{
    const uint32_t bits = or_lanes(g->bits);
    if (or_lanes(g->inexact) || (!signed_ok && (bits >> 31))) return false;
    *exp = __builtin_ctz(bits | 256u) - 8;
    return true;
}

/* *total = acc + part, where part is the sum, in any order, of terms >= 0
 * that are multiples of 2^exp: true when that is also the C's chain of
 * acc plus each term, i.e. when acc >= +0 (-0 + no terms stays -0) is a
 * multiple of some 2^e, finest <= e <= exp, and the total is below
 * 2^(53 + e). */
static inline bool exact_total(double acc, double part, int exp, int finest, double *total)
{
    if (!(acc >= 0) || signbit(acc)) return false;
    int e = exp;
    while (e > finest && trunc(ldexp(acc, -e)) != ldexp(acc, -e)) e--;
    if (trunc(ldexp(acc, -e)) != ldexp(acc, -e)) return false;
    *total = acc + part;
    return *total < ldexp(1.0, 53 + e);
}

#endif
