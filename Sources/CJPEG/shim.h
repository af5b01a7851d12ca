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

// MARK: Encoding

/// Compresses `width` × `height` pixels of R, G, B, X (4 bytes each, rows packed; the fourth byte is ignored)
/// as a baseline JPEG at `quality` (1…100, libjpeg's scale), with full-resolution chroma (4:4:4) when
/// `full_chroma` is 1, else libjpeg's 4:2:0. Returns 1 and the file in `*out` / `*out_size` (free with free()),
/// or 0 with libjpeg's text in `message` (JMSG_LENGTH_MAX bytes).
__attribute__((noinline)) static inline int cjpeg_encode_rgbx(const unsigned char *pixels, unsigned width,
                                                              unsigned height, int quality, int full_chroma,
                                                              unsigned char **out, unsigned long *out_size,
                                                              char *message) {
    // On the heap, not locals: what changes between setjmp and longjmp would be indeterminate after the jump.
    struct cjpeg_encoder {
        struct jpeg_compress_struct cinfo;
        struct jpeg_error_mgr err;
        cjpeg_decoder proxy;    // only its jump buffer and message fields: cjpeg_error_exit writes there
        unsigned char *buffer;
        unsigned long size;
        int created;
    } *e = (struct cjpeg_encoder *)calloc(1, sizeof(struct cjpeg_encoder));
    message[0] = 0;
    if (!e) { snprintf(message, JMSG_LENGTH_MAX, "out of memory"); return 0; }
    e->cinfo.err = jpeg_std_error(&e->err);
    e->err.error_exit = cjpeg_error_exit;
    e->err.emit_message = cjpeg_emit_message;
    e->err.output_message = cjpeg_output_message;
    e->cinfo.client_data = &e->proxy;
    if (setjmp(e->proxy.jump)) {
        snprintf(message, JMSG_LENGTH_MAX, "%s", e->proxy.message);
        // e->buffer is not freed: libjpeg's memory destination replaces its buffer as it grows and only
        // reports the current one at the end, so here it may already be freed. Inputs are checked by the
        // caller, so this path is an allocation failure, and the buffer is at most that leak.
        if (e->created) jpeg_destroy_compress(&e->cinfo);
        free(e);
        return 0;
    }
    jpeg_create_compress(&e->cinfo);
    e->created = 1;
    jpeg_mem_dest(&e->cinfo, &e->buffer, &e->size);
    e->cinfo.image_width = width;
    e->cinfo.image_height = height;
    e->cinfo.input_components = 4;
    e->cinfo.in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(&e->cinfo);
    jpeg_set_quality(&e->cinfo, quality, TRUE);
    if (full_chroma) {
        for (int c = 0; c < e->cinfo.num_components; c++) {
            e->cinfo.comp_info[c].h_samp_factor = 1;
            e->cinfo.comp_info[c].v_samp_factor = 1;
        }
    }
    e->cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_compress(&e->cinfo, TRUE);
    size_t stride = (size_t)width * 4;
    while (e->cinfo.next_scanline < e->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)e->cinfo.next_scanline * stride);
        jpeg_write_scanlines(&e->cinfo, &row, 1);
    }
    jpeg_finish_compress(&e->cinfo);
    jpeg_destroy_compress(&e->cinfo);
    *out = e->buffer;
    *out_size = e->size;
    free(e);
    return 1;
}

#endif
