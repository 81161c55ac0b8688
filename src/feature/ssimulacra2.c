/*
 * SSIMULACRA 2 (Jon Sneyers, Cloudinary), libjxl's tools/ssimulacra2.cc:
 * both frames to 16-bit R'G'B' (matrix and range options), read as libjxl
 * reads a 16-bit sRGB PNG, to linear sRGB; then for 6 scales (the linear
 * images halved 2x2 between them, while the previous scale is at least 8x8):
 * positive XYB, the Gaussian blurs of each image, its square and the
 * product, and per plane the means and 4-norms of the SSIM error and of the
 * two edge maps; the 108 weighted norms, then libjxl's polynomial and power
 * give the score. docs/ssimulacra2.md.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "feature/extractor.h"
#include "feature/ssimulacra2.h"
#include "feature/ssimulacra2_dsp.h"

enum { SCALES = SSIMU2_SCALES, MIN_SIZE = SSIMU2_MIN_SIZE };

const char *const vqx_ssimu2_keys[] = { "ssimulacra2", NULL };
static const char *const matrices[] = { "bt709", "bt601", "bt2020", NULL };
static const char *const ranges[] = { "auto", "limited", "full", NULL };

int vqx_ssimu2_yuv_coeffs(Ssimu2YuvCoeffs *k, const char *matrix, const char *range,
                          unsigned bpc)
{
    double kr, kb;
    if (!strcmp(matrix, "bt709")) kr = 0.2126, kb = 0.0722;
    else if (!strcmp(matrix, "bt601")) kr = 0.299, kb = 0.114;
    else if (!strcmp(matrix, "bt2020")) kr = 0.2627, kb = 0.0593;
    else return -EINVAL;
    const double kg = 1.0 - kr - kb, unit = (double)(1u << (bpc - 8));
    if (!strcmp(range, "limited")) {
        k->y_offset = 16.0 * unit;
        k->y_scale = 1.0 / (219.0 * unit);
        k->c_scale = 1.0 / (224.0 * unit);
    } else if (!strcmp(range, "full")) {
        const double peak = (double)((1u << bpc) - 1);
        k->y_offset = 0.0;
        k->y_scale = 1.0 / peak;
        k->c_scale = 1.0 / peak;
    } else {
        return -EINVAL;
    }
    k->c_offset = 128.0 * unit;
    k->cr_to_r = 2.0 * (1.0 - kr);
    k->cb_to_b = 2.0 * (1.0 - kb);
    k->cb_to_g = 2.0 * kb * (1.0 - kb) / kg;
    k->cr_to_g = 2.0 * kr * (1.0 - kr) / kg;
    return 0;
}

static inline unsigned sample(const VqxPicture *pic, unsigned p, unsigned y, unsigned x)
{
    const char *row = (const char *)pic->data[p] + (ptrdiff_t)y * pic->stride[p];
    return pic->bpc > 8 ? ((const uint16_t *)row)[x] : ((const uint8_t *)row)[x];
}

void vqx_ssimu2_rgb16_row(const VqxPicture *pic, unsigned y, const Ssimu2YuvCoeffs *k,
                          uint16_t *rgb)
{
    const unsigned ssx = pic->layout != VQX_PIX_444, ssy = pic->layout == VQX_PIX_420;
    for (unsigned x = 0; x < pic->w[0]; x++)
        ssimu2_yuv_to_rgb16(k, sample(pic, 0, y, x), sample(pic, 1, y >> ssy, x >> ssx),
                            sample(pic, 2, y >> ssy, x >> ssx), rgb + 3 * x);
}

int vqx_ssimu2_setup(Ssimu2State *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    /* The core refuses 4:0:0 before a CPU init; a twin's device_init is
     * called first, with the core's message. */
    if (fmt->layout == VQX_PIX_400)
        return vqx_fail(sink, -EINVAL, "ssimulacra2: needs chroma planes, input is 4:0:0");
    if (fmt->w < MIN_SIZE || fmt->h < MIN_SIZE)
        return vqx_fail(sink, -EINVAL, "ssimulacra2: %ux%u is too small: the minimum is %dx%d",
                        fmt->w, fmt->h, MIN_SIZE, MIN_SIZE);
    /* Option names are checked by the core against the choices; auto: the
     * input's tag (y4m's XCOLORRANGE), limited when it has none. */
    const char *range = strcmp(s->range, "auto") ? s->range
                      : fmt->range == VQX_RANGE_FULL ? "full" : "limited";
    vqx_ssimu2_yuv_coeffs(&s->yuv, s->matrix, range, fmt->bpc);
    vqx_ssimu2_gauss_init(&s->gauss);
    vqx_ssimu2_dsp_init(&s->dsp, fmt->cpu_flags);
    s->w = (int)fmt->w;
    s->h = (int)fmt->h;
    /* Rows on 64-byte boundaries, for the SIMD entries' aligned loads. */
    s->stride = ((ptrdiff_t)fmt->w + 15) & ~(ptrdiff_t)15;
    return 0;
}

int vqx_ssimu2_scale_sizes(int w, int h, int ws[SSIMU2_SCALES], int hs[SSIMU2_SCALES])
{
    int n = 0;
    /* libjxl tests the size of the scale before, then halves. */
    for (; n < SCALES && w >= MIN_SIZE && h >= MIN_SIZE; n++) {
        if (n) {
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        ws[n] = w;
        hs[n] = h;
    }
    return n;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    Ssimu2State *s = priv;
    const int ret = vqx_ssimu2_setup(s, fmt, sink);
    if (ret) return ret;
    const size_t plane = (size_t)s->stride * fmt->h;
    enum { PLANES = 12 + 7 };
    s->linear_of_u16 = malloc(sizeof(float) * 65536);
    s->rgb16 = malloc(sizeof(uint16_t) * 3 * fmt->w);
    s->mem = aligned_alloc(64, sizeof(float) * plane * PLANES);
    if (!s->linear_of_u16 || !s->rgb16 || !s->mem) return -ENOMEM;
    for (unsigned v = 0; v < 65536; v++) s->linear_of_u16[v] = ssimu2_linear_from_u16(v);
    float *p = s->mem;
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++) {
            s->lin[i][c] = p, p += plane;
            s->xyb[i][c] = p, p += plane;
        }
    s->prod = p, p += plane;
    s->scratch = p, p += plane;
    for (int i = 0; i < 2; i++) {
        s->mu[i] = p, p += plane;
        s->sigma[i] = p, p += plane;
    }
    s->sigma12 = p;
    return 0;
}

static void to_linear(Ssimu2State *s, const VqxPicture *pic, float *const lin[3])
{
    for (int y = 0; y < s->h; y++) {
        vqx_ssimu2_rgb16_row(pic, (unsigned)y, &s->yuv, s->rgb16);
        const ptrdiff_t o = y * s->stride;
        for (int x = 0; x < s->w; x++)
            for (int c = 0; c < 3; c++) lin[c][o + x] = s->linear_of_u16[s->rgb16[3 * x + c]];
    }
}

static void blur(Ssimu2State *s, const float *in, float *out, int w, int h)
{
    s->dsp.blur_h(&s->gauss, in, s->scratch, s->stride, w, h);
    s->dsp.blur_v(&s->gauss, s->scratch, out, s->stride, w, h);
}

static void product_blur(Ssimu2State *s, const float *a, const float *b, float *out, int w, int h)
{
    for (int y = 0; y < h; y++) {
        const ptrdiff_t o = y * s->stride;
        s->dsp.multiply_row(a + o, b + o, s->prod + o, w);
    }
    blur(s, s->prod, out, w, h);
}

/* libjxl's Msssim::Score: the weights run over the scales computed, in
 * the order plane, scale, norm, map. Weights and mapping: libjxl
 * tools/ssimulacra2.cc (tuned on CID22, TID2013, Kadid10k, KonFiG-IQA). */
static double score(const double ssim[][6], const double edge[][12], int n_scales)
{
    static const double weight[108] = {
        0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0,
        0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271,
        0.00015231632783718752, 0.0, 0.0016406437456599754, 0.0, 1.8422455520539298,
        11.441172603757666, 0.0, 0.0007989109436015163, 0.000176816438078653, 0.0,
        1.8787594979546387, 10.94906990605142, 0.0, 0.0007289346991508072,
        0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967,
        0.00031949755934435053, 0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398,
        0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
        0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296,
        1.027889937768264, 225.20515300849274, 0.0, 0.0, 19.213238186143016,
        0.0011401524586618361, 0.001237755635509985, 176.39317598450694, 0.0, 0.0,
        24.43300999870476, 0.28520802612117757, 0.0004485436923833408, 0.0, 0.0, 0.0,
        34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0008680556573291698, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0005313191874358747, 0.0,
        0.00016533814161379112, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0004179171803251336,
        0.0017290828234722833, 0.0, 0.0020827005846636437, 0.0, 0.0, 8.826982764996862,
        23.19243343998926, 0.0, 95.1080498811086, 0.9863978034400682, 0.9834382792465353,
        0.0012286405048278493, 171.2667255897307, 0.9807858872435379, 0.0, 0.0, 0.0,
        0.0005130064588990679, 0.0, 0.00010854057858411537,
    };
    double sum = 0.0;
    int i = 0;
    for (int c = 0; c < 3; c++)
        for (int sc = 0; sc < n_scales; sc++)
            for (int n = 0; n < 2; n++) {
                sum += weight[i++] * fabs(ssim[sc][c * 2 + n]);
                sum += weight[i++] * fabs(edge[sc][c * 4 + n]);
                sum += weight[i++] * fabs(edge[sc][c * 4 + n + 2]);
            }
    sum = sum * 0.9562382616834844;
    sum = 2.326765642916932 * sum - 0.020884521182843837 * sum * sum +
          6.248496625763138e-05 * sum * sum * sum;
    return sum > 0 ? 100.0 - 10.0 * pow(sum, 0.6276336467831387) : 100.0;
}

int vqx_ssimu2_emit(const Ssimu2State *s, const double sums[][3][SSIMU2_SUMS], int n_scales,
                    unsigned frame, VqxSink *sink)
{
    double ssim[SCALES][6], edge[SCALES][12];
    int w = s->w, h = s->h;
    for (int sc = 0; sc < n_scales; sc++) {
        if (sc) {
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        const double per_sample = 1.0 / ((double)w * h);
        for (int c = 0; c < 3; c++) {
            const double *ss = sums[sc][c], *es = sums[sc][c] + 2;
            ssim[sc][c * 2] = per_sample * ss[0];
            ssim[sc][c * 2 + 1] = sqrt(sqrt(per_sample * ss[1]));
            for (int n = 0; n < 2; n++) {
                edge[sc][c * 4 + 2 * n] = per_sample * es[2 * n];
                edge[sc][c * 4 + 2 * n + 1] = sqrt(sqrt(per_sample * es[2 * n + 1]));
            }
        }
    }
    return vqx_emit(sink, 0, frame, score(ssim, edge, n_scales));
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis, unsigned frame,
                   VqxSink *sink)
{
    Ssimu2State *s = priv;
    to_linear(s, ref, s->lin[0]);
    to_linear(s, dis, s->lin[1]);
    double sums[SCALES][3][SSIMU2_SUMS];
    int w = s->w, h = s->h, n_scales = 0;
    /* libjxl tests the size of the scale before, then halves. */
    for (; n_scales < SCALES && w >= MIN_SIZE && h >= MIN_SIZE; n_scales++) {
        if (n_scales) {
            for (int i = 0; i < 2; i++)
                for (int c = 0; c < 3; c++)
                    s->dsp.downsample(s->lin[i][c], s->lin[i][c], s->stride, w, h);
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        for (int i = 0; i < 2; i++)
            for (int y = 0; y < h; y++) {
                const ptrdiff_t o = y * s->stride;
                s->dsp.xyb_row(s->lin[i][0] + o, s->lin[i][1] + o, s->lin[i][2] + o,
                               s->xyb[i][0] + o, s->xyb[i][1] + o, s->xyb[i][2] + o, w);
            }
        for (int c = 0; c < 3; c++) {
            const float *img1 = s->xyb[0][c], *img2 = s->xyb[1][c];
            product_blur(s, img1, img1, s->sigma[0], w, h);
            product_blur(s, img2, img2, s->sigma[1], w, h);
            product_blur(s, img1, img2, s->sigma12, w, h);
            blur(s, img1, s->mu[0], w, h);
            blur(s, img2, s->mu[1], w, h);
            double *ss = sums[n_scales][c], *es = sums[n_scales][c] + 2;
            for (int k = 0; k < SSIMU2_SUMS; k++) ss[k] = 0.0;
            s->dsp.ssim_sums(s->mu[0], s->mu[1], s->sigma[0], s->sigma[1], s->sigma12, s->stride,
                             w, h, ss);
            s->dsp.edge_sums(img1, s->mu[0], img2, s->mu[1], s->stride, w, h, es);
        }
    }
    return vqx_ssimu2_emit(s, (const double(*)[3][SSIMU2_SUMS])sums, n_scales, frame, sink);
}

void vqx_ssimu2_close(void *priv)
{
    Ssimu2State *s = priv;
    free(s->linear_of_u16);
    free(s->rgb16);
    free(s->mem);
}

const VqxOption vqx_ssimu2_options[] = {
    { .name = "matrix", .help = "YUV to R'G'B' matrix: bt709, bt601 or bt2020",
      .type = VQX_OPT_STRING, .offset = offsetof(Ssimu2State, matrix), .def.s = "bt709",
      .choices = matrices },
    { .name = "range",
      .help = "YUV sample range: limited (16-235/240 at 8 bits), full, or auto (the input's "
              "y4m XCOLORRANGE tag, else limited)",
      .type = VQX_OPT_STRING, .offset = offsetof(Ssimu2State, range), .def.s = "auto",
      .choices = ranges },
    { 0 }
};

const VqxFeatureExtractor vqx_fex_ssimulacra2 = {
    .name = "ssimulacra2",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_ssimu2_keys,
    .options = vqx_ssimu2_options,
    .state_size = sizeof(Ssimu2State),
    .init = init,
    .extract = extract,
    .close = vqx_ssimu2_close,
};
