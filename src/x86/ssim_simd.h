/*
 * The SSIM stages at one vector width, with the C's floats and doubles:
 * included by ssim_avx2.c and ssim_avx512.c, which first define
 *   NAME(f)              f with the ISA's suffix
 *   VF, FL               the float vector and its lanes
 *   VD, DL               the double vector, FL / 2 lanes
 *   HF                   the float vector of DL lanes
 *   F_LOAD, F_STORE, F_SET1, F_MUL   on VF
 *   F_LO(v), F_HI(v)     the low and high DL floats of v as doubles
 *   F_PACK(lo, hi)       two VD rounded to floats, lo in the low half
 *   F_DEINT(v)           v's even lanes in the low half, odd in the high
 *   D_ZERO, D_SET1, D_ADD, D_MUL, D_DIV, D_SQRT   on VD
 *   D_TO_H(d)            d rounded to floats
 *   D_PART4(v, i)        doubles 4 i .. 4 i + 3 of v as __m256d
 *   H_LOAD, H_STORE, H_SET1, H_ZERO, H_ADD, H_SUB, H_MUL, H_DIV, H_MAX,
 *   H_AND, H_ANDNOT, H_LT, H_LE      on HF (comparisons give lane masks)
 *   H_TO_D(v)            v as doubles
 *   VFI, FI_LOAD(p)      the int32 vector of FL lanes and its load
 *   Piece, PIECE         what one permute picks from, PIECE floats;
 *                        load_piece(p, n) reads p[0 .. n) (n <= PIECE, the
 *                        rest 0), permute_piece(pc, idx) gives lane i the
 *                        float idx[i] mod PIECE of pc
 *   FMask, piece_mask(idx, k), select_lanes(a, b, m)   lanes whose idx is
 *                        in piece k; b in those lanes, a elsewhere
 *
 * Exactness: every vector lane is one output and does that output's
 * operations in the C's order and types (float products, double sums from
 * 0.0, float rounding where the C stores a float); no FMA (the intrinsics
 * used are separate multiplies and adds, and the build has
 * -ffp-contract=off). Division and square root are correctly rounded in
 * SSE/AVX as in the C. The SSIM sums over the plane stay in position order:
 * the four running sums sit in one __m256d and each position's four terms
 * are added to it in turn, which is the C's four scalar additions. Borders
 * of the decimators (mirrored columns) and short rows go to the C's own
 * per-sample code.
 */
#ifndef VQX_X86_SSIM_SIMD_H
#define VQX_X86_SSIM_SIMD_H

#include "feature/ssim_dsp.h"
#include "x86/ssim.h"

/* Output chunks of the low-pass done together, so that their sums' long
 * dependency chains overlap. */
#define LPF_CHUNKS 2

SSIM_FILTER(NAME(vqx_ssim_filter))
{
    if (n < FL) {
        vqx_ssim_filter_c(rows, n, out);
        return;
    }
    VF taps[VQX_SSIM_WINDOW];
    for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) taps[k] = F_SET1(vqx_ssim_gauss[k]);
    /* the last chunk overlaps the one before and rewrites equal values */
    for (unsigned x = 0;; x += FL) {
        if (x > n - FL) x = n - FL;
        VD lo = D_ZERO(), hi = D_ZERO();
        for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) {
            const VF p = F_MUL(F_LOAD(rows[k] + x), taps[k]);
            lo = D_ADD(lo, F_LO(p));
            hi = D_ADD(hi, F_HI(p));
        }
        F_STORE(out + x, F_PACK(lo, hi));
        if (x == n - FL) break;
    }
}

/* sums + the terms of 4 positions, in position order: the 4 x 4 transpose
 * of (lcs, l, c, s) gives each position's terms as one vector. */
ALWAYS_INLINE __m256d add4(__m256d sums, __m256d lcs, __m256d l, __m256d c, __m256d s)
{
    const __m256d t0 = _mm256_unpacklo_pd(lcs, l), t1 = _mm256_unpackhi_pd(lcs, l);
    const __m256d t2 = _mm256_unpacklo_pd(c, s), t3 = _mm256_unpackhi_pd(c, s);
    sums = _mm256_add_pd(sums, _mm256_permute2f128_pd(t0, t2, 0x20));
    sums = _mm256_add_pd(sums, _mm256_permute2f128_pd(t1, t3, 0x20));
    sums = _mm256_add_pd(sums, _mm256_permute2f128_pd(t0, t2, 0x31));
    return _mm256_add_pd(sums, _mm256_permute2f128_pd(t1, t3, 0x31));
}

SSIM_SCORE(NAME(vqx_ssim_score))
{
    const HF zero = H_ZERO();
    const HF c1 = H_SET1(vqx_ssim_c1), c2 = H_SET1(vqx_ssim_c2), c3 = H_SET1(vqx_ssim_c3);
    const VD c1d = D_SET1(vqx_ssim_c1), c2d = D_SET1(vqx_ssim_c2), two = D_SET1(2.0);
    __m256d acc = _mm256_loadu_pd(sums);
    unsigned x = 0;
    for (; x + DL <= n; x += DL) {
        const HF mu_ref = H_LOAD(st[VQX_SSIM_MU_REF] + x);
        const HF mu_cmp = H_LOAD(st[VQX_SSIM_MU_CMP] + x);
        /* max(0, v) is the C's 0 > v ? 0 : v, signed zeros included */
        const HF var_ref = H_MAX(zero, H_SUB(H_LOAD(st[VQX_SSIM_SQ_REF] + x), H_MUL(mu_ref, mu_ref)));
        const HF var_cmp = H_MAX(zero, H_SUB(H_LOAD(st[VQX_SSIM_SQ_CMP] + x), H_MUL(mu_cmp, mu_cmp)));
        const HF covar = H_SUB(H_LOAD(st[VQX_SSIM_CROSS] + x), H_MUL(mu_ref, mu_cmp));
        const HF sd_product = D_TO_H(D_SQRT(H_TO_D(H_MUL(var_ref, var_cmp))));

        const VD l_num = D_ADD(D_MUL(D_MUL(two, H_TO_D(mu_ref)), H_TO_D(mu_cmp)), c1d);
        const HF l_den = H_ADD(H_ADD(H_MUL(mu_ref, mu_ref), H_MUL(mu_cmp, mu_cmp)), c1);
        const VD l = D_DIV(l_num, H_TO_D(l_den));
        const VD c_num = D_ADD(D_MUL(two, H_TO_D(sd_product)), c2d);
        const VD c = D_DIV(c_num, H_TO_D(H_ADD(H_ADD(var_ref, var_cmp), c2)));
        const HF zeroed = H_AND(H_LT(covar, zero), H_LE(sd_product, zero));
        const HF covar_kept = H_ANDNOT(zeroed, covar);
        const VD s = H_TO_D(H_DIV(H_ADD(covar_kept, c3), H_ADD(sd_product, c3)));
        const VD lcs = D_MUL(D_MUL(l, c), s);
        for (unsigned i = 0; i < DL / 4; i++)
            acc = add4(acc, D_PART4(lcs, i), D_PART4(l, i), D_PART4(c, i), D_PART4(s, i));
    }
    _mm256_storeu_pd(sums, acc);
    if (x < n) {
        const float *rest[VQX_SSIM_N_STATS];
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) rest[q] = st[q] + x;
        vqx_ssim_score_c(rest, n - x, sums);
    }
}

/* Box: each lane one output. The f taps of one row of DL outputs are DL f
 * consecutive columns, read as pieces and transposed by permutes: the
 * vector of tap pair t holds tap 2 t of each output in its low half and
 * tap 2 t + 1 in its high half. Outputs whose box leaves the plane's
 * columns, and factors above BOX_MAX_FACTOR, are the C's. */
#define BOX_MAX_FACTOR 16
#define BOX_MAX_PAIRS (BOX_MAX_FACTOR / 2)
#define BOX_MAX_PIECES ((DL * BOX_MAX_FACTOR + PIECE - 1) / PIECE)

typedef struct BoxPerm {
    unsigned pairs, pieces;
    VFI idx[BOX_MAX_PAIRS];
    FMask in_piece[BOX_MAX_PAIRS][BOX_MAX_PIECES];
} BoxPerm;

static void box_perm(BoxPerm *bp, unsigned factor)
{
    bp->pairs = (factor + 1) / 2;
    bp->pieces = (DL * factor + PIECE - 1) / PIECE;
    int lanes[FL];
    for (unsigned t = 0; t < bp->pairs; t++) {
        const unsigned odd = 2 * t + 1 < factor ? 2 * t + 1 : 2 * t;
        for (unsigned j = 0; j < DL; j++) {
            lanes[j] = (int)(factor * j + 2 * t);
            lanes[DL + j] = (int)(factor * j + odd);
        }
        bp->idx[t] = FI_LOAD(lanes);
        for (unsigned k = 0; k < bp->pieces; k++) bp->in_piece[t][k] = piece_mask(bp->idx[t], k);
    }
}

ALWAYS_INLINE VD box_taps(VD sum, const float *p, const BoxPerm *bp, VF tap, unsigned factor)
{
    Piece pc[BOX_MAX_PIECES];
    for (unsigned k = 0; k < bp->pieces; k++) {
        const unsigned left = DL * factor - k * PIECE;
        pc[k] = load_piece(p + k * PIECE, left < PIECE ? left : PIECE);
    }
    for (unsigned t = 0; t < bp->pairs; t++) {
        VF taps = permute_piece(pc[0], bp->idx[t]);
        for (unsigned k = 1; k < bp->pieces; k++)
            taps = select_lanes(taps, permute_piece(pc[k], bp->idx[t]), bp->in_piece[t][k]);
        taps = F_MUL(taps, tap);
        sum = D_ADD(sum, F_LO(taps));
        if (2 * t + 1 < factor) sum = D_ADD(sum, F_HI(taps));
    }
    return sum;
}

SSIM_BOX_ROW(NAME(vqx_ssim_box_row))
{
    if (factor > BOX_MAX_FACTOR) {
        vqx_ssim_box_row_c(rows, w, factor, out);
        return;
    }
    const unsigned dw = vqx_ssim_decimated(w, factor);
    const int lo = vqx_ssim_box_lo(factor), hi = vqx_ssim_box_hi(factor);
    /* [x0, x1): outputs with columns x f + lo .. x f + hi inside the row */
    const unsigned x0 = (unsigned)(-lo + (int)factor - 1) / factor;
    const unsigned x_end = ((unsigned)((int)w - 1 - hi)) / factor + 1;
    const unsigned x1 = x_end < dw ? x_end : dw;
    const VF tap = F_SET1(1.0f / (float)(factor * factor));
    BoxPerm bp;
    box_perm(&bp, factor);

    unsigned x = 0;
    for (; x < x0 && x < dw; x++) out[x] = vqx_ssim_box_sample(rows, w, factor, x);
    for (; x + DL <= x1; x += DL) {
        const ptrdiff_t col = (ptrdiff_t)(x * factor) + lo;
        VD sum = D_ZERO();
        for (unsigned v = 0; v < factor; v++) sum = box_taps(sum, rows[v] + col, &bp, tap, factor);
        H_STORE(out + x, D_TO_H(sum));
    }
    for (; x < dw; x++) out[x] = vqx_ssim_box_sample(rows, w, factor, x);
}

/* The low-pass's taps as float vectors for the interleaved columns: row v,
 * pair p holds taps u = 2 p - 4 (even lanes) and u + 1 (odd lanes); pair 4
 * holds u = 4 in the odd lanes. */
#define LPF_TAPS (2 * VQX_SSIM_LPF_RADIUS + 1)
#define LPF_PAIRS (VQX_SSIM_LPF_RADIUS + 1)

static void lpf_taps(VF taps[LPF_TAPS][LPF_PAIRS])
{
    float lanes[FL];
    for (int v = -VQX_SSIM_LPF_RADIUS; v <= VQX_SSIM_LPF_RADIUS; v++) {
        const float *t = vqx_ssim_lpf[v < 0 ? -v : v];
        for (int p = 0; p < LPF_PAIRS; p++) {
            const int u = 2 * p - VQX_SSIM_LPF_RADIUS;
            for (int i = 0; i < FL; i += 2) {
                lanes[i] = p < LPF_PAIRS - 1 ? t[u < 0 ? -u : u] : 0.0f;
                lanes[i + 1] = p < LPF_PAIRS - 1 ? t[u + 1 < 0 ? -(u + 1) : u + 1] : t[u];
            }
            taps[v + VQX_SSIM_LPF_RADIUS][p] = F_LOAD(lanes);
        }
    }
}

/* n chunks of DL outputs from x: a load of FL columns from 2 x + u holds
 * tap u of each output in its even lanes and tap u + 1 in its odd lanes,
 * so one multiply by the interleaved taps and a deinterleave give both. */
ALWAYS_INLINE void lpf_chunks(const float *const rows[LPF_TAPS],
                              const VF taps[LPF_TAPS][LPF_PAIRS], unsigned x, float *out,
                              const unsigned n)
{
    VD sum[LPF_CHUNKS];
    for (unsigned i = 0; i < n; i++) sum[i] = D_ZERO();
    for (unsigned v = 0; v < LPF_TAPS; v++) {
        const float *row = rows[v] + 2 * x - VQX_SSIM_LPF_RADIUS;
        for (unsigned p = 0; p < LPF_PAIRS - 1; p++) {
            for (unsigned i = 0; i < n; i++) {
                const VF t = F_DEINT(F_MUL(F_LOAD(row + 2 * (i * DL + p)), taps[v][p]));
                sum[i] = D_ADD(sum[i], F_LO(t));
                sum[i] = D_ADD(sum[i], F_HI(t));
            }
        }
        /* tap 4: the odd lanes of a load from 2 x + 3 */
        for (unsigned i = 0; i < n; i++) {
            const VF t = F_DEINT(F_MUL(F_LOAD(row + 2 * i * DL + 2 * VQX_SSIM_LPF_RADIUS - 1),
                                       taps[v][LPF_PAIRS - 1]));
            sum[i] = D_ADD(sum[i], F_HI(t));
        }
    }
    for (unsigned i = 0; i < n; i++) H_STORE(out + x + i * DL, D_TO_H(sum[i]));
}

SSIM_LPF_DECIMATE(NAME(vqx_ssim_lpf_decimate))
{
    const unsigned dw = vqx_ssim_decimated(w, 2), dh = vqx_ssim_decimated(h, 2);
    /* [x0, x1): outputs with columns 2 x - 4 .. 2 x + 4 inside the row */
    const unsigned x0 = VQX_SSIM_LPF_RADIUS / 2;
    const unsigned x_end = (w - 1 - VQX_SSIM_LPF_RADIUS) / 2 + 1;
    const unsigned x1 = x_end < dw ? x_end : dw;
    VF taps[LPF_TAPS][LPF_PAIRS];
    lpf_taps(taps);
    const float *rows[LPF_TAPS];

    for (unsigned y = 0; y < dh; y++) {
        vqx_ssim_lpf_rows(src, src_stride, h, y, rows);
        float *out = dst + (ptrdiff_t)y * dst_stride;
        unsigned x = 0;
        for (; x < x0 && x < dw; x++) out[x] = vqx_ssim_lpf_sample(rows, w, x);
        for (; x + LPF_CHUNKS * DL <= x1; x += LPF_CHUNKS * DL)
            lpf_chunks(rows, taps, x, out, LPF_CHUNKS);
        for (; x + DL <= x1; x += DL) lpf_chunks(rows, taps, x, out, 1);
        for (; x < dw; x++) out[x] = vqx_ssim_lpf_sample(rows, w, x);
    }
}

#endif
