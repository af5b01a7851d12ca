// libjpeg (libjpeg-turbo's libjpeg 6.2 API) for Swift, with an error manager that cannot exit the process.
// Debian: libjpeg62-turbo-dev.
//
// libjpeg reports a fatal error by calling `err->error_exit`, whose default prints and calls exit(). The
// usual cure is an error_exit that longjmps back to a setjmp taken before the failing call. Swift can
// neither call setjmp (a function that returns twice) nor be jumped over (its frames hold references
// that must be released), so every libjpeg call that can fail is made here, in C, inside a function that
// took its own setjmp first: the jump only ever crosses libjpeg's frames, never a Swift one. SwiftPM
// compiles no sources in a system-library target, so these are `static inline` functions in the header;
// the Swift compiler's Clang emits them into each Swift module that calls them. They are `noinline` so
// the optimiser keeps each setjmp in the function that owns it (LLVM refuses to inline a function that
// calls setjmp anyway).
//
// Use: cjpeg_decoder_create → cjpeg_read_header_memory or _stdio → (read the size from `cinfo`, allocate
// image_width × image_height × 4 bytes) → cjpeg_decode → cjpeg_decoder_destroy. Each step returns 1 on
// success, 0 on failure with `message` (libjpeg's text) and `error_code` (its J_MESSAGE_CODE) set.
#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct cjpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    jmp_buf jump;
    /// 1 once jpeg_create_decompress has run (and jpeg_destroy_decompress must).
    int created;
    /// The J_MESSAGE_CODE of the error that stopped the decoder (JWRN_JPEG_EOF for truncated data), and
    /// its first two integer parameters (JERR_NO_SOI: the first two bytes).
    int error_code;
    int error_parm0, error_parm1;
    /// libjpeg's text for that error.
    char message[JMSG_LENGTH_MAX];
} cjpeg_decoder;

/// error_exit: keep the code and text, then jump back to the setjmp of the cjpeg_* call in progress.
static inline void cjpeg_error_exit(j_common_ptr cinfo) {
    cjpeg_decoder *d = (cjpeg_decoder *)cinfo->client_data;
    d->error_code = cinfo->err->msg_code;
    d->error_parm0 = cinfo->err->msg_parm.i[0];
    d->error_parm1 = cinfo->err->msg_parm.i[1];
    (*cinfo->err->format_message)(cinfo, d->message);
    longjmp(d->jump, 1);
}

/// emit_message: nothing is printed. Data that ends early is an error (libjpeg's own source managers
/// only warn, then pad the image with grey); other warnings (corrupt entropy data that libjpeg recovers
/// from, extraneous bytes) are counted in err.num_warnings and decoding goes on, as djpeg does.
static inline void cjpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) (*cinfo->err->error_exit)(cinfo);
    cinfo->err->num_warnings++;
}

static inline void cjpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// A new decoder, or NULL when out of memory (jpeg_create_decompress failing can mean nothing else).
__attribute__((noinline)) static inline cjpeg_decoder *cjpeg_decoder_create(void) {
    cjpeg_decoder *d = (cjpeg_decoder *)calloc(1, sizeof(cjpeg_decoder));
    if (!d) return NULL;
    d->cinfo.err = jpeg_std_error(&d->err);
    d->err.error_exit = cjpeg_error_exit;
    d->err.emit_message = cjpeg_emit_message;
    d->err.output_message = cjpeg_output_message;
    d->cinfo.client_data = d;   // jpeg_create_decompress keeps err and client_data, and may fail already
    if (setjmp(d->jump)) {
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    return d;
}

__attribute__((noinline)) static inline void cjpeg_decoder_destroy(cjpeg_decoder *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    free(d);
}

/// Keeps the APP1 markers (where EXIF lives) in cinfo.marker_list, then reads the header.
__attribute__((noinline)) static inline int cjpeg_read_header_memory(cjpeg_decoder *d, const unsigned char *data,
                                                                     unsigned long size) {
    d->cinfo.client_data = d;
    if (setjmp(d->jump)) return 0;
    jpeg_mem_src(&d->cinfo, data, size);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&d->cinfo, TRUE);
    return 1;
}

/// As cjpeg_read_header_memory, reading from `file` (which must stay open until cjpeg_decode returns).
__attribute__((noinline)) static inline int cjpeg_read_header_stdio(cjpeg_decoder *d, FILE *file) {
    d->cinfo.client_data = d;
    if (setjmp(d->jump)) return 0;
    jpeg_stdio_src(&d->cinfo, file);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&d->cinfo, TRUE);
    return 1;
}

/// Decodes the whole image into `out`: image_width × image_height pixels of 4 bytes, rows packed. CMYK
/// and YCCK files give C, M, Y, K bytes as stored (libjpeg undoes YCCK; Adobe's inversion is left to the
/// caller), every other colour space R, G, B, 255 (libjpeg-turbo converts grey and YCbCr).
/// cinfo.out_color_space says which.
__attribute__((noinline)) static inline int cjpeg_decode(cjpeg_decoder *d, unsigned char *out) {
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->jump)) return 0;
    cinfo->out_color_space =
        (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo->dct_method = JDCT_ISLOW;
    jpeg_start_decompress(cinfo);
    if (cinfo->output_width != cinfo->image_width || cinfo->output_height != cinfo->image_height
        || cinfo->output_components != 4) {
        ERREXIT(cinfo, JERR_CONVERSION_NOTIMPL);
    }
    size_t stride = (size_t)cinfo->output_width * 4;
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = out + (size_t)cinfo->output_scanline * stride;
        jpeg_read_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_decompress(cinfo);
    return 1;
}

#endif
