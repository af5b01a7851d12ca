#version 300 es
// GPU tessellation, pass 2: one instance per path piece reads the accumulated signed area a from the
// float atlas, applies the fill rule (non-zero: min(|a|, 1); even-odd: |a − 2·round(a/2)|) and multiplies
// the premultiplied colour; fixed-function source-over (ONE, ONE_MINUS_SRC_ALPHA) composites it.
precision highp float;
precision highp int;

#pragma stage vertex
uniform vec2 u_targetSize;
layout(location = 0) in ivec4 a_rect;   // x, y, w, h in device pixels
layout(location = 1) in ivec4 a_atlas;  // u, v of the rect's top-left texel; rule (0 non-zero, 1 even-odd)
layout(location = 2) in vec4 a_color;   // premultiplied, opacity applied
flat out ivec2 v_offset;
flat out int v_rule;
flat out vec4 v_color;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = vec2(a_rect.xy) + corner * vec2(a_rect.zw);
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_offset = a_atlas.xy - a_rect.xy;
    v_rule = a_atlas.z;
    v_color = a_color;
}

#pragma stage fragment
uniform highp sampler2D u_atlas;
flat in ivec2 v_offset;
flat in int v_rule;
flat in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main() {
    float a = texelFetch(u_atlas, ivec2(gl_FragCoord.xy) + v_offset, 0).r;
    float coverage = v_rule == 0 ? min(abs(a), 1.0) : abs(a - 2.0 * floor(a * 0.5 + 0.5));
    o_color = v_color * coverage;
}
