#version 300 es
// Filter passes (FilterPlanning.swift): one rectangle per pass, blending off, every texel of the rectangle
// written. The GLSL copy of Sources/GPUCanvasReference/FilterFormulas.swift, in the same order of operations.
// A pass's kind and its constants are compiled in (`ShaderVariant`): FILTER_PASS 0 block average, 1 horizontal
// and 2 vertical kernel sums, 3 bilinear upsample, 4 shadow combine, 5 projection; FILTER_FLAGS bits 1 the
// stage input goes through a prefilter (colour steps, paint-data row v_rows.y), 2 opaque, 4 dither, 8 this pass
// ends the blur (its finish step), 16 the shadow's alpha comes blurred from u_source2; FILTER_READ what a blur
// sums (0 colour, 1 alpha, 2 1 − alpha); FILTER_SPACE the blur's space (ColorFilterStep.Space); FILTER_FACTOR
// the block size; FILTER_RADIUS the kernel's half-width; SHADOW_MODE 0 behind, 1 above, 2 alone; BLEND_MODE the
// shadow's blend mode.
// u_source is the pass's input image, u_source2 the stage's input (a blur's finish) or the blurred alpha (a
// shadow's combine); both are transparent outside their rectangles.

#pragma stage vertex
precision highp float;
precision highp int;
uniform vec2 u_targetSize;
uniform ivec2 u_targetOrigin;
uniform highp sampler2D u_paintData;
layout(location = 0) in ivec4 a_rect;   // the pass's box, in the target's coordinates
layout(location = 3) in ivec4 a_paint;  // -, parameter row, -, prefilter row (-1: none)
layout(location = 5) in ivec4 a_clipUV; // -, -, the shift to the pass's region of a shared target
layout(location = 6) in vec4 a_color;   // the shadow's premultiplied colour
flat out ivec2 v_rows;
flat out vec4 v_color;
flat out vec4 v_params[4];              // kernel weights 0…15, or the shadow's offset, or the inverse matrix
flat out ivec2 v_shift;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = vec2(a_rect.xy) + corner * vec2(a_rect.zw);
    gl_Position = vec4((p + vec2(a_clipUV.zw) - vec2(u_targetOrigin)) / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_shift = a_clipUV.zw;
    v_rows = a_paint.yw;
    v_color = a_color;
    for (int i = 0; i < 4; ++i) v_params[i] = texelFetch(u_paintData, ivec2(i, a_paint.y), 0);
}

#pragma stage fragment
precision highp float;
precision highp int;
#include "blend.glsl"
#include "color_filter.glsl"
#ifndef FILTER_PASS
#define FILTER_PASS 1
#endif
#ifndef FILTER_FLAGS
#define FILTER_FLAGS 0
#endif
#ifndef FILTER_READ
#define FILTER_READ 0
#endif
#ifndef FILTER_SPACE
#define FILTER_SPACE 0
#endif
#ifndef FILTER_FACTOR
#define FILTER_FACTOR 1
#endif
#ifndef FILTER_RADIUS
#define FILTER_RADIUS 1
#endif
#ifndef SHADOW_MODE
#define SHADOW_MODE 0
#endif
#ifndef BLEND_MODE
#define BLEND_MODE 0
#endif

uniform highp sampler2D u_paintData;
uniform highp sampler2D u_source;
uniform highp sampler2D u_source2;
uniform ivec2 u_targetOrigin;
uniform ivec4 u_sourceRect;     // the input image's box, in the coordinates of the pass
uniform ivec4 u_source2Rect;
uniform ivec2 u_sourceTexel;    // the texel holding the image's corner (its region of an atlas)
uniform ivec2 u_source2Texel;
flat in ivec2 v_rows;
flat in vec4 v_color;
flat in vec4 v_params[4];
flat in ivec2 v_shift;
layout(location = 0) out vec4 o_color;

vec4 fetchSource(ivec2 p) {
    ivec2 s = p - u_sourceRect.xy;
    return (s.x >= 0 && s.y >= 0 && s.x < u_sourceRect.z && s.y < u_sourceRect.w) ? texelFetch(u_source, s + u_sourceTexel, 0) : vec4(0.0);
}

vec4 fetchSource2(ivec2 p) {
    ivec2 s = p - u_source2Rect.xy;
    return (s.x >= 0 && s.y >= 0 && s.x < u_source2Rect.z && s.y < u_source2Rect.w) ? texelFetch(u_source2, s + u_source2Texel, 0) : vec4(0.0);
}

vec4 prefilter(vec4 t) {
#if (FILTER_FLAGS & 1) != 0
    return colorFilterApply(u_paintData, v_rows.y, t);
#else
    return t;
#endif
}

// What a blur sums of a stage-input texel (FilterFormulas.blurInput).
vec4 blurInput(vec4 p) {
#if FILTER_READ == 1
    return vec4(p.a);
#elif FILTER_READ == 2
    return vec4(1.0 - clamp(p.a, 0.0, 1.0));
#elif FILTER_SPACE != 0
    float a = clamp(p.a, 0.0, 1.0);
    vec3 c = a > 0.0 ? clamp(p.rgb / a, 0.0, 1.0) : vec3(0.0);
    return vec4(colorFilterToMaths(c, FILTER_SPACE) * a, a);
#else
    return p;
#endif
}

// A blur's last step (FilterFormulas.blurFinish); `stageInput` is the stage input's texel at p.
vec4 blurFinish(vec4 v, vec4 stageInput, ivec2 p) {
    vec4 o = v;
#if FILTER_READ == 0 && (FILTER_SPACE != 0 || (FILTER_FLAGS & 2) != 0)
    float a = clamp(v.a, 0.0, 1.0);
    vec3 c = a > 0.0 ? clamp(v.rgb / a, 0.0, 1.0) : vec3(0.0);
#if (FILTER_FLAGS & 2) != 0
    a = clamp(stageInput.a, 0.0, 1.0);
#endif
    o = vec4(colorFilterFromMaths(c, FILTER_SPACE) * a, a);
#endif
#if (FILTER_FLAGS & 4) != 0
    const float bayer[16] = float[16](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
    if (o.a > 0.0) {
        float d = ((bayer[(p.y & 3) * 4 + (p.x & 3)] + 0.5) / 16.0 - 0.5) / 255.0;
        o.rgb = clamp(o.rgb + d, vec3(0.0), vec3(o.a));
    }
#endif
    return o;
}

float weight(int i) {
    int k = i < 0 ? -i : i;
    return v_params[k >> 2][k & 3];
}

// Bilinear weights at q (pixel units, texel i's centre at i + ½): the top-left texel and the fractions.
void bilinearAt(vec2 q, out ivec2 i, out vec2 t) {
    vec2 u = q - 0.5;
    vec2 f = floor(u);
    t = u - f;
    i = ivec2(f);
}

// In the order of a GPU's bilinear filter (FilterFormulas.bilinear).
vec4 bilinearMix(vec4 a, vec4 b, vec4 c, vec4 d, vec2 t) {
    vec4 top = a + t.x * (b - a), bottom = c + t.x * (d - c);
    return top + t.y * (bottom - top);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) + u_targetOrigin - v_shift;
#if FILTER_PASS == 0
    vec4 acc = vec4(0.0);
#if (FILTER_FLAGS & 1) == 0 && (FILTER_READ != 0 || FILTER_SPACE == 0)
    // What is summed is linear in the texel (no prefilter, no change of space): a block inside the source is
    // averaged by the texture's bilinear filter, four texels a fetch at the centre of each 2 × 2 sub-block.
    ivec2 block = p * FILTER_FACTOR - u_sourceRect.xy;
    if (block.x >= 0 && block.y >= 0 && block.x + FILTER_FACTOR <= u_sourceRect.z && block.y + FILTER_FACTOR <= u_sourceRect.w) {
        vec2 size = vec2(textureSize(u_source, 0));
        vec2 corner = vec2(block + u_sourceTexel) + 1.0;
        vec4 quads = vec4(0.0);
        for (int j = 0; j < FILTER_FACTOR; j += 2) {
            for (int i = 0; i < FILTER_FACTOR; i += 2) quads += texture(u_source, (corner + vec2(i, j)) / size);
        }
        o_color = blurInput(quads * (4.0 / float(FILTER_FACTOR * FILTER_FACTOR)));
        return;
    }
#endif
    for (int j = 0; j < FILTER_FACTOR; ++j) {
        for (int i = 0; i < FILTER_FACTOR; ++i) acc += blurInput(prefilter(fetchSource(p * FILTER_FACTOR + ivec2(i, j))));
    }
    o_color = acc * (1.0 / float(FILTER_FACTOR * FILTER_FACTOR));
#elif FILTER_PASS == 1
    vec4 acc = vec4(0.0);
    for (int i = -FILTER_RADIUS; i <= FILTER_RADIUS; ++i) {
#if FILTER_FACTOR == 1
        acc += weight(i) * blurInput(prefilter(fetchSource(p + ivec2(i, 0))));
#else
        acc += weight(i) * fetchSource(p + ivec2(i, 0));
#endif
    }
    o_color = acc;
#elif FILTER_PASS == 2
    vec4 acc = vec4(0.0);
    for (int i = -FILTER_RADIUS; i <= FILTER_RADIUS; ++i) acc += weight(i) * fetchSource(p + ivec2(0, i));
#if (FILTER_FLAGS & 8) != 0
    acc = blurFinish(acc, prefilter(fetchSource2(p)), p);
#endif
    o_color = acc;
#elif FILTER_PASS == 3
    ivec2 i;
    vec2 t;
    bilinearAt((vec2(p) + 0.5) * (1.0 / float(FILTER_FACTOR)), i, t);
    vec4 v = bilinearMix(fetchSource(i), fetchSource(i + ivec2(1, 0)), fetchSource(i + ivec2(0, 1)),
                         fetchSource(i + ivec2(1, 1)), t);
    o_color = blurFinish(v, prefilter(fetchSource2(p)), p);
#elif FILTER_PASS == 4
    ivec2 i;
    vec2 t;
    bilinearAt(vec2(p) + 0.5 - v_params[0].xy, i, t);
#if (FILTER_FLAGS & 16) != 0
    float a = bilinearMix(fetchSource2(i), fetchSource2(i + ivec2(1, 0)), fetchSource2(i + ivec2(0, 1)),
                          fetchSource2(i + ivec2(1, 1)), t).a;
#else
    float a = bilinearMix(blurInput(prefilter(fetchSource(i))), blurInput(prefilter(fetchSource(i + ivec2(1, 0)))),
                          blurInput(prefilter(fetchSource(i + ivec2(0, 1)))),
                          blurInput(prefilter(fetchSource(i + ivec2(1, 1)))), t).a;
#endif
    vec4 s = prefilter(fetchSource(p));
    vec4 sh = v_color * clamp(a, 0.0, 1.0);
#if SHADOW_MODE == 0
    o_color = s + (1.0 - s.a) * blendMode(BLEND_MODE, sh, vec4(0.0));
#elif SHADOW_MODE == 1
    o_color = blendMode(BLEND_MODE, sh, s);
#else
    o_color = blendMode(BLEND_MODE, sh, vec4(0.0));
#endif
#else
    // Projection: the output pixel's centre mapped back into the input (row vectors).
    vec2 c = vec2(p) + 0.5;
    vec4 k0 = v_params[0], k1 = v_params[1];
    float k8 = v_params[2].x;
    float w = k0.z * c.x + k1.y * c.y + k8;
    vec2 q = vec2(k0.x * c.x + k0.w * c.y + k1.z, k0.y * c.x + k1.x * c.y + k1.w) / w;
    if (!(w > 0.0) || abs(q.x) >= 1e8 || abs(q.y) >= 1e8) {
        o_color = vec4(0.0);
        return;
    }
    ivec2 i;
    vec2 t;
    bilinearAt(q, i, t);
    o_color = bilinearMix(prefilter(fetchSource(i)), prefilter(fetchSource(i + ivec2(1, 0))),
                          prefilter(fetchSource(i + ivec2(0, 1))), prefilter(fetchSource(i + ivec2(1, 1))), t);
#endif
}
