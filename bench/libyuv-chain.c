// The reference the compose stage is measured against (issue 13): the same work done the way a
// careful C engineer would with libyuv (Debian's libyuv-dev), per frame of a YUYV camera with an
// 8-bit matte onto an XRGB8888 backdrop at the output size, fill mode (the camera's window
// cropped to the output's aspect, as Backdrop's CameraMapping does):
//   YUY2ToARGB (camera window) -> ARGBCopyYToAlpha (matte as alpha) -> ARGBAttenuate
//   (premultiply, at camera size) -> ARGBScale to the output (kFilterNone: nearest, the
//   sampling Backdrop's compose uses; skipped at equal sizes) -> ARGBBlend over the backdrop.
// Not part of the product and never linked into it: `make bench-libyuv` builds and runs it
// beside `backdrop bench` in one invocation so the two figures come from the same minutes.
//
// Prints one JSON object per case: median ns per output pixel over the frames, memcpy of the
// same floor bytes as `backdrop bench` (BenchCase: camera colour and depth read, backdrop read,
// output written; memcpy copies half, since it reads and writes) timed frame by frame in the
// same loop, and the instruction sets libyuv chose at run time.
//   libyuv-chain [--frames N] [--isa native|avx2|ssse3|sse2] CAMERA_WxH:OUTPUT_WxH ...
#include <libyuv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

static void *buffer(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) { fprintf(stderr, "libyuv-chain: out of memory\n"); exit(1); }
    memset(p, 0, bytes);
    return p;
}

static const char *isa(void) {
    if (TestCpuFlag(kCpuHasAVX512BW)) return "AVX-512";
    if (TestCpuFlag(kCpuHasAVX2)) return "AVX2";
    if (TestCpuFlag(kCpuHasSSSE3)) return "SSSE3";
    if (TestCpuFlag(kCpuHasSSE2)) return "SSE2";
    if (TestCpuFlag(kCpuHasNEON)) return "NEON";
    return "C";
}

static int run_case(int cw, int ch, int ow, int oh, int frames) {
    // Fill: the camera window with the output's aspect, centred (CameraMapping's integer rule).
    int sx = 0, sy = 0, sw = cw, shh = ch;
    if ((long)cw * oh > (long)ch * ow) { sw = (ch * ow + oh / 2) / oh; sx = ((cw - sw) / 2) & ~1; }
    else { shh = (cw * oh + ow / 2) / ow; sy = (ch - shh) / 2; }
    uint8_t *camera = buffer((size_t)cw * ch * 2), *matte = buffer((size_t)cw * ch);
    uint8_t *depth = buffer((size_t)cw * ch * 2);  // read by the matte in Backdrop; counted in the floor
    uint8_t *layer = buffer((size_t)sw * shh * 4), *scaled = buffer((size_t)ow * oh * 4);
    uint8_t *backdrop = buffer((size_t)ow * oh * 4), *output = buffer((size_t)ow * oh * 4);
    for (int y = 0; y < ch; y++)
        for (int x = 0; x < cw; x++) {
            camera[(y * cw + x) * 2] = (uint8_t)(16 + (x * 7 + y * 3) % 220);
            camera[(y * cw + x) * 2 + 1] = (uint8_t)(x & 1 ? 128 + (y % 60) : 128 - (x % 60));
            // A subject in the middle, soft edges, background elsewhere: every blend branch runs.
            int dx = x - cw / 2, dy = y - ch / 2, r = dx * dx + dy * dy, edge = (ch / 3) * (ch / 3);
            matte[y * cw + x] = r < edge ? 255 : r < edge + edge / 4 ? (uint8_t)(255 - (r - edge) * 255 / (edge / 4)) : 0;
        }
    for (int i = 0; i < ow * oh; i++) ((uint32_t *)backdrop)[i] = 0xFF000000u | (uint32_t)(i * 2654435761u >> 8);
    size_t traffic = (size_t)cw * ch * 2 + (size_t)cw * ch * 2 + (size_t)ow * oh * 4 * 2;
    size_t floor_bytes = (traffic + 1) / 2;
    uint8_t *copy_src = buffer(floor_bytes), *copy_dst = buffer(floor_bytes);
    memset(copy_src, 7, floor_bytes);
    uint64_t *chain = calloc((size_t)frames, sizeof *chain), *copy = calloc((size_t)frames, sizeof *copy);
    if (!chain || !copy) { fprintf(stderr, "libyuv-chain: out of memory\n"); return 1; }
    int scale = !(sw == ow && shh == oh);
    for (int frame = 0; frame < frames + 2; frame++) {
        uint64_t t0 = now_ns();
        YUY2ToARGB(camera + (sy * cw + sx) * 2, cw * 2, layer, sw * 4, sw, shh);
        ARGBCopyYToAlpha(matte + sy * cw + sx, cw, layer, sw * 4, sw, shh);
        ARGBAttenuate(layer, sw * 4, layer, sw * 4, sw, shh);
        if (scale) ARGBScale(layer, sw * 4, sw, shh, scaled, ow * 4, ow, oh, kFilterNone);
        ARGBBlend(scale ? scaled : layer, ow * 4, backdrop, ow * 4, output, ow * 4, ow, oh);
        uint64_t t1 = now_ns();
        memcpy(copy_dst, copy_src, floor_bytes);
        uint64_t t2 = now_ns();
        if (frame >= 2) { chain[frame - 2] = t1 - t0; copy[frame - 2] = t2 - t1; }
    }
    double pixels = (double)ow * oh;
    // median() sorts, so [0] is then the best frame: on a loaded machine the best is the
    // steadier figure, the median the one `backdrop bench` reports.
    double chain_px = (double)median(chain, frames) / pixels, copy_px = (double)median(copy, frames) / pixels;
    double chain_best = (double)chain[0] / pixels, copy_best = (double)copy[0] / pixels;
    // The output is read once so the compiler cannot drop the chain.
    unsigned check = 0;
    for (int i = 0; i < ow * oh; i += 4099) check += output[i * 4 + 1];
    printf("{\"camera\": \"%dx%d\", \"size\": \"%dx%d\", \"libyuv_ns_per_px\": %.3f, \"memcpy_ns_per_px\": %.3f, "
           "\"ratio_to_memcpy\": %.3f, \"libyuv_best_ns_per_px\": %.3f, \"memcpy_best_ns_per_px\": %.3f, "
           "\"isa\": \"%s\", \"filter\": \"none\", \"check\": %u}\n",
           cw, ch, ow, oh, chain_px, copy_px, copy_px > 0 ? chain_px / copy_px : 0, chain_best, copy_best, isa(), check);
    free(camera); free(matte); free(depth); free(layer); free(scaled); free(backdrop); free(output);
    free(copy_src); free(copy_dst); free(chain); free(copy);
    return 0;
}

// --isa limits libyuv's run-time choice (MaskCpuFlags: this libyuv no longer reads the
// LIBYUV_DISABLE_* environment variables, its unit tests do) so both sides can be compared at
// the instruction-set level of Backdrop's build: sse2 is the x86-64 baseline swiftc targets.
static int limit_isa(const char *name) {
    int sse2 = kCpuHasX86 | kCpuHasSSE2, ssse3 = sse2 | kCpuHasSSSE3 | kCpuHasSSE41 | kCpuHasSSE42;
    int avx2 = ssse3 | kCpuHasAVX | kCpuHasAVX2 | kCpuHasERMS | kCpuHasFMA3 | kCpuHasF16C;
    if (strcmp(name, "native") == 0) return 0;
    if (strcmp(name, "sse2") == 0) MaskCpuFlags(sse2);
    else if (strcmp(name, "ssse3") == 0) MaskCpuFlags(ssse3);
    else if (strcmp(name, "avx2") == 0) MaskCpuFlags(avx2);
    else return -1;
    return 0;
}

int main(int argc, char **argv) {
    int frames = 60, first = 1;
    for (;;) {
        if (argc > first + 1 && strcmp(argv[first], "--frames") == 0) { frames = atoi(argv[first + 1]); first += 2; }
        else if (argc > first + 1 && strcmp(argv[first], "--isa") == 0) {
            if (limit_isa(argv[first + 1]) != 0) { fprintf(stderr, "libyuv-chain: --isa native, avx2, ssse3 or sse2\n"); return 2; }
            first += 2;
        } else break;
    }
    if (frames < 1 || frames > 10000 || first >= argc) {
        fprintf(stderr, "usage: libyuv-chain [--frames N] [--isa native|avx2|ssse3|sse2] CAMERA_WxH:OUTPUT_WxH ...\n");
        return 2;
    }
    for (int i = first; i < argc; i++) {
        int cw, ch, ow, oh;
        if (sscanf(argv[i], "%dx%d:%dx%d", &cw, &ch, &ow, &oh) != 4 || cw < 2 || ch < 2 || ow < 2 || oh < 2 || cw % 2) {
            fprintf(stderr, "libyuv-chain: %s: expected CAMERA_WxH:OUTPUT_WxH, even camera width\n", argv[i]);
            return 2;
        }
        if (run_case(cw, ch, ow, oh, frames) != 0) return 1;
    }
    return 0;
}
