/*
 * Integer VIF's AVX-512 stages with VNNI (the AVX512ICL level): vif_avx512.c's,
 * each madd and add of the filters one vpdpwssd, which wraps mod 2^32 as the
 * add does (its saturating twin is vpdpwssds), so every sum is the same.
 */
#define NAME(f) f##_avx512icl
#include "x86/vif_avx512_isa.h"
#define VIF_DPWSSD(acc, a, b) _mm512_dpwssd_epi32(acc, a, b)
#include "x86/vif_simd.h"
