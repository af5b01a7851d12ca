// A PNG encoder through libpng's full API, with the zlib level and row filters chosen by the caller, written to
// memory (`PNGCompression`: level 1 without row filtering for animation frames). The simplified API (`png_image_write_to_memory`, what `writePNG` uses) cannot turn filtering off:
// even with PNG_IMAGE_FLAG_FAST it tries every filter on every row, which on a 1024² frame of many shapes
// costs twice the deflate itself (measured: docs/DESIGN-NOTES.md, "Animation export").
//
// libpng reports errors by longjmp; the setjmp is here in C, in the same function that calls libpng, so the
// jump never crosses a Swift frame. The caller frees `*out` with free().
#ifndef CGLES_PNG_FAST_H
#define CGLES_PNG_FAST_H
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
} gpucanvas_png_buffer;

static void gpucanvas_png_write(png_structp png, png_bytep bytes, png_size_t length) {
    gpucanvas_png_buffer *b = (gpucanvas_png_buffer *)png_get_io_ptr(png);
    if (b->size + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 65536;
        while (capacity < b->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(b->data, capacity);
        if (!grown) png_error(png, "out of memory for the PNG");
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, bytes, length);
    b->size += length;
}

static void gpucanvas_png_flush(png_structp png) { (void)png; }

/// Keeps libpng's message (in the 256-byte buffer given as the error pointer) and jumps back.
static void gpucanvas_png_error(png_structp png, png_const_charp message) {
    char *out = (char *)png_get_error_ptr(png);
    strncpy(out, message, 255);
    out[255] = 0;
    png_longjmp(png, 1);
}

static void gpucanvas_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

/// Encodes `width` × `height` 8-bit straight-alpha RGBA rows (no padding) as a PNG with an sRGB chunk, as the
/// simplified API writes them, at zlib `level` (0…9) with the row `filters` libpng may choose from (a mask of
/// PNG_FILTER_NONE … PNG_FILTER_PAETH; several: libpng picks per row). Returns 1 and the file in `*out` /
/// `*outSize`, or 0 with libpng's reason in `message` (256 bytes).
static inline int gpucanvas_png_encode(const unsigned char *rgba, unsigned width, unsigned height, int level,
                                       int filters, unsigned char **out, size_t *outSize, char *message) {
    message[0] = 0;
    // On the heap: a local changed between setjmp and longjmp would be indeterminate after the jump.
    gpucanvas_png_buffer *buffer = (gpucanvas_png_buffer *)calloc(1, sizeof(gpucanvas_png_buffer));
    if (!buffer) { strcpy(message, "out of memory"); return 0; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, gpucanvas_png_error, gpucanvas_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        free(buffer);
        strcpy(message, "libpng could not start a write");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer->data);
        free(buffer);
        return 0;
    }
    png_set_write_fn(png, buffer, gpucanvas_png_write, gpucanvas_png_flush);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    for (unsigned y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rgba + (size_t)y * width * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = buffer->data;
    *outSize = buffer->size;
    free(buffer);
    return 1;
}
/// zlib level 1, no row filter: the fastest encoding (animation frames).
static inline int gpucanvas_png_encode_fast(const unsigned char *rgba, unsigned width, unsigned height,
                                            unsigned char **out, size_t *outSize, char *message) {
    return gpucanvas_png_encode(rgba, width, height, 1, PNG_FILTER_NONE, out, outSize, message);
}
#endif
