#version 300 es
// Raster-atlas composite: one instance per rectangle of device pixels. Coverage was computed on the CPU
// (fill rule applied) and sits in the atlas at the instance's texel offset; atlas u < 0 marks a rectangle
// whose coverage is 1 everywhere. The output is the premultiplied colour × coverage, blended source-over
// by fixed function (ONE, ONE_MINUS_SRC_ALPHA).
precision highp float;
precision highp int;

#pragma stage vertex
uniform vec2 u_targetSize;
layout(location = 0) in ivec4 a_rect;   // x, y, w, h in device pixels (device row 0 = GL row 0)
layout(location = 1) in ivec4 a_atlas;  // u, v of the rect's top-left texel; rule (unused here); reserved
layout(location = 2) in vec4 a_color;   // premultiplied, opacity applied
flat out ivec2 v_offset;
flat out int v_solid;
flat out vec4 v_color;

void main() {
    // A 4-vertex triangle strip: 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = vec2(a_rect.xy) + corner * vec2(a_rect.zw);
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_offset = a_atlas.xy - a_rect.xy;
    v_solid = a_atlas.x < 0 ? 1 : 0;
    v_color = a_color;
}

#pragma stage fragment
uniform highp sampler2D u_atlas;
flat in ivec2 v_offset;
flat in int v_solid;
flat in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main() {
    float coverage = v_solid != 0 ? 1.0 : texelFetch(u_atlas, ivec2(gl_FragCoord.xy) + v_offset, 0).r;
    o_color = v_color * coverage;
}
