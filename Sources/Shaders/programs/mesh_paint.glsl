#version 300 es
// Mesh gradients' paint images (MeshGradientPaint.swift; the CPU copy is `MeshGradientResolution.rasterize`,
// in the same order of operations): plain triangles (`MeshVertex` records, three a triangle) of each mesh's
// tessellation, after its region's background rectangle, drawn into the region of a shared mesh page the gather
// assigned, blending off, in the lowering's triangle order (later patches replace earlier ones where a folded
// mesh overlaps itself). A fragment takes the (u, v) interpolated across its triangle and evaluates the patch's
// colour surface there: 16 power-basis coefficients (paint-data texels `column` … `column + 15` of row `row`,
// read per vertex: a triangle covers a few pixels, and llvmpipe pays for every fetch), Horner's rule in u, then
// in v; then Oklab → linear sRGB (flag 1), clamped, sRGB-encoded (flag 2), clamped, premultiplied. A background
// is a constant surface (its colour the only coefficient, no flags).

#pragma stage vertex
precision highp float;
precision highp int;
uniform vec2 u_targetSize;
uniform highp sampler2D u_paintData;
layout(location = 0) in vec4 a_vertex; // position (page texels); patch parameters (u, v)
layout(location = 1) in ivec4 a_patch; // coefficient texel (column, row); flags; reserved
out vec2 v_uv;
flat out int v_flags;
flat out vec4 v_c[16];

void main() {
    gl_Position = vec4(a_vertex.xy / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_uv = a_vertex.zw;
    v_flags = a_patch.z;
    for (int k = 0; k < 16; ++k) v_c[k] = texelFetch(u_paintData, ivec2(a_patch.x + k, a_patch.y), 0);
}

#pragma stage fragment
precision highp float;
precision highp int;
// gradientOklabToLinear and srgbEncode (gradients share the conversions).
#include "gradient.glsl"
in vec2 v_uv;
flat in int v_flags;
flat in vec4 v_c[16];
out vec4 o_color;

void main() {
    float u = v_uv.x, v = v_uv.y;
    vec4 r0 = ((v_c[3] * u + v_c[2]) * u + v_c[1]) * u + v_c[0];
    vec4 r1 = ((v_c[7] * u + v_c[6]) * u + v_c[5]) * u + v_c[4];
    vec4 r2 = ((v_c[11] * u + v_c[10]) * u + v_c[9]) * u + v_c[8];
    vec4 r3 = ((v_c[15] * u + v_c[14]) * u + v_c[13]) * u + v_c[12];
    vec4 c = ((r3 * v + r2) * v + r1) * v + r0;
    vec3 rgb = c.rgb;
    if ((v_flags & 1) != 0) rgb = gradientOklabToLinear(rgb);
    rgb = clamp(rgb, 0.0, 1.0);
    if ((v_flags & 2) != 0) rgb = srgbEncode(rgb);
    float a = clamp(c.a, 0.0, 1.0);
    o_color = vec4(clamp(rgb, 0.0, 1.0) * a, a);
}
