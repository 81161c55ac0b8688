#include "cuda/resampler.h"

int vqx_cuda_resampler_upload(VqxCudaResampler *dev_r, const VqxResampler *host,
                              VqxDevice *dev, VqxSink *sink)
{
    *dev_r = (VqxCudaResampler){ .method = (int)host->method, .dst_w = host->dst_w,
                                 .dst_h = host->dst_h };
    const size_t rows = (size_t)host->taps * host->dst_h, cols = (size_t)host->taps * host->dst_w;
    void **tables[] = { (void **)&dev_r->row_index, (void **)&dev_r->row_weight,
                        (void **)&dev_r->col_index, (void **)&dev_r->col_weight };
    const void *src[] = { host->rows.index, host->rows.weight, host->cols.index,
                          host->cols.weight };
    const size_t bytes[] = { sizeof(int) * rows, sizeof(float) * rows, sizeof(int) * cols,
                             sizeof(float) * cols };
    int ret = 0;
    for (unsigned i = 0; i < 4 && !ret; i++) {
        ret = vqx_device_alloc(dev, bytes[i], tables[i], sink);
        if (!ret) ret = vqx_device_upload_table(dev, *tables[i], src[i], bytes[i], sink);
    }
    return ret;
}
