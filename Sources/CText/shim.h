// FreeType, HarfBuzz and fontconfig for Swift: the text engine's C libraries behind one module (ICU, for line
// breaking and bidi, is Sources/CICU). Debian: libfreetype-dev, libharfbuzz-dev, libfontconfig-dev.
//
// Swift calls all three directly; the only shim is for FreeType's outline walker, whose callbacks are C
// function pointers taking a `void *user`: writing them here keeps the Swift side to one loop over a flat
// array (`ctext_outline_decompose`), instead of four @convention(c) closures and an unmanaged box.
#ifndef CTEXT_SHIM_H
#define CTEXT_SHIM_H
#include <stddef.h>
#include <stdlib.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ft.h>
#include <harfbuzz/hb-ot.h>
#include <fontconfig/fontconfig.h>

/// One outline element as `ctext_outline_decompose` writes it: `verb` 0 move, 1 line, 2 quadratic (x1,y1
/// control; x,y end), 3 cubic (x1,y1 and x2,y2 controls; x,y end). Coordinates as FreeType gives them (font
/// units for a glyph loaded with FT_LOAD_NO_SCALE).
typedef struct ctext_outline_element {
    int verb;
    double x1, y1, x2, y2, x, y;
} ctext_outline_element;

typedef struct ctext_outline_sink {
    ctext_outline_element *elements;
    size_t count, capacity;
    int failed;   // 1 when realloc failed
} ctext_outline_sink;

static inline int ctext_outline_push(ctext_outline_sink *s, int verb, const FT_Vector *c1, const FT_Vector *c2,
                                     const FT_Vector *to) {
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? s->capacity * 2 : 64;
        ctext_outline_element *grown = (ctext_outline_element *)realloc(s->elements, capacity * sizeof *grown);
        if (!grown) { s->failed = 1; return 1; }
        s->elements = grown;
        s->capacity = capacity;
    }
    ctext_outline_element *e = &s->elements[s->count++];
    e->verb = verb;
    e->x1 = c1 ? (double)c1->x : 0; e->y1 = c1 ? (double)c1->y : 0;
    e->x2 = c2 ? (double)c2->x : 0; e->y2 = c2 ? (double)c2->y : 0;
    e->x = (double)to->x; e->y = (double)to->y;
    return 0;
}
static inline int ctext_move_to(const FT_Vector *to, void *user) {
    return ctext_outline_push((ctext_outline_sink *)user, 0, NULL, NULL, to);
}
static inline int ctext_line_to(const FT_Vector *to, void *user) {
    return ctext_outline_push((ctext_outline_sink *)user, 1, NULL, NULL, to);
}
static inline int ctext_conic_to(const FT_Vector *c, const FT_Vector *to, void *user) {
    return ctext_outline_push((ctext_outline_sink *)user, 2, c, NULL, to);
}
static inline int ctext_cubic_to(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *user) {
    return ctext_outline_push((ctext_outline_sink *)user, 3, c1, c2, to);
}

/// Walks `outline` into `sink` (which the caller frees with free(sink->elements)). Returns FreeType's error,
/// or FT_Err_Out_Of_Memory when the sink could not grow. Every contour starts with a move; FreeType closes
/// contours implicitly (the last point joins the first), so the caller closes each subpath itself.
static inline FT_Error ctext_outline_decompose(FT_Outline *outline, ctext_outline_sink *sink) {
    FT_Outline_Funcs funcs = {ctext_move_to, ctext_line_to, ctext_conic_to, ctext_cubic_to, 0, 0};
    FT_Error error = FT_Outline_Decompose(outline, &funcs, sink);
    return sink->failed ? FT_Err_Out_Of_Memory : error;
}

/// FT_HAS_COLOR is a macro Swift cannot see.
static inline int ctext_face_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }

#endif
