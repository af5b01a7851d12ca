// Colour filter chains from one row of the RGBA32F paint-data texture: `#include "color_filter.glsl"`.
//
// The GLSL copy of ColorFilterFormulas.apply (Sources/GPUCanvasCore/Lowering/ColorFilters.swift), in the
// same order of operations; the row is ColorFilterFormulas.packedTexels: texel 0 (step count, 0, 0, 0), then
// six texels per step: (kind, space, threshold min, threshold max), matrix rows R, G, B, A (entries 1–4), and
// the offsets (entry 5 of each row) or a threshold's premultiplied colour.
// kind: 0 matrix on straight colour, 1 matrix on premultiplied colour, 2 alpha threshold.
// space: 0 the working space, 1 linear maths on an encoded canvas, 2 encoded maths on a linear canvas.
#include "srgb.glsl"

vec3 colorFilterToMaths(vec3 c, int space) {
    return space == 1 ? srgbDecode(c) : space == 2 ? srgbEncode(c) : c;
}

vec3 colorFilterFromMaths(vec3 c, int space) {
    return space == 1 ? srgbEncode(c) : space == 2 ? srgbDecode(c) : c;
}

// The chain in row `row` applied to a premultiplied working-space colour.
vec4 colorFilterApply(highp sampler2D data, int row, vec4 p) {
    int n = int(texelFetch(data, ivec2(0, row), 0).x);
    for (int i = 0; i < n; ++i) {
        int base = 1 + 6 * i;
        vec4 h = texelFetch(data, ivec2(base, row), 0);
        int kind = int(h.x);
        int space = int(h.y);
        float a = clamp(p.a, 0.0, 1.0);
        if (kind == 2) {
            p = (a >= h.z && a <= h.w) ? texelFetch(data, ivec2(base + 5, row), 0) : vec4(0.0);
            continue;
        }
        vec3 c = a > 0.0 ? clamp(p.rgb / a, 0.0, 1.0) : vec3(0.0);
        c = colorFilterToMaths(c, space);
        vec4 v = kind == 1 ? vec4(c * a, a) : vec4(c, a);
        vec4 rr = texelFetch(data, ivec2(base + 1, row), 0);
        vec4 rg = texelFetch(data, ivec2(base + 2, row), 0);
        vec4 rb = texelFetch(data, ivec2(base + 3, row), 0);
        vec4 ra = texelFetch(data, ivec2(base + 4, row), 0);
        vec4 o = texelFetch(data, ivec2(base + 5, row), 0);
        vec4 r = vec4(dot(rr, v), dot(rg, v), dot(rb, v), dot(ra, v)) + o;
        float outA = clamp(r.a, 0.0, 1.0);
        vec3 outRGB;
        if (kind == 1) {
            vec3 q = clamp(r.rgb, vec3(0.0), vec3(outA));
            outRGB = outA > 0.0 ? q / outA : vec3(0.0);
        } else {
            outRGB = clamp(r.rgb, 0.0, 1.0);
        }
        p = vec4(colorFilterFromMaths(outRGB, space) * outA, outA);
    }
    return p;
}
