/*
 * The linear algebra of SpEED on its 25x25 covariance: eigenvalues (GSL's
 * symmetric scheme: Householder tridiagonalisation, then implicit-shift QR
 * sweeps with Wilkinson shifts) and a solve through an explicit Householder
 * QR. All in float, with the few double steps (square roots, halvings,
 * threshold products) where libvmaf takes them: results are equal bit for
 * bit, including the iteration count.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "feature/speed.h"

#define N SPEED_DIM
/* Tolerances of libvmaf's speed.c (Netflix, BSD+Patent). */
#define EIG_EPS 1e-6
#define EIG_MAX_SWEEPS 500

size_t vqx_speed_linalg_scratch(unsigned n_rhs)
{
    /* eigen: matrix + d + sd + two vectors; solve: five matrices + Q^T b */
    const size_t eigen = N * N + 4 * N;
    const size_t solve = 5 * N * N + (size_t)N * n_rhs;
    return eigen > solve ? eigen : solve;
}

static float sqrt_via_double(float x)
{
    return (float)sqrt(x);
}

static float hypot_f(float a, float b)
{
    return sqrt_via_double(a * a + b * b);
}

static float sign_of(float x)
{
    return x >= 0 ? 1.0f : -1.0f;
}

/* ---- tridiagonalisation ---- */

/* Reflector that zeroes a[row0+1.., col] below a[row0][col]. Stores the
 * reflector vector scaled so its first entry is 1 in the column (first entry
 * replaced by the new diagonal value beta) and returns tau, or 0 when the
 * column is already reduced. */
static float column_reflector(float *a, int col, int row0)
{
    if (row0 == N - 1) return 0.0f;
    float tail = 0;
    for (int r = row0 + 1; r < N; r++)
        tail += a[r * N + col] * a[r * N + col];
    const float tail_norm = sqrt_via_double(tail);
    if (tail_norm == 0.0f) return 0.0f;

    const float alpha = a[row0 * N + col];
    const float beta = -sign_of(alpha) * hypot_f(alpha, tail_norm);
    const float tau = (beta - alpha) / beta;
    const float scale = alpha - beta;
    if (scale != 0.0f) {
        for (int r = row0; r < N; r++)
            a[r * N + col] /= scale;
        a[row0 * N + col] = beta;
    }
    return tau;
}

/* a (symmetric, destroyed) -> diagonal d and subdiagonal sd of a similar
 * tridiagonal matrix. v, x: N floats each. */
static void tridiagonalise(float *a, float *d, float *sd, float *v, float *x)
{
    for (int i = 0; i < N - 2; i++) {
        const int lo = i + 1;
        const float tau = column_reflector(a, i, lo);
        for (int j = lo; j < N; j++)
            v[j] = a[j * N + i];
        if (tau == 0.0f) continue;
        v[lo] = 1.0f;

        /* x = tau A v; x -= (tau x.v / 2) v; A -= x v' + v x' on [lo, N) */
        for (int r = lo; r < N; r++) {
            x[r] = 0.0f;
            for (int c = lo; c < N; c++)
                x[r] += tau * a[r * N + c] * v[c];
        }
        float xv = 0;
        for (int r = lo; r < N; r++)
            xv += x[r] * v[r];
        const float alpha = -0.5 * tau * xv;
        for (int r = lo; r < N; r++)
            x[r] += alpha * v[r];
        for (int r = lo; r < N; r++)
            for (int c = lo; c < N; c++)
                a[r * N + c] -= x[r] * v[c] + v[r] * x[c];
    }
    for (int i = 0; i < N; i++)
        d[i] = a[i * N + i];
    for (int i = 0; i < N - 1; i++)
        sd[i] = a[(i + 1) * N + i];
}

/* ---- implicit QR on the tridiagonal matrix ---- */

static void chop_subdiagonal(const float *d, float *sd, int n)
{
    for (int i = 0; i < n - 1; i++)
        if (fabsf(sd[i]) < EIG_EPS * (fabsf(d[i]) + fabsf(d[i + 1])))
            sd[i] = 0.0f;
}

/* Eigenvalue of the trailing 2x2 block closest to its last entry. */
static float wilkinson_shift(const float *d, const float *sd, int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (ta - tb) / 2.0;
    if (dt > 0)
        return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0)
        return tb - fabsf(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

/* c, s with [c -s; s c]' [a; b] having a zero second entry. */
static void givens(float a, float b, float *c, float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        const float s1 = 1.0 / sqrt(1 + t * t);
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = 1.0 / sqrt(1 + t * t);
        *c = c1;
        *s = c1 * t;
    }
}

/* One shifted QR sweep over the unreduced block d[0..n), sd[0..n-1),
 * chasing the bulge down with Givens rotations. */
static void qr_sweep(float *d, float *sd, int n)
{
    float mu = wilkinson_shift(d, sd, n);
    if (EIG_EPS * fabsf(mu) > fabsf(d[0]) + fabsf(sd[0]))
        mu = 0;

    float x = d[0] - mu, z = sd[0];
    float ap = d[0], bp = sd[0], aq = d[1];

    if (n == 2) {
        float c, s;
        givens(x, z, &c, &s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }

    float bq = sd[1];
    float bk = 0, zk = 0;
    for (int k = 0; k < n - 1; k++) {
        float c, s;
        givens(x, z, &c, &s);

        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;

        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2) aq = d[k + 2];
        if (k < n - 3) bq = sd[k + 2];

        d[k] = ap1;
        if (k > 0) sd[k - 1] = bk1;
        if (k < n - 2) sd[k + 1] = bp;

        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

/* Diagonalises in place: d ends as the eigenvalues. */
static void tridiagonal_eigenvalues(float *d, float *sd)
{
    chop_subdiagonal(d, sd, N);
    int b = N - 1;
    for (int sweeps = 0; b > 0 && sweeps < EIG_MAX_SWEEPS;) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        qr_sweep(d + a, sd + a, b - a + 1);
        chop_subdiagonal(d + a, sd + a, b - a + 1);
        sweeps++;
    }
}

void vqx_speed_eigenvalues(const float cov[N * N], float eig[N], float *scratch)
{
    float *a = scratch;
    float *d = a + N * N, *sd = d + N, *v = sd + N, *x = v + N;
    memcpy(a, cov, sizeof(float) * N * N);
    tridiagonalise(a, d, sd, v, x);
    tridiagonal_eigenvalues(d, sd);
    memcpy(eig, d, sizeof(float) * N);
}

bool vqx_speed_is_regular(const float eig[N])
{
    for (int i = 0; i < N; i++)
        if (eig[i] < EIG_EPS) return false;
    return true;
}

/* ---- solve ---- */

/* out = a * b, a: N x N, b: N x cols, accumulated over k in order from 0. */
static void multiply(const float *a, const float *b, unsigned cols, float *out)
{
    for (int i = 0; i < N; i++) {
        float *o = out + (size_t)i * cols;
        for (unsigned j = 0; j < cols; j++)
            o[j] = 0.0f;
        for (int k = 0; k < N; k++) {
            const float aik = a[i * N + k];
            const float *bk = b + (size_t)k * cols;
            for (unsigned j = 0; j < cols; j++)
                o[j] += aik * bk[j];
        }
    }
}

static float vector_norm(const float *v)
{
    float sum = 0;
    for (int i = 0; i < N; i++)
        sum += v[i] * v[i];
    return sqrt_via_double(sum);
}

/* cov = Q' R with Q the product of the N-1 reflectors H_{N-2}..H_0, built
 * as explicit matrices. The reflector signs follow the diagonal of the
 * original matrix, as libvmaf does. */
static void householder_qr(const float *cov, float *q, float *r, float *z,
                           float *h, float *tmp)
{
    float *v = tmp; /* first row of tmp; tmp is free before each product */
    memcpy(z, cov, sizeof(float) * N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            q[i * N + j] = i == j;

    for (int k = 0; k < N - 1; k++) {
        /* identity on the leading k rows and columns */
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (i < k || j < k) z[i * N + j] = i == j;
        for (int i = 0; i < N; i++)
            v[i] = z[i * N + k];
        v[k] += sign_of(cov[k * N + k]) * vector_norm(v);
        const float len = vector_norm(v);
        for (int i = 0; i < N; i++)
            v[i] = v[i] / len;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                h[i * N + j] = -2 * v[i] * v[j];
        for (int i = 0; i < N; i++)
            h[i * N + i] += 1;

        multiply(h, z, N, tmp);
        memcpy(z, tmp, sizeof(float) * N * N);
        multiply(h, q, N, tmp);
        memcpy(q, tmp, sizeof(float) * N * N);
    }
    multiply(q, cov, N, r);
}

int vqx_speed_solve(const float cov[N * N], const float *rhs, unsigned n_rhs,
                    float *x, float *scratch)
{
    float *q = scratch, *r = q + N * N, *z = r + N * N, *h = z + N * N;
    float *tmp = h + N * N, *qb = tmp + N * N;
    householder_qr(cov, q, r, z, h, tmp);
    multiply(q, rhs, n_rhs, qb);

    /* back substitution R x = Q b, rows from the bottom */
    for (int i = N - 1; i >= 0; i--) {
        const float pivot = r[i * N + i];
        if (fabsf(pivot) < EIG_EPS) return -EINVAL;
        float *xi = x + (size_t)i * n_rhs;
        memcpy(xi, qb + (size_t)i * n_rhs, sizeof(float) * n_rhs);
        for (int k = i + 1; k < N; k++) {
            const float rik = r[i * N + k];
            const float *xk = x + (size_t)k * n_rhs;
            for (unsigned j = 0; j < n_rhs; j++)
                xi[j] -= xk[j] * rik;
        }
        for (unsigned j = 0; j < n_rhs; j++)
            xi[j] = xi[j] / pivot;
    }
    return 0;
}
