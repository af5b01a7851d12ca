#version 300 es
// Raster-atlas composite, paint-atlas form: one instance per rectangle of device pixels whose atlas texels
// already hold the premultiplied colour × coverage (BGRA8, baked on the CPU), blended source-over by fixed
// function (ONE, ONE_MINUS_SRC_ALPHA).
//
// The shape is what llvmpipe's "linear" path accepts (Mesa lp_state_fs_analysis.c / lp_linear.c): the
// fragment shader is one texture() at a coordinate that is an unmodified smooth varying, no flat inputs,
// a B8G8R8A8 texture sampled NEAREST with CLAMP_TO_EDGE into a B8G8R8A8 target without depth; each instance
// is an axis-aligned rectangle drawn as a 4-vertex triangle fan with w = 1, which llvmpipe's setup turns
// into one rectangle command. There the rasterizer blends whole 8-bit spans instead of running the
// general float shader on 4×4 blocks (measured: see GLESBackend's design note).
precision highp float;
precision highp int;

#pragma stage vertex
uniform vec2 u_targetSize;
uniform vec2 u_atlasSize;
layout(location = 0) in ivec4 a_rect;   // x, y, w, h in device pixels (device row 0 = GL row 0)
layout(location = 1) in ivec4 a_atlas;  // u, v of the rect's top-left texel; unused; 1: one row repeated
out vec2 v_uv;

void main() {
    // A 4-vertex triangle fan around the rectangle: 0 (0,0), 1 (1,0), 2 (1,1), 3 (0,1).
    int i = gl_VertexID;
    vec2 corner = vec2(float(i == 1 || i == 2), float(i >> 1));
    vec2 offset = corner * vec2(a_rect.zw);
    gl_Position = vec4((vec2(a_rect.xy) + offset) / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    // Atlas texels are the rectangle's pixels shifted: the same offset from the top-left in both. A solid
    // interior samples one row of equal texels on every row (v at that row's centre, so dv/dy = 0): still
    // an axis-aligned 1:1 span copy for the linear rasterizer, from a strip of w texels instead of w × h.
    v_uv = (vec2(a_atlas.xy) + vec2(offset.x, a_atlas.w != 0 ? 0.5 : offset.y)) / u_atlasSize;
}

#pragma stage fragment
uniform highp sampler2D u_atlas;
in vec2 v_uv;
layout(location = 0) out vec4 o_color;

void main() {
    o_color = texture(u_atlas, v_uv);
}
