#version 300 es
// Mesh gradients' paint images (MeshGradientPaint.swift; the CPU copy is `MeshGradientResolution.rasterize`,
// in the same order of operations): one instance per triangle of a mesh's tessellation, or per region's
// background rectangle (`MeshInstance`), drawn into the region of a shared mesh page the gather assigned, blending
// off, in the lowering's triangle order (later patches replace earlier ones where a folded mesh overlaps
// itself). A triangle's fragment takes the (u, v) interpolated across it and evaluates its patch's colour
// surface there: 16 power-basis coefficients (paint-data texels `column` … `column + 15` of row `row`), Horner's
// rule in u, then in v; then Oklab → linear sRGB (flag 1), clamped, sRGB-encoded (flag 2), premultiplied.
// A triangle is a 4-vertex strip whose last vertex repeats the third (its second triangle has no area).

#pragma stage vertex
precision highp float;
precision highp int;
uniform vec2 u_targetSize;
layout(location = 0) in vec4 a_p01;    // corners 0 and 1 (page texels); a rectangle's two corners
layout(location = 1) in vec4 a_p2uv0;  // corner 2; corner 0's (u, v)
layout(location = 2) in vec4 a_uv12;   // corners 1 and 2's (u, v); a rectangle's straight colour
layout(location = 3) in ivec4 a_patch; // coefficient texel (column, row); kind (0 triangle, 1 rectangle); flags
out vec2 v_uv;
flat out ivec4 v_patch;
flat out vec4 v_color;

void main() {
    vec2 p;
    vec2 uv = vec2(0.0);
    if (a_patch.z == 1) {
        // 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1).
        vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
        p = mix(a_p01.xy, a_p01.zw, corner);
    } else if (gl_VertexID == 0) {
        p = a_p01.xy;
        uv = a_p2uv0.zw;
    } else if (gl_VertexID == 1) {
        p = a_p01.zw;
        uv = a_uv12.xy;
    } else {
        p = a_p2uv0.xy;
        uv = a_uv12.zw;
    }
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_uv = uv;
    v_patch = a_patch;
    v_color = a_uv12;
}

#pragma stage fragment
precision highp float;
precision highp int;
// gradientOklabToLinear and srgbEncode (gradients share the conversions).
#include "gradient.glsl"
uniform highp sampler2D u_paintData;
in vec2 v_uv;
flat in ivec4 v_patch;
flat in vec4 v_color;
out vec4 o_color;

vec4 coefficient(int k) { return texelFetch(u_paintData, ivec2(v_patch.x + k, v_patch.y), 0); }

void main() {
    vec4 c = v_color;
    if (v_patch.z == 0) {
        float u = v_uv.x, v = v_uv.y;
        vec4 r0 = ((coefficient(3) * u + coefficient(2)) * u + coefficient(1)) * u + coefficient(0);
        vec4 r1 = ((coefficient(7) * u + coefficient(6)) * u + coefficient(5)) * u + coefficient(4);
        vec4 r2 = ((coefficient(11) * u + coefficient(10)) * u + coefficient(9)) * u + coefficient(8);
        vec4 r3 = ((coefficient(15) * u + coefficient(14)) * u + coefficient(13)) * u + coefficient(12);
        c = ((r3 * v + r2) * v + r1) * v + r0;
        vec3 rgb = c.rgb;
        if ((v_patch.w & 1) != 0) rgb = gradientOklabToLinear(rgb);
        rgb = clamp(rgb, 0.0, 1.0);
        if ((v_patch.w & 2) != 0) rgb = srgbEncode(rgb);
        c = vec4(rgb, c.a);
    }
    float a = clamp(c.a, 0.0, 1.0);
    o_color = vec4(clamp(c.rgb, 0.0, 1.0) * a, a);
}
