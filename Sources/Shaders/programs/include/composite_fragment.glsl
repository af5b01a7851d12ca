// Fragment stage of the compositing programs: coverage × clip × paint, then the output for the program's
// blending route, chosen by one define before the include:
// - COMPOSITE_FIXED: the premultiplied source × coverage, for fixed-function source-over;
// - COMPOSITE_FETCH / COMPOSITE_COPY: the destination (framebuffer fetch / a copy of the target) blended in
//   the shader: dst + coverage · (blendMode(src, dst) − dst), blending off;
// - COMPOSITE_MASK: the clip-mask factor (the paint's alpha, or 1 − it when the rule field is 1) for a
//   multiplicative blend into an R8 mask page.
// The constants below match `CompositeInstance.CoverageSource` and `.PaintSource`. A program that defines
// COMPOSITE_FILTERS (and includes color_filter.glsl) also composites layers through colour filters.
#define COVERAGE_ATLAS 0
#define COVERAGE_ACCUMULATED 1
#define COVERAGE_FULL 2
#define PAINT_SOLID 0
#define PAINT_GRADIENT 1
#define PAINT_SOURCE 2
#define PAINT_SOURCE_ALPHA 3
#define PAINT_SOURCE_RED 4
#define PAINT_IMAGE 5
#define PAINT_BACKDROP 6
#define PAINT_FILTERED_SOURCE 7
#define PAINT_UPSAMPLED_SOURCE 8

uniform highp sampler2D u_atlas;
uniform highp sampler2D u_paintData;
uniform highp sampler2D u_clipMask;
uniform highp sampler2D u_source;
uniform highp sampler2D u_image;
uniform ivec2 u_targetOrigin;
uniform ivec4 u_sourceRect;  // x, y, w, h of the source image, in the coordinates drawn in
uniform ivec2 u_sourceTexel; // the texel of the source texture holding the image's corner (an atlas region)
in vec2 v_atlas;
flat in ivec4 v_mode;
flat in ivec4 v_clip;
flat in ivec3 v_clipUVBlend;
flat in ivec2 v_shift;
flat in vec4 v_color;

bool insideRect(ivec2 p, ivec2 size) {
    return p.x >= 0 && p.y >= 0 && p.x < size.x && p.y < size.y;
}

// A program specialised for one kind (`ShaderVariant`) has COVERAGE_KIND, PAINT_KIND, GRADIENT_KIND and
// BLEND_MODE defined as constants, and the driver folds the other branches away.
float compositeCoverage() {
#ifdef COVERAGE_KIND
    const int source = COVERAGE_KIND;
#else
    int source = v_mode.x;
#endif
    if (source == COVERAGE_FULL) return 1.0;
    float a = texture(u_atlas, v_atlas).r;
    if (source == COVERAGE_ACCUMULATED) {
        // The fill rule on signed area: non-zero min(|a|, 1), even-odd |a − 2·round(a/2)|.
        a = v_mode.y == 0 ? min(abs(a), 1.0) : abs(a - 2.0 * floor(a * 0.5 + 0.5));
    }
    return a;
}

vec4 compositeSource(ivec2 device) {
    ivec2 s = device - u_sourceRect.xy;
    return insideRect(s, u_sourceRect.zw) ? texelFetch(u_source, s + u_sourceTexel, 0) : vec4(0.0);
}

vec4 compositePaint(ivec2 device) {
#ifdef PAINT_KIND
    const int paint = PAINT_KIND;
#else
    int paint = v_mode.z;
#endif
    if (paint == PAINT_SOLID) return v_color;
#ifdef COMPOSITE_GRADIENTS
    if (paint == PAINT_GRADIENT) return gradientColor(u_paintData, v_mode.w, vec2(device) + 0.5) * v_color;
#endif
#if defined(PAINT_KIND) && PAINT_KIND == PAINT_IMAGE
    // Images only in a program specialised for them (their parameters come from the vertex stage).
    return imageColor(u_image, v_gradientHeader[0], v_gradientHeader[1], v_gradientHeader[2], v_gradientHeader[3],
                      v_gradientHeader[4], vec2(device) + 0.5) * v_color;
#endif
#if defined(PAINT_KIND) && PAINT_KIND == PAINT_UPSAMPLED_SOURCE
    // A blur's coarse result, interpolated here by the texture's bilinear filter instead of in an upsample pass
    // (FilterFormulas.upsampled); the paint row field holds the grid factor. Every texel the filter reads lies
    // in the source's rectangle (FilterPlanning makes the coarse result cover them all).
    return texture(u_source, ((vec2(device) + 0.5) * (1.0 / float(v_mode.w)) - vec2(u_sourceRect.xy - u_sourceTexel))
                             / vec2(textureSize(u_source, 0))) * v_color;
#endif
    vec4 t = compositeSource(device);
#ifdef COMPOSITE_FILTERS
    // A layer through its colour filters (transparent outside the layer's rectangle goes through them too).
    if (paint == PAINT_FILTERED_SOURCE) return colorFilterApply(u_paintData, v_mode.w, t) * v_color;
#endif
    if (paint == PAINT_SOURCE_ALPHA) return vec4(t.a) * v_color;
    if (paint == PAINT_SOURCE_RED) return vec4(t.r) * v_color;
    return t * v_color;
}

// The clip's coverage: its mask region in the bound mask page, 0 outside the clip's box.
float compositeClip(ivec2 device) {
#ifdef COMPOSITE_UNCLIPPED
    return 1.0;
#endif
    if (v_clip.z == 0) return 1.0;
    ivec2 m = device - v_clip.xy;
    return insideRect(m, v_clip.zw) ? texelFetch(u_clipMask, v_clipUVBlend.xy + m, 0).r : 0.0;
}

#ifdef COMPOSITE_FETCH
layout(location = 0) inout vec4 o_color;
#else
layout(location = 0) out vec4 o_color;
#endif
#ifdef COMPOSITE_COPY
uniform highp sampler2D u_destination;
#endif

void main() {
    ivec2 device = ivec2(gl_FragCoord.xy) + u_targetOrigin - v_shift;
#ifdef COMPOSITE_MASK
    float v = compositePaint(device).a;
    o_color = vec4(v_mode.y == 1 ? 1.0 - v : v);
#else
    float c = compositeCoverage() * compositeClip(device);
#if defined(COMPOSITE_FETCH) || defined(COMPOSITE_COPY)
#ifdef COMPOSITE_FETCH
    vec4 dst = o_color;
#else
    // The copy holds the target as it was before this draw call: a fragment that covers nothing (a band's
    // zero padding, which may overlap a neighbouring piece's band) must not write that old value back.
    if (c == 0.0) discard;
    vec4 dst = texelFetch(u_destination, ivec2(gl_FragCoord.xy), 0);
#endif
#if defined(PAINT_KIND) && PAINT_KIND == PAINT_BACKDROP
    vec4 src = dst * v_color;
#else
    vec4 src = compositePaint(device);
#endif
#ifdef BLEND_MODE
    o_color = dst + c * (blendMode(BLEND_MODE, src, dst) - dst);
#else
    o_color = dst + c * (blendMode(v_clipUVBlend.z, src, dst) - dst);
#endif
#else
    o_color = compositePaint(device) * c;
#endif
#endif
}
