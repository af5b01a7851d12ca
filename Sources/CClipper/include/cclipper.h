// Clipper 6 (Angus Johnson's polygon clipping library, Debian libpolyclipping-dev) behind a C interface, for the
// path boolean operations (GPUCanvasCore/API/Path+Boolean.swift).
//
// Why a C++ shim with a C header rather than Swift's C++ interop: interop is a per-module compiler mode that every
// module importing GPUCanvasCore would have to adopt too, and Clipper reports coordinates outside its range by
// throwing a C++ exception, which cannot cross into Swift. cclipper.cpp catches every exception and returns a
// status instead, so Swift sees plain C types only.
#ifndef CCLIPPER_H
#define CCLIPPER_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The boolean operation (Clipper's ClipType, same order).
typedef enum {
    CClipperIntersection = 0,
    CClipperUnion = 1,
    CClipperDifference = 2,
    CClipperXor = 3,
} CClipperOperation;

/// Outcome of `cclipper_execute`.
typedef enum {
    CClipperOK = 0,
    /// A coordinate lies outside Clipper's range (|c| > 2^62 - 1), or the input was malformed.
    CClipperRangeError = 1,
    /// Clipper failed for another reason (out of memory, an internal error).
    CClipperFailed = 2,
} CClipperStatus;

/// The result of one operation: contours of integer points (x, y interleaved). Free with `cclipper_free`.
typedef struct CClipperResult CClipperResult;

/// Runs `operation` of the subject contours against the clip contours.
///
/// Contours are given as `xy` (2 × total points, x then y) and `counts` (points per contour). Subject contours
/// are closed polygons, or open polylines when `subjectOpen` is 1 (then only Intersection and Difference are
/// meaningful: the parts of the lines inside, or outside, the clip's fill). Both inputs are filled by `evenOdd`
/// (1: even-odd, 0: non-zero). On success `*result` holds the output: for closed input, non-overlapping
/// polygons (outer contours and holes) grouped into components, each an outer contour followed by its holes;
/// for open input, the clipped polylines. Returns a status; `*result` is NULL unless it is CClipperOK.
CClipperStatus cclipper_execute(CClipperOperation operation,
                                const int64_t *subjectXY, const int32_t *subjectCounts, int32_t subjectContours,
                                int32_t subjectOpen,
                                const int64_t *clipXY, const int32_t *clipCounts, int32_t clipContours,
                                int32_t evenOdd, CClipperResult **result);

/// Number of contours in the result.
int32_t cclipper_contour_count(const CClipperResult *result);
/// Number of points in contour `i`.
int32_t cclipper_point_count(const CClipperResult *result, int32_t i);
/// Copies contour `i`'s points into `xy` (2 × `cclipper_point_count` values, x then y).
void cclipper_copy_points(const CClipperResult *result, int32_t i, int64_t *xy);
/// The component contour `i` belongs to (0, 1, …; an outer contour and its holes share one). Open results: each
/// polyline is its own component.
int32_t cclipper_component(const CClipperResult *result, int32_t i);
/// Releases a result.
void cclipper_free(CClipperResult *result);

/// Clipper's largest coordinate magnitude for its fast 64-bit arithmetic (loRange, 2^30 - 1); larger ones, up
/// to hiRange (2^62 - 1), take its slower 128-bit products.
int64_t cclipper_fast_range(void);

#ifdef __cplusplus
}
#endif
#endif
