#include <stdio.h>
#include <string.h>

#include "feature/registry.h"

extern const VqxFeatureExtractor vqx_fex_psnr;
extern const VqxFeatureExtractor vqx_fex_vif;
extern const VqxFeatureExtractor vqx_fex_float_vif;
extern const VqxFeatureExtractor vqx_fex_motion;
extern const VqxFeatureExtractor vqx_fex_float_motion;
extern const VqxFeatureExtractor vqx_fex_float_psnr;
extern const VqxFeatureExtractor vqx_fex_float_ansnr;
extern const VqxFeatureExtractor vqx_fex_float_moment;
extern const VqxFeatureExtractor vqx_fex_speed_chroma;
extern const VqxFeatureExtractor vqx_fex_speed_temporal;
extern const VqxFeatureExtractor vqx_fex_cambi;
extern const VqxFeatureExtractor vqx_fex_float_ssim;
extern const VqxFeatureExtractor vqx_fex_float_ms_ssim;
extern const VqxFeatureExtractor vqx_fex_ciede;
extern const VqxFeatureExtractor vqx_fex_psnr_hvs;
extern const VqxFeatureExtractor vqx_fex_ssimulacra2;

extern const VqxFeatureExtractor vqx_fex_adm;
extern const VqxFeatureExtractor vqx_fex_float_adm;
extern const VqxFeatureExtractor vqx_fex_null;
#ifdef VQX_HAVE_CUDA
extern const VqxFeatureExtractor vqx_fex_psnr_cuda;
extern const VqxFeatureExtractor vqx_fex_motion_cuda;
extern const VqxFeatureExtractor vqx_fex_vif_cuda;
extern const VqxFeatureExtractor vqx_fex_adm_cuda;
extern const VqxFeatureExtractor vqx_fex_speed_chroma_cuda;
extern const VqxFeatureExtractor vqx_fex_speed_temporal_cuda;
extern const VqxFeatureExtractor vqx_fex_cambi_cuda;
extern const VqxFeatureExtractor vqx_fex_float_psnr_cuda;
extern const VqxFeatureExtractor vqx_fex_float_moment_cuda;
extern const VqxFeatureExtractor vqx_fex_float_ansnr_cuda;
extern const VqxFeatureExtractor vqx_fex_float_motion_cuda;
extern const VqxFeatureExtractor vqx_fex_float_vif_cuda;
extern const VqxFeatureExtractor vqx_fex_float_adm_cuda;
extern const VqxFeatureExtractor vqx_fex_ssimulacra2_cuda;
extern const VqxFeatureExtractor vqx_fex_float_ssim_cuda;
extern const VqxFeatureExtractor vqx_fex_float_ms_ssim_cuda;
extern const VqxFeatureExtractor vqx_fex_psnr_hvs_cuda;
#endif
#ifdef VQX_HAVE_VULKAN
extern const VqxFeatureExtractor vqx_fex_psnr_vulkan;
extern const VqxFeatureExtractor vqx_fex_motion_vulkan;
extern const VqxFeatureExtractor vqx_fex_adm_vulkan;
extern const VqxFeatureExtractor vqx_fex_vif_vulkan;
extern const VqxFeatureExtractor vqx_fex_cambi_vulkan;
#endif
static const VqxFeatureExtractor *const extractors[] = {
    &vqx_fex_psnr,
    &vqx_fex_vif,
    &vqx_fex_float_vif,
    &vqx_fex_motion,
    &vqx_fex_float_motion,
    &vqx_fex_float_psnr,
    &vqx_fex_float_ansnr,
    &vqx_fex_float_moment,
    &vqx_fex_speed_chroma,
    &vqx_fex_speed_temporal,
    &vqx_fex_cambi,
    &vqx_fex_float_ssim,
    &vqx_fex_float_ms_ssim,
    &vqx_fex_ciede,
    &vqx_fex_psnr_hvs,
    &vqx_fex_ssimulacra2,
    &vqx_fex_adm,
    &vqx_fex_float_adm,
    &vqx_fex_null,
#ifdef VQX_HAVE_CUDA
    &vqx_fex_psnr_cuda,
    &vqx_fex_motion_cuda,
    &vqx_fex_vif_cuda,
    &vqx_fex_adm_cuda,
    &vqx_fex_speed_chroma_cuda,
    &vqx_fex_speed_temporal_cuda,
    &vqx_fex_cambi_cuda,
    &vqx_fex_float_psnr_cuda,
    &vqx_fex_float_moment_cuda,
    &vqx_fex_float_ansnr_cuda,
    &vqx_fex_float_motion_cuda,
    &vqx_fex_float_vif_cuda,
    &vqx_fex_float_adm_cuda,
    &vqx_fex_ssimulacra2_cuda,
    &vqx_fex_float_ssim_cuda,
    &vqx_fex_float_ms_ssim_cuda,
    &vqx_fex_psnr_hvs_cuda,
#endif
#ifdef VQX_HAVE_VULKAN
    &vqx_fex_psnr_vulkan,
    &vqx_fex_motion_vulkan,
    &vqx_fex_adm_vulkan,
    &vqx_fex_vif_vulkan,
    &vqx_fex_cambi_vulkan,
#endif
    NULL
};

const VqxFeatureExtractor *vqx_registry_at(unsigned i)
{
    return i < sizeof(extractors) / sizeof(extractors[0]) ? extractors[i] : NULL;
}

/* libvmaf's names of its CUDA extractors: here the CPU extractors they
 * twin; the backend setting decides where they run. */
static const struct { const char *alias, *name; } aliases[] = {
    { "adm_cuda", "adm" },
    { "vif_cuda", "vif" },
    { "motion_cuda", "motion" },
};

const char *vqx_registry_canonical_name(const char *name)
{
    for (unsigned i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
        if (!strcmp(aliases[i].alias, name)) return aliases[i].name;
    return name;
}

const VqxFeatureExtractor *vqx_registry_find(const char *name, enum VqxBackend backend)
{
    for (unsigned i = 0; extractors[i]; i++)
        if (extractors[i]->backend == backend && !strcmp(extractors[i]->name, name))
            return extractors[i];
    return NULL;
}

const VqxFeatureExtractor *vqx_registry_find_by_key(const char *key, enum VqxBackend backend)
{
    for (unsigned i = 0; extractors[i]; i++) {
        if (extractors[i]->backend != backend) continue;
        for (const char *const *k = extractors[i]->keys; *k; k++)
            if (!strcmp(*k, key))
                return extractors[i];
    }
    return NULL;
}

void vqx_registry_names(enum VqxBackend backend, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; extractors[i] && n < len; i++)
        if (extractors[i]->backend == backend)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", extractors[i]->name);
}

/* Twins share their CPU extractor's name: list the CPU ones. */
const char *vqx_feature_name(unsigned i)
{
    for (unsigned k = 0; extractors[k]; k++)
        if (extractors[k]->backend == VQX_BACKEND_CPU && i-- == 0)
            return extractors[k]->name;
    return NULL;
}
