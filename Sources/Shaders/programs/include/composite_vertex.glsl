// Vertex stage of the compositing programs (`composite*.glsl`, `mask_multiply.glsl`): one instance per band
// or rectangle (`CompositeInstance`), drawn as a 4-vertex triangle strip. A band is a trapezoid: its left
// and right sides are inset from the rectangle at the top and bottom (1/16 px). Positions are device pixels;
// the target's texel (0, 0) shows device pixel `u_targetOrigin` (a layer's or a mask's box), and an instance's
// shift moves it to its own place in a shared target (a hoisted layer's region of the layer atlas): device
// pixel p lands on target texel p + shift − u_targetOrigin.
uniform vec2 u_targetSize;
uniform ivec2 u_targetOrigin;
uniform vec2 u_atlasSize;
layout(location = 0) in ivec4 a_rect;    // x, y, w, h in device pixels
layout(location = 1) in ivec4 a_atlas;   // u, v of the top-left texel; fill rule; coverage source
layout(location = 2) in ivec4 a_insets;  // left side at top, at bottom; right side at top, at bottom
layout(location = 3) in ivec4 a_paint;   // paint source; paint-data row; blend mode; reserved
layout(location = 4) in ivec4 a_clip;    // the clip's device box (w = 0: unclipped)
layout(location = 5) in ivec4 a_clipUV;  // mask-page texel of the clip box's top-left corner; the shift
layout(location = 6) in vec4 a_color;    // premultiplied colour (× opacity) multiplying the paint
out vec2 v_atlas;                        // normalised atlas coordinate of this fragment
flat out ivec4 v_mode;                   // coverage source, rule, paint source, paint row
flat out ivec4 v_clip;
flat out ivec3 v_clipUVBlend;            // mask-page texel of the clip box; blend mode
flat out ivec2 v_shift;
flat out vec4 v_color;
#if defined(PAINT_KIND) && (PAINT_KIND == 1 || PAINT_KIND == 5)
// A gradient or image program reads its paint's header texels here, once per vertex, not per pixel.
uniform highp sampler2D u_paintData;
flat out vec4 v_gradientHeader[6];
#endif
#if defined(PAINT_KIND) && PAINT_KIND == 1 && defined(GRADIENT_FEW_STOPS)
// At most four stops (GRADIENT_FEW_STOPS): their colours and locations come per vertex too (see gradient.glsl).
flat out vec4 v_gradientStops[4];
flat out vec4 v_gradientLocations;
#endif

void main() {
    // 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    float inset = corner.x == 0.0 ? (corner.y == 0.0 ? float(a_insets.x) : float(a_insets.y))
                                  : -(corner.y == 0.0 ? float(a_insets.z) : float(a_insets.w));
    vec2 offset = corner * vec2(a_rect.zw) + vec2(inset / 16.0, 0.0);
    vec2 p = vec2(a_rect.xy) + offset;
    gl_Position = vec4((p + vec2(a_clipUV.zw) - vec2(u_targetOrigin)) / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_shift = a_clipUV.zw;
    // Atlas texels are the band's pixels shifted: the same offset from the top-left in both. Sampled with
    // texture() at a normalised coordinate (NEAREST): on llvmpipe ~20 % cheaper than texelFetch at
    // gl_FragCoord, and at a pixel centre the coordinate is a texel centre, far from any texel edge.
    v_atlas = (vec2(a_atlas.xy) + offset) / u_atlasSize;
    v_mode = ivec4(a_atlas.w, a_atlas.z, a_paint.x, a_paint.y);
    v_clip = a_clip;
    v_clipUVBlend = ivec3(a_clipUV.xy, a_paint.z);
    v_color = a_color;
#if defined(PAINT_KIND) && (PAINT_KIND == 1 || PAINT_KIND == 5)
    for (int i = 0; i < 6; ++i) v_gradientHeader[i] = texelFetch(u_paintData, ivec2(i, a_paint.y), 0);
#endif
#if defined(PAINT_KIND) && PAINT_KIND == 1 && defined(GRADIENT_FEW_STOPS)
    int stopCount = int(v_gradientHeader[0].w);
    for (int i = 0; i < 4; ++i) {
        v_gradientStops[i] = i < stopCount ? texelFetch(u_paintData, ivec2(6 + i, a_paint.y), 0) : vec4(0.0);
    }
    vec4 locations = texelFetch(u_paintData, ivec2(6 + stopCount, a_paint.y), 0);
    // An absent stop's location is 2, beyond every t (t is in [0, 1] once spread), so it is never chosen.
    v_gradientLocations = mix(vec4(2.0), locations, vec4(greaterThan(ivec4(stopCount), ivec4(0, 1, 2, 3))));
#if GRADIENT_KIND == 4
    v_gradientStops[0] = texelFetch(u_paintData, ivec2(6 + stopCount - 1, a_paint.y), 0);
#endif
#endif
}
