// The C interface of include/cclipper.h over Clipper 6's C++ classes. Every exception stops here.
#include "cclipper.h"
#include <polyclipping/clipper.hpp>
#include <new>
#include <vector>

using namespace ClipperLib;

struct CClipperResult {
    Paths paths;
    std::vector<int32_t> components;
};

static Paths makePaths(const int64_t *xy, const int32_t *counts, int32_t contours) {
    Paths paths;
    paths.resize(contours > 0 ? (size_t)contours : 0);
    size_t k = 0;
    for (int32_t c = 0; c < contours; c++) {
        Path &p = paths[c];
        p.reserve(counts[c] > 0 ? (size_t)counts[c] : 0);
        for (int32_t i = 0; i < counts[c]; i++, k += 2) p.push_back(IntPoint(xy[k], xy[k + 1]));
    }
    return paths;
}

// An outer contour and its holes form one component; islands inside a hole start components of their own.
static void collect(const PolyNode &node, CClipperResult &out) {
    for (const PolyNode *outer : node.Childs) {
        int32_t component = 0;
        if (!out.components.empty()) component = out.components.back() + 1;
        out.paths.push_back(outer->Contour);
        out.components.push_back(component);
        for (const PolyNode *hole : outer->Childs) {
            out.paths.push_back(hole->Contour);
            out.components.push_back(component);
        }
        for (const PolyNode *hole : outer->Childs) collect(*hole, out);
    }
}

extern "C" CClipperStatus cclipper_execute(CClipperOperation operation,
                                           const int64_t *subjectXY, const int32_t *subjectCounts,
                                           int32_t subjectContours, int32_t subjectOpen,
                                           const int64_t *clipXY, const int32_t *clipCounts, int32_t clipContours,
                                           int32_t evenOdd, CClipperResult **result) {
    *result = nullptr;
    try {
        Clipper clipper;
        Paths subject = makePaths(subjectXY, subjectCounts, subjectContours);
        Paths clip = makePaths(clipXY, clipCounts, clipContours);
        // AddPath skips degenerate contours (too few distinct points) and throws on out-of-range coordinates.
        for (const Path &p : subject) clipper.AddPath(p, ptSubject, subjectOpen == 0);
        for (const Path &p : clip) clipper.AddPath(p, ptClip, true);
        PolyFillType fill = evenOdd ? pftEvenOdd : pftNonZero;
        PolyTree tree;
        if (!clipper.Execute((ClipType)operation, tree, fill, fill)) return CClipperFailed;
        CClipperResult *out = new CClipperResult();
        if (subjectOpen) {
            OpenPathsFromPolyTree(tree, out->paths);
            for (size_t i = 0; i < out->paths.size(); i++) out->components.push_back((int32_t)i);
        } else {
            collect(tree, *out);
        }
        *result = out;
        return CClipperOK;
    } catch (const clipperException &) {
        return CClipperRangeError;
    } catch (...) {
        return CClipperFailed;
    }
}

extern "C" int32_t cclipper_contour_count(const CClipperResult *r) { return (int32_t)r->paths.size(); }

extern "C" int32_t cclipper_point_count(const CClipperResult *r, int32_t i) { return (int32_t)r->paths[i].size(); }

extern "C" void cclipper_copy_points(const CClipperResult *r, int32_t i, int64_t *xy) {
    const Path &p = r->paths[i];
    for (size_t k = 0; k < p.size(); k++) {
        xy[2 * k] = p[k].X;
        xy[2 * k + 1] = p[k].Y;
    }
}

extern "C" int32_t cclipper_component(const CClipperResult *r, int32_t i) { return r->components[i]; }

extern "C" void cclipper_free(CClipperResult *r) { delete r; }

extern "C" int64_t cclipper_fast_range(void) { return loRange; }
