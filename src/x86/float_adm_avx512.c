/* Float ADM's decoupling in AVX-512: 16 outputs a step, by float_adm_simd.h;
 * its comparisons give mask registers. */
#include <immintrin.h>

#define VECF __m512
#define LANES 16
#define VF(op) _mm512_##op##_ps
#define VECD __m512d
#define VD(op) _mm512_##op##_pd
#define PS_LO_PD(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define PS_HI_PD(v) _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1))
#define PD_JOIN_PS(lo, hi) \
    _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1)
#define VECI __m512i
#define VI(op) _mm512_##op##_epi32
#define IAND _mm512_and_si512
#define IOR _mm512_or_si512
#define CAST_I _mm512_castps_si512
#define CAST_F _mm512_castsi512_ps
#define GATHER(table, index) _mm512_i32gather_epi32(index, (const int *)(table), 4)
#define MASK __mmask16
#define CMP _mm512_cmp_ps_mask
#define MAND(a, b) ((__mmask16)((a) & (b)))
#define MOR(a, b) ((__mmask16)((a) | (b)))
#define BLEND(m, a, b) _mm512_mask_blend_ps(m, a, b)
#define MBITS(m) (unsigned)(m)
#define NAME(f) f##_avx512

#include "x86/float_adm_simd.h"
