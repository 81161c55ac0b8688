/* Command line of the vqx tool: libvmaf's `vmaf` flags plus vqx's own. */
#ifndef VQX_TOOLS_CLI_H
#define VQX_TOOLS_CLI_H

#include <stdbool.h>

#include "io/input.h"
#include "vqx/vqx.h"

/* Exit codes, one per class of failure. */
enum {
    EXIT_OK = 0,
    EXIT_METRIC = 1,    /* a feature or model failed; the others were written */
    EXIT_USAGE = 2,     /* bad flag, option, feature, model or backend */
    EXIT_INPUT = 3,     /* an input cannot be opened or does not match */
    EXIT_TRUNCATED = 4, /* an input ended inside a frame or could not be read;
                           the complete frames were scored and written */
    EXIT_OUTPUT = 5,    /* the output file cannot be written */
};

#define CLI_MAX_ITEMS 64

typedef struct CliFeature {
    const char *name;
    const char *options; /* "k=v:k=v" or NULL */
} CliFeature;

typedef struct CliSettings {
    const char *ref_path, *dis_path;
    VqxRawFormat raw;
    bool raw_given;          /* every one of -w -h -p -b given */
    const char *models[CLI_MAX_ITEMS];
    unsigned n_models;
    CliFeature features[CLI_MAX_ITEMS];
    unsigned n_features;
    const char *output_path;
    enum VqxOutputFormat output_format;
    const char *plot_path;   /* --plot: an SVG beside the output */
    int precision;
    unsigned threads;
    unsigned cpumask;        /* libvmaf's bits: a set bit disables that SIMD level */
    unsigned reader_threads; /* per input, VQX_READER_THREADS; 0: chosen by the reader */
    unsigned subsample;
    unsigned frame_cnt;
    unsigned frame_skip_ref, frame_skip_dist;
    bool common_bitdepth;    /* inputs of different bit depths are scored at the larger */
    bool no_prediction;
    bool quiet;
    enum VqxBackend backend;
    bool strict_backend;
    unsigned gpu;            /* --gpu: the CUDA device of --backend cuda */
    bool gpu_given;
    char *owned[2 * CLI_MAX_ITEMS]; /* strings parse_cli allocated */
    unsigned n_owned;
} CliSettings;

/* Parse argv (and VQX_READER_THREADS, which forces the number of reader
 * threads per input, for tests and benchmarks). Returns -1 to go on (free_cli when done), otherwise the exit
 * code to leave with, nothing left to free (--help and --version exit 0;
 * errors print one line and the usage hint). */
int parse_cli(CliSettings *s, int argc, char *const *argv);
void free_cli(CliSettings *s);

#endif
