#version 300 es
// Filter passes (FilterPlanning.swift): one rectangle per pass, blending off, every texel of the rectangle
// written. The GLSL copy of Sources/GPUCanvasReference/FilterFormulas.swift, in the same order of operations.
// A pass's kind and constants: FILTER_PASS 0 block average, 1 horizontal and 2 vertical kernel sums, 3 bilinear
// upsample, 4 shadow combine, 5 projection; FILTER_FLAGS bits 1 the stage input goes through a prefilter (colour
// steps, paint-data row v_rows.y), 2 opaque, 4 dither, 8 this pass ends the blur (its finish step), 16 the
// shadow's alpha comes blurred from u_source2; FILTER_READ what a blur sums (0 colour, 1 alpha, 2 1 − alpha);
// FILTER_SPACE the blur's space (ColorFilterStep.Space); FILTER_FACTOR the block size; FILTER_RADIUS the kernel's
// half-width; SHADOW_MODE 0 behind, 1 above, 2 alone; BLEND_MODE the shadow's blend mode.
// A general program (one per pass kind, flags, read, space and shadow mode) reads FILTER_FACTOR, FILTER_RADIUS
// and BLEND_MODE from the uniform u_filterShape, so a new radius or blend mode draws at once; a specialised
// program (`ShaderVariant`) has them defined too, and the driver unrolls and folds. Both run the same
// operations in the same order and give the same bytes (the catalogue's filter scenes, both ways).
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
#ifndef SHADOW_MODE
#define SHADOW_MODE 0
#endif
const int filterPass = FILTER_PASS, filterFlags = FILTER_FLAGS, filterRead = FILTER_READ;
const int filterSpace = FILTER_SPACE, shadowMode = SHADOW_MODE;
#ifdef FILTER_RADIUS
#ifndef BLEND_MODE
#define BLEND_MODE 0
#endif
const int filterFactor = FILTER_FACTOR, filterRadius = FILTER_RADIUS, shadowBlend = BLEND_MODE;
#else
uniform ivec4 u_filterShape;  // the block factor, the kernel's half-width, a shadow's blend mode
#define filterFactor u_filterShape.x
#define filterRadius u_filterShape.y
#define shadowBlend u_filterShape.z
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
    return (filterFlags & 1) != 0 ? colorFilterApply(u_paintData, v_rows.y, t) : t;
}

// What a blur sums of a stage-input texel (FilterFormulas.blurInput).
vec4 blurInput(vec4 p) {
    if (filterRead == 1) return vec4(p.a);
    if (filterRead == 2) return vec4(1.0 - clamp(p.a, 0.0, 1.0));
    if (filterSpace == 0) return p;
    float a = clamp(p.a, 0.0, 1.0);
    vec3 c = a > 0.0 ? clamp(p.rgb / a, 0.0, 1.0) : vec3(0.0);
    return vec4(colorFilterToMaths(c, filterSpace) * a, a);
}

// A blur's last step (FilterFormulas.blurFinish); `stageInput` is the stage input's texel at p.
vec4 blurFinish(vec4 v, vec4 stageInput, ivec2 p) {
    vec4 o = v;
    if (filterRead == 0 && (filterSpace != 0 || (filterFlags & 2) != 0)) {
        float a = clamp(v.a, 0.0, 1.0);
        vec3 c = a > 0.0 ? clamp(v.rgb / a, 0.0, 1.0) : vec3(0.0);
        if ((filterFlags & 2) != 0) a = clamp(stageInput.a, 0.0, 1.0);
        o = vec4(colorFilterFromMaths(c, filterSpace) * a, a);
    }
    if ((filterFlags & 4) != 0 && o.a > 0.0) {
        const float bayer[16] = float[16](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
        float d = ((bayer[(p.y & 3) * 4 + (p.x & 3)] + 0.5) / 16.0 - 0.5) / 255.0;
        o.rgb = clamp(o.rgb + d, vec3(0.0), vec3(o.a));
    }
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

// Pass 0: the mean of the factor × factor block of stage-input texels under output texel p.
vec4 blockAverage(ivec2 p) {
    vec4 acc = vec4(0.0);
    if ((filterFlags & 1) == 0 && (filterRead != 0 || filterSpace == 0)) {
        // What is summed is linear in the texel (no prefilter, no change of space): a block inside the source is
        // averaged by the texture's bilinear filter, four texels a fetch at the centre of each 2 × 2 sub-block.
        ivec2 block = p * filterFactor - u_sourceRect.xy;
        if (block.x >= 0 && block.y >= 0 && block.x + filterFactor <= u_sourceRect.z && block.y + filterFactor <= u_sourceRect.w) {
            vec2 size = vec2(textureSize(u_source, 0));
            vec2 corner = vec2(block + u_sourceTexel) + 1.0;
            vec4 quads = vec4(0.0);
            for (int j = 0; j < filterFactor; j += 2) {
                for (int i = 0; i < filterFactor; i += 2) quads += texture(u_source, (corner + vec2(i, j)) / size);
            }
            return blurInput(quads * (4.0 / float(filterFactor * filterFactor)));
        }
    }
    for (int j = 0; j < filterFactor; ++j) {
        for (int i = 0; i < filterFactor; ++i) acc += blurInput(prefilter(fetchSource(p * filterFactor + ivec2(i, j))));
    }
    return acc * (1.0 / float(filterFactor * filterFactor));
}

// Passes 1 and 2: the kernel's weighted sum along x (1) or y (2).
vec4 kernelSum(ivec2 p) {
    vec4 acc = vec4(0.0);
    if (filterPass == 1) {
        for (int i = -filterRadius; i <= filterRadius; ++i) {
            acc += filterFactor == 1 ? weight(i) * blurInput(prefilter(fetchSource(p + ivec2(i, 0))))
                                     : weight(i) * fetchSource(p + ivec2(i, 0));
        }
        return acc;
    }
    for (int i = -filterRadius; i <= filterRadius; ++i) acc += weight(i) * fetchSource(p + ivec2(0, i));
    if ((filterFlags & 8) != 0) acc = blurFinish(acc, prefilter(fetchSource2(p)), p);
    return acc;
}

// Pass 3: the coarse result upsampled bilinearly, then the blur's finish.
vec4 upsample(ivec2 p) {
    ivec2 i;
    vec2 t;
    bilinearAt((vec2(p) + 0.5) * (1.0 / float(filterFactor)), i, t);
    vec4 v = bilinearMix(fetchSource(i), fetchSource(i + ivec2(1, 0)), fetchSource(i + ivec2(0, 1)),
                         fetchSource(i + ivec2(1, 1)), t);
    return blurFinish(v, prefilter(fetchSource2(p)), p);
}

// Pass 4: the shadow (its alpha offset, blurred or not) combined with the stage input.
vec4 shadowCombine(ivec2 p) {
    ivec2 i;
    vec2 t;
    bilinearAt(vec2(p) + 0.5 - v_params[0].xy, i, t);
    float a;
    if ((filterFlags & 16) != 0) {
        a = bilinearMix(fetchSource2(i), fetchSource2(i + ivec2(1, 0)), fetchSource2(i + ivec2(0, 1)),
                        fetchSource2(i + ivec2(1, 1)), t).a;
    } else {
        a = bilinearMix(blurInput(prefilter(fetchSource(i))), blurInput(prefilter(fetchSource(i + ivec2(1, 0)))),
                        blurInput(prefilter(fetchSource(i + ivec2(0, 1)))),
                        blurInput(prefilter(fetchSource(i + ivec2(1, 1)))), t).a;
    }
    vec4 s = prefilter(fetchSource(p));
    vec4 sh = v_color * clamp(a, 0.0, 1.0);
    if (shadowMode == 0) return s + (1.0 - s.a) * blendMode(shadowBlend, sh, vec4(0.0));
    if (shadowMode == 1) return blendMode(shadowBlend, sh, s);
    return blendMode(shadowBlend, sh, vec4(0.0));
}

// Pass 5: the output pixel's centre mapped back into the input (row vectors), sampled bilinearly.
vec4 projection(ivec2 p) {
    vec2 c = vec2(p) + 0.5;
    vec4 k0 = v_params[0], k1 = v_params[1];
    float k8 = v_params[2].x;
    float w = k0.z * c.x + k1.y * c.y + k8;
    vec2 q = vec2(k0.x * c.x + k0.w * c.y + k1.z, k0.y * c.x + k1.x * c.y + k1.w) / w;
    if (!(w > 0.0) || abs(q.x) >= 1e8 || abs(q.y) >= 1e8) return vec4(0.0);
    ivec2 i;
    vec2 t;
    bilinearAt(q, i, t);
    return bilinearMix(prefilter(fetchSource(i)), prefilter(fetchSource(i + ivec2(1, 0))),
                       prefilter(fetchSource(i + ivec2(0, 1))), prefilter(fetchSource(i + ivec2(1, 1))), t);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) + u_targetOrigin - v_shift;
    if (filterPass == 0) o_color = blockAverage(p);
    else if (filterPass <= 2) o_color = kernelSum(p);
    else if (filterPass == 3) o_color = upsample(p);
    else if (filterPass == 4) o_color = shadowCombine(p);
    else o_color = projection(p);
}
