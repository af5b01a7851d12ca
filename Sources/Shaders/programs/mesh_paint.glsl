#version 300 es
// Mesh gradients' paint images (MeshGradientPaint.swift; the CPU copy is `MeshGradientResolution.rasterize`,
// in the same order of operations): plain triangles (`MeshVertex` records, three a triangle) of each mesh's
// tessellation, after its region's background rectangle, drawn into the region of a shared mesh page the gather
// assigned, blending off, in the lowering's triangle order (later patches replace earlier ones where a folded
// mesh overlaps itself). A fragment takes the (u, v) interpolated across its triangle and evaluates the patch's
// colour surface there: 16 power-basis coefficients (paint-data texels `column` … `column + 15` of row `row`),
// Horner's rule in u, then in v; then Oklab → linear sRGB (flag 1), clamped, sRGB-encoded (flag 2), clamped,
// premultiplied. A background is a constant surface (its colour the only coefficient, no flags).
// MESH_VERTEX_FETCH: the coefficients are read per vertex into flat varyings (a triangle covers a few pixels
// and llvmpipe pays for every fetch: 1.11 → 0.71 s on the S3-like mesh bench); that takes 18 varying vectors,
// above GLES 3.0's guaranteed 15, so a device with fewer reads them per fragment. Both give the same values.

#pragma stage vertex
precision highp float;
precision highp int;
uniform vec2 u_targetSize;
layout(location = 0) in vec4 a_vertex; // position (page texels); patch parameters (u, v)
layout(location = 1) in ivec4 a_patch; // coefficient texel (column, row); flags; reserved
out vec2 v_uv;
flat out ivec4 v_patch;
#ifdef MESH_VERTEX_FETCH
uniform highp sampler2D u_paintData;
flat out vec4 v_c[16];
#endif

void main() {
    gl_Position = vec4(a_vertex.xy / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_uv = a_vertex.zw;
    v_patch = a_patch;
#ifdef MESH_VERTEX_FETCH
    for (int k = 0; k < 16; ++k) v_c[k] = texelFetch(u_paintData, ivec2(a_patch.x + k, a_patch.y), 0);
#endif
}

#pragma stage fragment
precision highp float;
precision highp int;
// gradientOklabToLinear and srgbEncode (gradients share the conversions).
#include "gradient.glsl"
in vec2 v_uv;
flat in ivec4 v_patch;
out vec4 o_color;
#ifdef MESH_VERTEX_FETCH
flat in vec4 v_c[16];
#define COEFFICIENT(k) v_c[k]
#else
uniform highp sampler2D u_paintData;
#define COEFFICIENT(k) texelFetch(u_paintData, ivec2(v_patch.x + k, v_patch.y), 0)
#endif

void main() {
    float u = v_uv.x, v = v_uv.y;
    vec4 r0 = ((COEFFICIENT(3) * u + COEFFICIENT(2)) * u + COEFFICIENT(1)) * u + COEFFICIENT(0);
    vec4 r1 = ((COEFFICIENT(7) * u + COEFFICIENT(6)) * u + COEFFICIENT(5)) * u + COEFFICIENT(4);
    vec4 r2 = ((COEFFICIENT(11) * u + COEFFICIENT(10)) * u + COEFFICIENT(9)) * u + COEFFICIENT(8);
    vec4 r3 = ((COEFFICIENT(15) * u + COEFFICIENT(14)) * u + COEFFICIENT(13)) * u + COEFFICIENT(12);
    vec4 c = ((r3 * v + r2) * v + r1) * v + r0;
    vec3 rgb = c.rgb;
    if ((v_patch.z & 1) != 0) rgb = gradientOklabToLinear(rgb);
    rgb = clamp(rgb, 0.0, 1.0);
    if ((v_patch.z & 2) != 0) rgb = srgbEncode(rgb);
    float a = clamp(c.a, 0.0, 1.0);
    o_color = vec4(clamp(rgb, 0.0, 1.0) * a, a);
}
