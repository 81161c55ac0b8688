/* The CUDA twin of integer adm: the kernels' view of a level's constants
 * (also what the kernel checks launch with). */
#ifndef VQX_CUDA_ADM_TWIN_H
#define VQX_CUDA_ADM_TWIN_H

#include "cuda/kernels.h"
#include "feature/adm_fixed.h"

VqxCudaAdmLevel vqx_cuda_adm_params(const AdmState *s, int level);

#endif
