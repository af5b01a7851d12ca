// The PNG compression measurement behind `PNGCompression` (docs/performance.md, "PNG compression"): encodes
// one raw RGBA frame through the library's own encoder (Sources/CGLES/png_fast.h) at several zlib levels and
// row-filter choices, 5 times each, interleaved, and prints the median time and the size of each.
//
//   canvas-gl animate --example clock --size 1024x1024 --frames 1 --raw -o - > clock.rgba
//   cc -O2 -I Sources/CGLES scripts/png-compression-bench.c -lpng -o /tmp/png-bench
//   /tmp/png-bench clock.rgba 1024 1024
#include "png_fast.h"
#include <stdio.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s FRAME.rgba WIDTH HEIGHT\n", argv[0]); return 2; }
    unsigned w = (unsigned)atoi(argv[2]), h = (unsigned)atoi(argv[3]);
    size_t bytes = (size_t)w * h * 4;
    unsigned char *px = malloc(bytes);
    FILE *f = fopen(argv[1], "rb");
    if (!px || !f || fread(px, 1, bytes, f) != bytes) { fprintf(stderr, "cannot read %u×%u RGBA from %s\n", w, h, argv[1]); return 1; }
    fclose(f);
    struct { int level, filters; const char *name; } configs[] = {
        {1, PNG_FILTER_NONE, "level 1, no filter (.fastest)"},
        {1, PNG_FILTER_UP, "level 1, Up"},
        {3, PNG_FILTER_NONE, "level 3, no filter"},
        {3, PNG_FILTER_UP, "level 3, Up (.default)"},
        {6, PNG_FILTER_NONE, "level 6, no filter"},
        {6, PNG_FILTER_UP, "level 6, Up"},
        {6, PNG_ALL_FILTERS, "level 6, all filters (libpng's default)"},
        {9, PNG_ALL_FILTERS, "level 9, all filters (.smallest)"},
    };
    enum { n = sizeof configs / sizeof configs[0], runs = 5 };
    double times[n][runs];
    size_t sizes[n];
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < n; c++) {
            unsigned char *out = NULL;
            char message[256];
            double t0 = now_ms();
            if (!gpucanvas_png_encode(px, w, h, configs[c].level, configs[c].filters, &out, &sizes[c], message)) {
                fprintf(stderr, "%s: %s\n", configs[c].name, message);
                return 1;
            }
            times[c][r] = now_ms() - t0;
            free(out);
        }
    }
    for (int c = 0; c < n; c++) {
        qsort(times[c], runs, sizeof(double), by_value);
        printf("| %s | %.1f | %zu |\n", configs[c].name, times[c][runs / 2], sizes[c] / 1024);
    }
    return 0;
}
