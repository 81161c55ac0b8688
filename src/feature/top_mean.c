#include "feature/top_mean.h"

int vqx_top_count(int n, double fraction)
{
    const int k = (int)(fraction * n);
    return k < 1 ? 1 : k > n ? n : k;
}

/* Hoare partitioning around v[k] until [lo, hi] closes on k: libvmaf's
 * quick_select, whose final order is the order the mean is summed in. */
void vqx_select_largest(float *v, int n, int k)
{
    if (k == n) return;
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const float pivot = v[k];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] > pivot) i++;
            while (v[j] < pivot) j--;
            if (i <= j) {
                const float t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (j < k) lo = i;
        if (k < i) hi = j;
    }
}

double vqx_mean_of_top(float *v, int n, double fraction)
{
    const int k = vqx_top_count(n, fraction);
    vqx_select_largest(v, n, k);
    double sum = 0;
    for (int i = 0; i < k; i++) sum += v[i];
    return sum / k;
}
