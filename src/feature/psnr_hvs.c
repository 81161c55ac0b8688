/*
 * psnr_hvs: PSNR-HVS (Egiazarian et al. 2006, with the contrast masking of
 * PSNR-HVS-M), as Xiph's Daala tools compute it and libvmaf carries it:
 * 8x8 blocks every 7 pixels, Daala's integer DCT, error weighted by a CSF
 * and reduced by the masking of the block's AC energy. Equal to libvmaf at
 * 8 to 12 bits; libvmaf refuses deeper input, vqx applies the same formula
 * up to 16 bits (see docs/psnr_hvs.md).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/extractor.h"
#include "feature/psnr_hvs.h"

#define BLOCK PSNR_HVS_BLOCK
#define STEP PSNR_HVS_STEP

/* Contrast sensitivity at the point of transparency for each DCT basis
 * function, luma and 4:2:0 chroma, from Xiph's psnr_hvs as carried in
 * libvmaf src/feature/third_party/xiph/psnr_hvs.c (BSD). Written as double
 * literals stored to float, as there. */
static const float csf[3][BLOCK][BLOCK] = {
    {
        {1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242, 0.466224900598, 0.3265091542},
        {2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363, 0.61280991668, 0.436405793551},
        {2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596},
        {1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575, 0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565},
        {1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554, 0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204},
        {0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692, 0.352889268808, 0.27032073436, 0.215017739696, 0.17408067321},
        {0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972, 0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001},
        {0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565, 0.226951348204, 0.17408067321, 0.136153931001, 0.109083846276},
    },
    {
        {1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055, 0.74725392039, 0.615105596242},
        {2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929, 0.996404342439, 0.830890433625},
        {1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087, 0.849823426169, 0.731221236837},
        {1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629, 0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374},
        {1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099, 0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034},
        {0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932, 0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965},
        {0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368, 0.55002013668, 0.454353482512, 0.389234902883, 0.342353999733},
        {0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374, 0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237},
    },
    {
        {2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285, 0.721500455585, 0.593906509971},
        {2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809, 0.962064122248, 0.802254508198},
        {1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706},
        {1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426, 0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023},
        {1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195, 0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273},
        {0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514, 0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543},
        {0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059, 0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063},
        {0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023, 0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658},
    },
};

/* Masking weight per basis function: (csf * 0.3885746225901003)^2, the
 * constant from Xiph's psnr_hvs (it maps their CSF onto the PSNR-HVS-M
 * masking table). */
#define MASK_SCALE 0.3885746225901003

enum { KEY_Y, KEY_CB, KEY_CR, KEY_COMBINED };

const char *const vqx_psnr_hvs_keys[] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs",
                                          NULL };

int vqx_psnr_hvs_setup(PsnrHvsState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->layout == VQX_PIX_400)
        return vqx_fail(sink, -EINVAL, "psnr_hvs: needs chroma planes, input is 4:0:0");
    s->bpc = fmt->bpc;
    vqx_psnr_hvs_dsp_init(&s->dsp, fmt->bpc, fmt->cpu_flags);
    for (unsigned p = 0; p < 3; p++) {
        s->w[p] = vqx_plane_w(fmt, p);
        s->h[p] = vqx_plane_h(fmt, p);
        if (s->w[p] < BLOCK || s->h[p] < BLOCK)
            return vqx_fail(sink, -EINVAL, "psnr_hvs: %ux%u input has a %ux%u plane, below one %dx%d block",
                            fmt->w, fmt->h, s->w[p], s->h[p], BLOCK, BLOCK);
        s->blocks_x[p] = (s->w[p] - BLOCK) / STEP + 1;
        s->blocks_y[p] = (s->h[p] - BLOCK) / STEP + 1;
        for (unsigned i = 0; i < BLOCK; i++)
            for (unsigned j = 0; j < BLOCK; j++) {
                s->mask_t[p][j * BLOCK + i] =
                    (float)((csf[p][i][j] * MASK_SCALE) * (csf[p][i][j] * MASK_SCALE));
                s->weight_t[p][j * BLOCK + i] = csf[p][i][j];
            }
    }
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    return vqx_psnr_hvs_setup(priv, fmt, sink);
}

/* Blocks per call of the table: their terms fit the stack. */
#define CHUNK 64

/* The plane's float sum of its terms, as in Xiph's code: one chain, block
 * by block in raster order. */
static float plane_total(const PsnrHvsState *s, unsigned p, const VqxPicture *ref,
                         const VqxPicture *dis)
{
    const float *const mask_t = s->mask_t[p], *const weight_t = s->weight_t[p];
    const ptrdiff_t rs = ref->stride[p], ds = dis->stride[p];
    const ptrdiff_t sample = s->bpc > 8 ? 2 : 1;
    const unsigned blocks = s->blocks_x[p];
    float terms[CHUNK * PSNR_HVS_TERMS];
    float total = 0;
    for (unsigned by = 0; by < s->blocks_y[p]; by++) {
        const unsigned y = by * STEP;
        const uint8_t *r = (const uint8_t *)ref->data[p] + (ptrdiff_t)y * rs;
        const uint8_t *d = (const uint8_t *)dis->data[p] + (ptrdiff_t)y * ds;
        for (unsigned b = 0; b < blocks; b += CHUNK) {
            const unsigned nb = blocks - b < CHUNK ? blocks - b : CHUNK;
            const ptrdiff_t x = (ptrdiff_t)b * STEP * sample;
            s->dsp.block_terms(r + x, rs, d + x, ds, nb, s->bpc, weight_t, mask_t, terms);
            total = s->dsp.accumulate(total, terms, (size_t)nb * PSNR_HVS_TERMS);
        }
    }
    return total;
}

/* Mean masked, CSF-weighted squared DCT error of one plane from its sum,
 * relative to the squared peak, in float as in Xiph's code. */
static double plane_error(const PsnrHvsState *s, unsigned p, float total)
{
    const int64_t n = (int64_t)s->blocks_x[p] * s->blocks_y[p] * PSNR_HVS_TERMS;
    total /= (float)n;
    const int64_t peak = ((int64_t)1 << s->bpc) - 1;
    total /= (float)(peak * peak);
    return total;
}

static double to_db(double error)
{
    return 10 * -log10(error);
}

int vqx_psnr_hvs_emit(const PsnrHvsState *s, const float total[3], unsigned frame,
                      VqxSink *sink)
{
    double error[3];
    int err = 0;
    for (unsigned p = 0; p < 3; p++) {
        error[p] = plane_error(s, p, total[p]);
        err |= vqx_emit(sink, KEY_Y + p, frame, to_db(error[p]));
    }
    const double combined = error[0] * .8 + .1 * (error[1] + error[2]);
    err |= vqx_emit(sink, KEY_COMBINED, frame, to_db(combined));
    return err;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    const PsnrHvsState *s = priv;
    float total[3];
    for (unsigned p = 0; p < 3; p++) total[p] = plane_total(s, p, ref, dis);
    return vqx_psnr_hvs_emit(s, total, frame, sink);
}

const VqxFeatureExtractor vqx_fex_psnr_hvs = {
    .name = "psnr_hvs",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_psnr_hvs_keys,
    .state_size = sizeof(PsnrHvsState),
    .init = init,
    .extract = extract,
};
