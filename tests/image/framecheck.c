/* Judges a frame the booted image wrote back (a photo taken through vkms's writeback, PNG or JPEG)
 * against the host's `backdrop render` of the same camera frame over the same backdrop. Host side:
 * libspng and libturbojpeg, the decoders the firmware itself uses. Prints one line; exit 0 when
 * the frame holds, 1 when it does not, 2 on bad input.
 *
 *   framecheck PHOTO EXPECTED.png BACKDROP_RENDER.png TOL PERCENT
 *   framecheck size PHOTO        prints WIDTHxHEIGHT
 *
 * Holds when >= PERCENT % of all pixels are within TOL levels of EXPECTED on every channel, and so
 * are >= PERCENT % of the subject's pixels (where EXPECTED differs from BACKDROP_RENDER, the same
 * render with no subject), so a frame showing only the backdrop, or black, cannot pass. TOL allows
 * for JPEG's loss; the e2e scenario judges the lossless path at 1 level. */
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

typedef struct { int width, height; unsigned char *rgb; } Image;

static unsigned char *slurp(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    rewind(file);
    unsigned char *bytes = malloc(*size);
    if (fread(bytes, 1, *size, file) != (size_t)*size) { fprintf(stderr, "%s: short read\n", path); exit(2); }
    fclose(file);
    return bytes;
}

static Image load(const char *path) {
    Image image = {0, 0, NULL};
    long size;
    unsigned char *bytes = slurp(path, &size);
    if (size > 3 && bytes[0] == 0xff && bytes[1] == 0xd8) {
        tjhandle tj = tjInitDecompress();
        int subsampling, colourspace;
        if (tjDecompressHeader3(tj, bytes, size, &image.width, &image.height, &subsampling, &colourspace) != 0) {
            fprintf(stderr, "%s: %s\n", path, tjGetErrorStr2(tj)); exit(2);
        }
        image.rgb = malloc((size_t)image.width * image.height * 3);
        if (tjDecompress2(tj, bytes, size, image.rgb, image.width, 0, image.height, TJPF_RGB, TJFLAG_ACCURATEDCT) != 0) {
            fprintf(stderr, "%s: %s\n", path, tjGetErrorStr2(tj)); exit(2);
        }
        tjDestroy(tj);
    } else {
        spng_ctx *ctx = spng_ctx_new(0);
        spng_set_png_buffer(ctx, bytes, size);
        struct spng_ihdr ihdr;
        size_t out;
        int err = spng_get_ihdr(ctx, &ihdr);
        if (!err) err = spng_decoded_image_size(ctx, SPNG_FMT_RGB8, &out);
        if (!err) { image.rgb = malloc(out); err = spng_decode_image(ctx, image.rgb, out, SPNG_FMT_RGB8, 0); }
        if (err) { fprintf(stderr, "%s: %s\n", path, spng_strerror(err)); exit(2); }
        image.width = ihdr.width;
        image.height = ihdr.height;
        spng_ctx_free(ctx);
    }
    free(bytes);
    return image;
}

static int near(const unsigned char *a, const unsigned char *b, int tol) {
    for (int c = 0; c < 3; c++) if (abs(a[c] - b[c]) > tol) return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "size") == 0) {
        Image photo = load(argv[2]);
        printf("%dx%d\n", photo.width, photo.height);
        return 0;
    }
    if (argc != 6) { fprintf(stderr, "usage: framecheck PHOTO EXPECTED.png BACKDROP_RENDER.png TOL PERCENT\n"); return 2; }
    Image photo = load(argv[1]), expected = load(argv[2]), backdrop = load(argv[3]);
    int tol = atoi(argv[4]);
    double percent = atof(argv[5]);
    if (photo.width != expected.width || photo.height != expected.height ||
        backdrop.width != expected.width || backdrop.height != expected.height) {
        printf("sizes differ: photo %dx%d, expected %dx%d, backdrop %dx%d\n", photo.width, photo.height,
               expected.width, expected.height, backdrop.width, backdrop.height);
        return 1;
    }
    long pixels = (long)photo.width * photo.height, within = 0, subject = 0, subjectWithin = 0;
    double luma = 0;
    for (long i = 0; i < pixels; i++) {
        const unsigned char *p = photo.rgb + 3 * i, *e = expected.rgb + 3 * i, *b = backdrop.rgb + 3 * i;
        int ok = near(p, e, tol);
        within += ok;
        if (!near(e, b, 24)) { subject++; subjectWithin += ok; }
        luma += 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
    }
    double all = 100.0 * within / pixels, person = subject ? 100.0 * subjectWithin / subject : 0;
    int holds = all >= percent && subject > pixels / 100 && person >= percent;
    printf("%dx%d, mean luma %.0f: %.1f %% of pixels within %d levels of the render, subject %.1f %% of the frame "
           "with %.1f %% of it within\n", photo.width, photo.height, luma / pixels, all, tol,
           100.0 * subject / pixels, person);
    return holds ? 0 : 1;
}
