/* A VqxResampler's tables on the device (cuda/resample_kernels.h), for the
 * twins' device_init. */
#ifndef VQX_CUDA_RESAMPLER_H
#define VQX_CUDA_RESAMPLER_H

#include "cuda/device.h"
#include "cuda/resample_kernels.h"
#include "feature/resample.h"

/* Allocates and uploads the axis tables of `host`; 0 or a negative errno
 * (reported to sink). The device frees them with the twin. */
int vqx_cuda_resampler_upload(VqxCudaResampler *dev_r, const VqxResampler *host,
                              VqxDevice *dev, VqxSink *sink);

#endif
