/*
 * libvmaf's CUDA API on vqx's libvmaf.so.3, as FFmpeg's libvmaf_cuda filter
 * drives it: a CUDA state imported into the context, pictures fetched from
 * vmaf_cuda_fetch_preallocated_picture in device memory and filled by the
 * caller's own uploads (cudaMemcpy2D into pic->data with pic->stride), then
 * vmaf_read_pictures. Every per-frame value must equal the same frames
 * through the CPU context bit for bit: device pictures with the primary
 * context and with the caller's context given as cu_ctx, and pinned host
 * pictures; 8-bit and 10-bit 4:2:0, 8-bit 4:4:4. Also: a 10-bit sample
 * above the peak in a device picture fails that frame with -ERANGE, and a
 * feature without a CUDA twin refuses device pictures.
 *
 * Exit 0: all equal; 1: a difference or a failure; 77: no CUDA device.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/libvmaf_cuda.h>

#include "xorshift.h"

enum { FRAMES = 8, MAX_KEYS = 16 };

static const char *const keys[] = {
    "integer_adm2", "integer_adm_scale0", "integer_adm_scale3", "integer_vif_scale0",
    "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3", "integer_motion2",
    "psnr_y", "psnr_cb", "psnr_cr",
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

typedef struct Case {
    const char *name;
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h;
} Case;

typedef enum Pictures { CPU, DEVICE_PRIMARY, DEVICE_CALLERS, PINNED } Pictures;
static const char *const picture_names[] = { "cpu", "device pictures, primary context",
                                             "device pictures, the caller's cu_ctx",
                                             "pinned host pictures" };

static int failures;

#define CHECK(cond, ...) do { \
        if (!(cond)) { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); failures++; } \
    } while (0)

/* Frame n of a clip: a smooth pattern that moves, with noise; the distorted
 * one is blurred and noisier. Planes packed, chroma w >> ss_x wide. */
static void make_frame(const Case *c, unsigned n, bool distorted, uint16_t *planes[3],
                       unsigned pw[3], unsigned ph[3])
{
    const unsigned peak = (1u << c->bpc) - 1;
    rng = 1 + n * 2 + distorted;
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < ph[p]; y++) {
            for (unsigned x = 0; x < pw[p]; x++) {
                int v = (int)((x * 3 + y * 2 + n * 5 + p * 40) % 200) + 20;
                v = v * (int)peak / 255 + (int)(rnd() % 9) - 4;
                if (distorted) v = (v * 7 + (int)((x + y) % 50) * (int)peak / 255) / 8 +
                                   (int)(rnd() % 17) - 8;
                planes[p][(size_t)y * pw[p] + x] = (uint16_t)(v < 0 ? 0 : v > (int)peak ? (int)peak : v);
            }
        }
    }
}

/* Fills a picture from 16-bit planes: on the host, or with cudaMemcpy2D
 * into device memory at the picture's stride. */
static int fill(VmafPicture *pic, uint16_t *planes[3], const unsigned pw[3], const unsigned ph[3],
                bool device, uint8_t *row)
{
    const size_t bytes = pic->bpc > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        uint8_t *host = device ? row : pic->data[p];
        const size_t host_stride = device ? pw[p] * bytes : (size_t)pic->stride[p];
        for (unsigned y = 0; y < ph[p]; y++)
            for (unsigned x = 0; x < pw[p]; x++) {
                const uint16_t v = planes[p][(size_t)y * pw[p] + x];
                if (bytes == 2) memcpy(host + y * host_stride + 2 * x, &v, 2);
                else host[y * host_stride + x] = (uint8_t)v;
            }
        if (device && cudaMemcpy2D(pic->data[p], (size_t)pic->stride[p], host, host_stride,
                                   pw[p] * bytes, ph[p], cudaMemcpyHostToDevice) != cudaSuccess)
            return -EIO;
    }
    return 0;
}

static CUcontext current_context(void)
{
    typedef CUresult (*GetCurrent)(CUcontext *);
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;
    CUcontext ctx = NULL;
    if (cudaFree(0) == cudaSuccess &&
        cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000, cudaEnableDefault,
                                         &found) == cudaSuccess && fn)
        ((GetCurrent)fn)(&ctx);
    return ctx;
}

/* A context with vmaf_v0.6.1 and psnr (and `extra`), on the CPU or with a
 * CUDA state and pictures of the given kind. */
static int open_context(VmafContext **vmaf, VmafModel **model, const Case *c, Pictures pics,
                        const char *extra)
{
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR };
    int err = vmaf_init(vmaf, cfg);
    if (!err && pics != CPU) {
        VmafCudaState *state = NULL;
        VmafCudaConfiguration cc = { .cu_ctx = pics == DEVICE_CALLERS ? current_context() : NULL };
        err = pics == DEVICE_CALLERS && !cc.cu_ctx ? -EIO : vmaf_cuda_state_init(&state, cc);
        if (!err) err = vmaf_cuda_import_state(*vmaf, state);
        free(state);
    }
    VmafModelConfig mc = { .name = "vmaf" };
    if (!err) err = vmaf_model_load(model, &mc, "vmaf_v0.6.1");
    if (!err) err = vmaf_use_features_from_model(*vmaf, *model);
    if (!err) err = vmaf_use_feature(*vmaf, "psnr", NULL);
    if (!err && extra) err = vmaf_use_feature(*vmaf, extra, NULL);
    if (!err && pics != CPU) {
        VmafCudaPictureConfiguration pc = {
            .pic_params = { c->w, c->h, c->bpc, c->fmt },
            .pic_prealloc_method = pics == PINNED ? VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED
                                                  : VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
        };
        err = vmaf_cuda_preallocate_pictures(*vmaf, pc);
    }
    return err;
}

static int picture(VmafContext *vmaf, const Case *c, Pictures pics, VmafPicture *pic)
{
    return pics == CPU ? vmaf_picture_alloc(pic, c->fmt, c->bpc, c->w, c->h)
                       : vmaf_cuda_fetch_preallocated_picture(vmaf, pic);
}

/* Scores FRAMES frames; values[frame][key], the model's score last. */
static int run(const Case *c, Pictures pics, double values[FRAMES][MAX_KEYS])
{
    const unsigned ss_x = c->fmt != VMAF_PIX_FMT_YUV444P, ss_y = c->fmt == VMAF_PIX_FMT_YUV420P;
    unsigned pw[3] = { c->w, c->w >> ss_x, c->w >> ss_x }, ph[3] = { c->h, c->h >> ss_y, c->h >> ss_y };
    uint16_t *planes[2][3];
    for (unsigned i = 0; i < 2; i++)
        for (unsigned p = 0; p < 3; p++) planes[i][p] = malloc((size_t)pw[p] * ph[p] * 2);
    uint8_t *row = malloc((size_t)c->w * c->h * 2);
    VmafContext *vmaf = NULL;
    VmafModel *model = NULL;
    int err = open_context(&vmaf, &model, c, pics, NULL);
    for (unsigned n = 0; n < FRAMES && !err; n++) {
        VmafPicture ref, dis;
        make_frame(c, n, false, planes[0], pw, ph);
        make_frame(c, n, true, planes[1], pw, ph);
        const bool device = pics == DEVICE_PRIMARY || pics == DEVICE_CALLERS;
        err = picture(vmaf, c, pics, &ref);
        if (!err) err = picture(vmaf, c, pics, &dis);
        if (!err) err = fill(&ref, planes[0], pw, ph, device, row);
        if (!err) err = fill(&dis, planes[1], pw, ph, device, row);
        if (!err) err = vmaf_read_pictures(vmaf, &ref, &dis, n);
    }
    if (!err) err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    for (unsigned n = 0; n < FRAMES && !err; n++) {
        for (unsigned k = 0; k < N_KEYS && !err; k++)
            err = vmaf_feature_score_at_index(vmaf, keys[k], &values[n][k], n);
        if (!err) err = vmaf_score_at_index(vmaf, model, &values[n][N_KEYS], n);
    }
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
    for (unsigned i = 0; i < 2; i++)
        for (unsigned p = 0; p < 3; p++) free(planes[i][p]);
    free(row);
    return err;
}

/* A sample above the peak in a device picture, and a CPU-only feature. */
static void check_refusals(void)
{
    const Case c = { "10-bit 4:2:0", VMAF_PIX_FMT_YUV420P, 10, 64, 48 };
    VmafContext *vmaf = NULL;
    VmafModel *model = NULL;
    int err = open_context(&vmaf, &model, &c, DEVICE_PRIMARY, NULL);
    VmafPicture ref, dis;
    if (!err) err = vmaf_cuda_fetch_preallocated_picture(vmaf, &ref);
    if (!err) err = vmaf_cuda_fetch_preallocated_picture(vmaf, &dis);
    if (!err) {
        /* the planes follow each other in one buffer */
        cudaMemset(ref.data[0], 0, (size_t)ref.stride[0] * ref.h[0] * 3 / 2);
        cudaMemset(dis.data[0], 0, (size_t)dis.stride[0] * dis.h[0] * 3 / 2);
        const uint16_t over = 1024;
        cudaMemcpy((uint8_t *)dis.data[0] + 5 * dis.stride[0] + 2 * 17, &over, 2,
                   cudaMemcpyHostToDevice);
        err = vmaf_read_pictures(vmaf, &ref, &dis, 0);
        CHECK(err == -ERANGE, "a 10-bit sample of 1024 in a device picture: %d, not -ERANGE", err);
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
    } else {
        CHECK(0, "device pictures for the range check: %d", err);
    }
    vmaf_model_destroy(model);
    vmaf_close(vmaf);

    model = NULL;
    err = open_context(&vmaf, &model, &c, DEVICE_PRIMARY, "ciede");
    if (!err) err = vmaf_cuda_fetch_preallocated_picture(vmaf, &ref);
    if (!err) err = vmaf_cuda_fetch_preallocated_picture(vmaf, &dis);
    if (!err) {
        cudaMemset(ref.data[0], 0, (size_t)ref.stride[0] * ref.h[0] * 3 / 2);
        cudaMemset(dis.data[0], 0, (size_t)dis.stride[0] * dis.h[0] * 3 / 2);
        err = vmaf_read_pictures(vmaf, &ref, &dis, 0);
        CHECK(err == -ENOTSUP, "device pictures with ciede (no CUDA twin): %d, not -ENOTSUP",
              err);
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
    } else {
        CHECK(0, "device pictures with ciede: %d", err);
    }
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
}

int main(void)
{
    VmafCudaState *probe = NULL;
    VmafConfiguration quiet = { .log_level = VMAF_LOG_LEVEL_NONE };
    VmafContext *v = NULL;
    vmaf_init(&v, quiet); /* the log level is the process's: no message for the probe */
    vmaf_close(v);
    if (vmaf_cuda_state_init(&probe, (VmafCudaConfiguration){ 0 })) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    free(probe);
    static const Case cases[] = {
        { "8-bit 4:2:0 640x360", VMAF_PIX_FMT_YUV420P, 8, 640, 360 },
        { "10-bit 4:2:0 640x360", VMAF_PIX_FMT_YUV420P, 10, 640, 360 },
        { "8-bit 4:4:4 352x288", VMAF_PIX_FMT_YUV444P, 8, 352, 288 },
    };
    static double want[FRAMES][MAX_KEYS], got[FRAMES][MAX_KEYS];
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const Case *c = &cases[i];
        int err = run(c, CPU, want);
        CHECK(!err, "%s, cpu: %d", c->name, err);
        for (Pictures pics = DEVICE_PRIMARY; !err && pics <= PINNED; pics++) {
            memset(got, 0, sizeof(got));
            const int e = run(c, pics, got);
            CHECK(!e, "%s, %s: %d", c->name, picture_names[pics], e);
            unsigned diffs = 0;
            for (unsigned n = 0; !e && n < FRAMES; n++)
                for (unsigned k = 0; k <= N_KEYS; k++)
                    if (memcmp(&got[n][k], &want[n][k], sizeof(double))) {
                        if (!diffs) printf("FAIL %s, %s: frame %u %s %.17g, cpu %.17g\n", c->name,
                                           picture_names[pics], n, k < N_KEYS ? keys[k] : "vmaf",
                                           got[n][k], want[n][k]);
                        diffs++;
                    }
            failures += diffs > 0;
            if (!e)
                printf("%s %s, %s: %u frames x %zu values, %u differ from the cpu (vmaf of frame 0: "
                       "%.17g)\n", diffs ? "FAIL" : "ok  ", c->name, picture_names[pics], FRAMES,
                       N_KEYS + 1, diffs, got[0][N_KEYS]);
        }
    }
    check_refusals();
    printf("%s\n", failures ? "FAILED" : "all equal");
    return failures ? 1 : 0;
}
