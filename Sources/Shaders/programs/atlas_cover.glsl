#version 300 es
// Raster-atlas composite: one instance per rectangle of device pixels. Coverage was computed on the CPU
// (fill rule applied) and sits in the atlas at the instance's texel offset. The output is the premultiplied colour × coverage, blended source-over
// by fixed function (ONE, ONE_MINUS_SRC_ALPHA).
//
// The atlas is read with texture() at interpolated, normalised coordinates and NEAREST filtering rather than
// texelFetch at gl_FragCoord: on llvmpipe that is ~20 % cheaper per pixel (measured: 5.1 vs 6.4 ns per
// blended pixel with distinct atlas texels). At a pixel centre the coordinate is the texel centre, half a
// texel away from any texel edge, so float interpolation error cannot pick a neighbour.
precision highp float;
precision highp int;

#pragma stage vertex
uniform vec2 u_targetSize;
uniform vec2 u_atlasSize;
layout(location = 0) in ivec4 a_rect;   // x, y, w, h in device pixels (device row 0 = GL row 0)
layout(location = 1) in ivec4 a_atlas;  // u, v of the rect's top-left texel; rule (unused here); reserved
layout(location = 2) in vec4 a_color;   // premultiplied, opacity applied
layout(location = 3) in ivec4 a_insets; // left side at top, at bottom; right side at top, at bottom (1/16 px)
out vec2 v_uv;
flat out vec4 v_color;

void main() {
    // A 4-vertex triangle strip: 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1).
    // The band is a trapezoid: its left and right sides are inset from the rectangle at the top and bottom.
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    float inset = corner.x == 0.0 ? (corner.y == 0.0 ? float(a_insets.x) : float(a_insets.y))
                                  : -(corner.y == 0.0 ? float(a_insets.z) : float(a_insets.w));
    vec2 offset = corner * vec2(a_rect.zw) + vec2(inset / 16.0, 0.0);
    vec2 p = vec2(a_rect.xy) + offset;
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    // Atlas texels are the band's pixels shifted: the same offset from the top-left in both.
    v_uv = (vec2(a_atlas.xy) + offset) / u_atlasSize;
    v_color = a_color;
}

#pragma stage fragment
uniform highp sampler2D u_atlas;
in vec2 v_uv;
flat in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main() {
    float coverage = texture(u_atlas, v_uv).r;
    o_color = v_color * coverage;
}
