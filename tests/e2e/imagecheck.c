/* Judges the photos the end-to-end run brings back (host side, libspng). One verdict per call,
 * printed as one line; exit 0 when the check holds, 1 when it does not, 2 on bad input.
 *
 *   imagecheck match A.png B.png TOL PERCENT [BACKDROP.png]
 *                                              >= PERCENT % of pixels within TOL levels on every channel; with
 *                                              BACKDROP, also >= PERCENT % of the pixels where B differs from
 *                                              it (the person), so a backdrop-only match cannot pass
 *   imagecheck backdrop A.png                  which test backdrop (a blue, b orange, c green) fills the top corners
 *   imagecheck grey A.png                      the matte view: >= 99 % of pixels have R = G = B, with dark and light
 *   imagecheck notice A.png                    the notice: a black box with white text across the middle
 *   imagecheck size A.png                      prints WIDTHxHEIGHT
 *   imagecheck psnr A B MIN [BACKDROP.png]     PSNR of A against B >= MIN dB; with BACKDROP, also over the pixels
 *                                              where B differs from it (the person), as match does
 *   imagecheck digit A LAYER.png X Y W H TOL PERCENT
 *                                              the message region X,Y,W,H of A shows what `backdrop render-message`
 *                                              drew in LAYER.png: >= PERCENT % of its pixels within TOL levels
 *   imagecheck colour A R G B TOL PERCENT     >= PERCENT % of the whole picture within TOL levels of R,G,B on every
 *                                              channel (a solid backdrop shown behind whatever else is on screen)
 * A and B may be PNG or JPEG (the photos are JPEG, libturbojpeg decodes them).
 */
#include <math.h>
#include <spng.h>
#include <turbojpeg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned width, height; unsigned char *rgb; } Image;

static Image load_jpeg(const char *path, FILE *file) {
    Image image = {0, 0, NULL};
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
    if (length <= 0 || fread(bytes, 1, (size_t)length, file) != (size_t)length) { fprintf(stderr, "%s: unreadable\n", path); exit(2); }
    tjhandle tj = tjInitDecompress();
    int width, height, subsampling, colourspace;
    if (tjDecompressHeader3(tj, bytes, (unsigned long)length, &width, &height, &subsampling, &colourspace)) {
        fprintf(stderr, "%s: %s\n", path, tjGetErrorStr2(tj));
        exit(2);
    }
    image.rgb = malloc((size_t)width * height * 3);
    if (tjDecompress2(tj, bytes, (unsigned long)length, image.rgb, width, 0, height, TJPF_RGB, TJFLAG_ACCURATEDCT)) {
        fprintf(stderr, "%s: %s\n", path, tjGetErrorStr2(tj));
        exit(2);
    }
    image.width = (unsigned)width;
    image.height = (unsigned)height;
    tjDestroy(tj);
    free(bytes);
    fclose(file);
    return image;
}

static Image load(const char *path) {
    Image image = {0, 0, NULL};
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    int first = fgetc(file), second = fgetc(file);
    rewind(file);
    if (first == 0xFF && second == 0xD8) return load_jpeg(path, file);
    spng_ctx *ctx = spng_ctx_new(0);
    spng_set_png_file(ctx, file);
    struct spng_ihdr ihdr;
    size_t size;
    int err = spng_get_ihdr(ctx, &ihdr);
    if (!err) err = spng_decoded_image_size(ctx, SPNG_FMT_RGB8, &size);
    if (!err) {
        image.rgb = malloc(size);
        err = spng_decode_image(ctx, image.rgb, size, SPNG_FMT_RGB8, 0);
    }
    if (err) { fprintf(stderr, "%s: %s\n", path, spng_strerror(err)); exit(2); }
    image.width = ihdr.width;
    image.height = ihdr.height;
    spng_ctx_free(ctx);
    fclose(file);
    return image;
}

static const unsigned char *at(const Image *image, unsigned x, unsigned y) { return image->rgb + ((size_t)y * image->width + x) * 3; }

static int match(const char *a_path, const char *b_path, int tolerance, double percent, const char *backdrop_path) {
    Image a = load(a_path), b = load(b_path);
    Image back = backdrop_path ? load(backdrop_path) : b;
    if (a.width != b.width || a.height != b.height || back.width != b.width || back.height != b.height) {
        printf("sizes differ: %ux%u vs %ux%u\n", a.width, a.height, b.width, b.height);
        return 1;
    }
    size_t within = 0, total = (size_t)a.width * a.height, person = 0, person_within = 0;
    int worst = 0;
    double sum = 0;
    for (size_t i = 0; i < total; i++) {
        int pixel_worst = 0, is_person = 0;
        for (int c = 0; c < 3; c++) {
            int d = abs((int)a.rgb[i * 3 + c] - (int)b.rgb[i * 3 + c]);
            if (d > pixel_worst) pixel_worst = d;
            sum += d;
            if (b.rgb[i * 3 + c] != back.rgb[i * 3 + c]) is_person = 1;
        }
        if (pixel_worst <= tolerance) within++;
        if (pixel_worst > worst) worst = pixel_worst;
        if (is_person) {
            person++;
            if (pixel_worst <= tolerance) person_within++;
        }
    }
    double share = 100.0 * (double)within / (double)total;
    double person_share = person ? 100.0 * (double)person_within / (double)person : 0;
    printf("%.2f %% of %ux%u pixels within %d level(s) (need %.0f %%), max difference %d, mean %.3f", share, a.width,
           a.height, tolerance, percent, worst, sum / (double)(total * 3));
    if (backdrop_path) printf("; person: %.2f %% of %zu pixels within", person_share, person);
    printf("\n");
    if (backdrop_path && (person < total / 20 || person_share < percent)) return 1;
    return share >= percent ? 0 : 1;
}

static int psnr(const char *a_path, const char *b_path, double minimum, const char *backdrop_path) {
    Image a = load(a_path), b = load(b_path);
    Image back = backdrop_path ? load(backdrop_path) : b;
    if (a.width != b.width || a.height != b.height || back.width != b.width || back.height != b.height) {
        printf("sizes differ: %ux%u vs %ux%u\n", a.width, a.height, b.width, b.height);
        return 1;
    }
    double squared = 0, person_squared = 0;
    size_t total = (size_t)a.width * a.height, person = 0;
    for (size_t i = 0; i < total; i++) {
        double pixel = 0;
        int is_person = 0;
        for (int c = 0; c < 3; c++) {
            double d = (double)a.rgb[i * 3 + c] - (double)b.rgb[i * 3 + c];
            pixel += d * d;
            if (b.rgb[i * 3 + c] != back.rgb[i * 3 + c]) is_person = 1;
        }
        squared += pixel;
        if (is_person) { person_squared += pixel; person++; }
    }
    double mse = squared / (double)(total * 3);
    double db = mse == 0 ? 99.0 : 10 * log10(255.0 * 255.0 / mse);
    printf("PSNR %.1f dB over %ux%u (need %.0f)", db, a.width, a.height, minimum);
    int ok = db >= minimum;
    if (backdrop_path) {
        double person_mse = person ? person_squared / (double)(person * 3) : 0;
        double person_db = person_mse == 0 ? 99.0 : 10 * log10(255.0 * 255.0 / person_mse);
        printf("; person: %.1f dB over %zu pixels", person_db, person);
        ok = ok && person >= total / 20 && person_db >= minimum;
    }
    printf("\n");
    return ok ? 0 : 1;
}

/* The message layer draws an opaque box, so the region of a captured frame equals the rendered
 * layer there, whatever is underneath. */
static int digit(const char *path, const char *layer_path, unsigned x0, unsigned y0, unsigned w, unsigned h, int tolerance,
                 double percent) {
    Image image = load(path), layer = load(layer_path);
    if (image.width != layer.width || image.height != layer.height || x0 + w > image.width || y0 + h > image.height) {
        printf("sizes differ or region outside: %ux%u vs %ux%u\n", image.width, image.height, layer.width, layer.height);
        return 1;
    }
    size_t within = 0, total = (size_t)w * h;
    for (unsigned y = y0; y < y0 + h; y++) {
        for (unsigned x = x0; x < x0 + w; x++) {
            const unsigned char *p = at(&image, x, y), *q = at(&layer, x, y);
            int worst = 0;
            for (int c = 0; c < 3; c++) {
                int d = abs((int)p[c] - (int)q[c]);
                if (d > worst) worst = d;
            }
            if (worst <= tolerance) within++;
        }
    }
    double share = 100.0 * (double)within / (double)total;
    printf("%.2f %% of the %ux%u region within %d levels\n", share, w, h, tolerance);
    return share >= percent ? 0 : 1;
}

/* The scene's wall is far, so the top corners of the screen show the backdrop itself. */
static int backdrop(const char *path) {
    Image image = load(path);
    double sum[3] = {0, 0, 0};
    size_t count = 0;
    unsigned box = image.width / 16;
    for (unsigned y = 0; y < box; y++) {
        for (unsigned x = 0; x < box; x++) {
            for (int side = 0; side < 2; side++) {
                const unsigned char *p = at(&image, side ? image.width - 1 - x : x, y);
                for (int c = 0; c < 3; c++) sum[c] += p[c];
                count++;
            }
        }
    }
    double r = sum[0] / count, g = sum[1] / count, b = sum[2] / count;
    const char *name = "none";
    if (b > r + 60 && b > g + 60) name = "a";
    else if (r > g + 40 && r > b + 60) name = "b";
    else if (g > r + 60 && g > b + 60) name = "c";
    printf("%s (corner mean %.0f %.0f %.0f)\n", name, r, g, b);
    return strcmp(name, "none") ? 0 : 1;
}

static int grey(const char *path) {
    Image image = load(path);
    size_t total = (size_t)image.width * image.height, equal = 0, dark = 0, light = 0;
    for (size_t i = 0; i < total; i++) {
        const unsigned char *p = image.rgb + i * 3;
        if (p[0] == p[1] && p[1] == p[2]) {
            equal++;
            if (p[0] < 32) dark++;
            if (p[0] > 223) light++;
        }
    }
    double share = 100.0 * equal / total;
    printf("%.2f %% grey pixels, %.1f %% dark, %.1f %% light\n", share, 100.0 * dark / total, 100.0 * light / total);
    return share >= 99.0 && dark > total / 20 && light > total / 50 ? 0 : 1;
}

/* TextOverlay draws white glyphs on a black box centred on the screen; its middle band must be
 * almost only black and white, with text in it. */
static int notice(const char *path) {
    Image image = load(path);
    unsigned x0 = image.width / 2 - image.width / 4, x1 = image.width / 2 + image.width / 4;
    unsigned y0 = image.height / 2 - image.height / 40, y1 = image.height / 2 + image.height / 40;
    size_t black = 0, white = 0, total = 0;
    for (unsigned y = y0; y < y1; y++) {
        for (unsigned x = x0; x < x1; x++) {
            const unsigned char *p = at(&image, x, y);
            if (p[0] <= 8 && p[1] <= 8 && p[2] <= 8) black++;
            else if (p[0] >= 247 && p[1] >= 247 && p[2] >= 247) white++;
            total++;
        }
    }
    double b = 100.0 * black / total, w = 100.0 * white / total;
    printf("middle band: %.1f %% black, %.1f %% white\n", b, w);
    return b + w >= 98.0 && b >= 30.0 && w >= 5.0 ? 0 : 1;
}

static int colour(const char *path, int r, int g, int b, int tolerance, double percent) {
    Image image = load(path);
    size_t total = (size_t)image.width * image.height, near = 0;
    for (size_t i = 0; i < total; i++) {
        const unsigned char *p = image.rgb + i * 3;
        if (abs(p[0] - r) <= tolerance && abs(p[1] - g) <= tolerance && abs(p[2] - b) <= tolerance) near++;
    }
    double share = 100.0 * near / total;
    printf("%.1f %% of the picture within %d levels of %d %d %d\n", share, tolerance, r, g, b);
    return share >= percent ? 0 : 1;
}

/* vivid's default test pattern, 75 % colour bars, shown over the whole screen: eight vertical
 * bars of equal width, each sampled over the middle half of its width in the lower half of the
 * picture (the driver draws its text at the top). */
static int bars(const char *path, int tolerance, double percent) {
    static const int expected[8][3] = {{191, 191, 191}, {191, 191, 0}, {0, 191, 191}, {0, 191, 0},
                                       {191, 0, 191},   {191, 0, 0},   {0, 0, 191},   {0, 0, 0}};
    Image image = load(path);
    size_t near = 0, total = 0;
    for (int bar = 0; bar < 8; bar++) {
        unsigned x0 = image.width * (4 * bar + 1) / 32, x1 = image.width * (4 * bar + 3) / 32;
        for (unsigned y = image.height / 2; y < image.height * 15 / 16; y++) {
            for (unsigned x = x0; x < x1; x++) {
                const unsigned char *p = at(&image, x, y);
                int worst = 0;
                for (int c = 0; c < 3; c++) {
                    int d = abs((int)p[c] - expected[bar][c]);
                    if (d > worst) worst = d;
                }
                if (worst <= tolerance) near++;
                total++;
            }
        }
    }
    double share = 100.0 * near / total;
    printf("%.1f %% of the bars' samples within %d levels of vivid's 75 %% colour bars\n", share, tolerance);
    return share >= percent ? 0 : 1;
}

int main(int argc, char **argv) {
    if ((argc == 6 || argc == 7) && !strcmp(argv[1], "match"))
        return match(argv[2], argv[3], atoi(argv[4]), atof(argv[5]), argc == 7 ? argv[6] : NULL);
    if (argc == 3 && !strcmp(argv[1], "backdrop")) return backdrop(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "grey")) return grey(argv[2]);
    if (argc == 5 && !strcmp(argv[1], "bars")) return bars(argv[2], atoi(argv[3]), atof(argv[4]));
    if (argc == 3 && !strcmp(argv[1], "notice")) return notice(argv[2]);
    if ((argc == 5 || argc == 6) && !strcmp(argv[1], "psnr"))
        return psnr(argv[2], argv[3], atof(argv[4]), argc == 6 ? argv[5] : NULL);
    if (argc == 10 && !strcmp(argv[1], "digit"))
        return digit(argv[2], argv[3], (unsigned)atoi(argv[4]), (unsigned)atoi(argv[5]), (unsigned)atoi(argv[6]),
                     (unsigned)atoi(argv[7]), atoi(argv[8]), atof(argv[9]));
    if (argc == 8 && !strcmp(argv[1], "colour"))
        return colour(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atof(argv[7]));
    if (argc == 3 && !strcmp(argv[1], "size")) {
        Image image = load(argv[2]);
        printf("%ux%u\n", image.width, image.height);
        return 0;
    }
    fprintf(stderr, "usage: imagecheck match A B TOL PERCENT [BACKDROP] | psnr A B MIN [BACKDROP] | digit A LAYER X Y W H TOL PERCENT"
                    " | colour A R G B TOL PERCENT | backdrop A | grey A | notice A | bars A TOL PERCENT | size A\n");
    return 2;
}
