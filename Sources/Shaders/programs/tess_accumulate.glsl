#version 300 es
// GPU tessellation, pass 1: every flattened segment adds its exact signed area into a float atlas
// (R32F target, additive blending: EXT_color_buffer_float + EXT_float_blend).
//
// Mode 0 (anti-aliased, exact area): the segment's quad spans its columns from its top down to the atlas
// piece's bottom edge (`limit`). A pixel receives ±(the area of the pixel square that lies below the
// segment), the sign being the segment's x direction. Over a closed contour these sum to the integral of the
// winding number over the pixel: the accumulated signed area of docs/DESIGN-NOTES.md's coverage definition.
//
// Mode 1 (`antialiased: false`, pixel-centre samples): the instance is a run of rows decided on the CPU in
// f64 (TessellationStrategy.swift): a vertical segment on a whole texel column x0 = x1 from row y0 to row
// y1, both whole. The quad spans those rows from that column to the piece's right edge (`limit`), and
// every pixel of it receives ±1, the sign being the segment's y direction. The sum is the winding number
// at the pixel centre, with the reference's ties; nothing is decided here in f32.
precision highp float;
precision highp int;

#pragma stage vertex
uniform vec2 u_targetSize;
layout(location = 0) in vec4 a_segment;  // x0, y0, x1, y1 in atlas texels
layout(location = 1) in vec2 a_limit;    // limit (bottom or right edge), mode
flat out vec4 v_segment;
flat out int v_mode;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec4 s = a_segment;
    vec2 lo = floor(min(s.xy, s.zw));
    vec2 hi = ceil(max(s.xy, s.zw));
    int mode = int(a_limit.y);
    vec2 p;
    if (mode == 0) {
        // Columns of the segment, from its top to the bottom limit.
        p = vec2(mix(lo.x, hi.x, corner.x), mix(lo.y, a_limit.x, corner.y));
    } else {
        // The run's rows (whole texels), from its column to the right limit.
        p = vec2(mix(lo.x, a_limit.x, corner.x), mix(lo.y, hi.y, corner.y));
    }
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    v_segment = s;
    v_mode = mode;
}

#pragma stage fragment
flat in vec4 v_segment;
flat in int v_mode;
layout(location = 0) out vec4 o_area;

// Signed area of the pixel square [px, px+1] × [py, py+1] below the segment.
float areaBelow(vec2 pixel, vec4 s) {
    float dir = s.z > s.x ? 1.0 : -1.0;
    // Order by x and clip to the pixel's column.
    vec2 a = s.x < s.z ? s.xy : s.zw;
    vec2 b = s.x < s.z ? s.zw : s.xy;
    float dx = b.x - a.x;
    if (dx <= 0.0) return 0.0;  // vertical: no area under it
    float xa = max(a.x, pixel.x), xb = min(b.x, pixel.x + 1.0);
    if (xb <= xa) return 0.0;
    float slope = (b.y - a.y) / dx;
    float ya = a.y + (xa - a.x) * slope;
    float yb = a.y + (xb - a.x) * slope;
    float len = xb - xa;
    float top = pixel.y, bottom = pixel.y + 1.0;
    if (max(ya, yb) <= top) return dir * len;      // the whole pixel column part lies below the segment
    if (min(ya, yb) >= bottom) return 0.0;         // the segment passes below the pixel
    if (ya == yb) return dir * len * (bottom - ya);
    // Parameter t ∈ [0, 1] along the clipped piece; split where y crosses the pixel's top and bottom.
    float t0 = clamp((top - ya) / (yb - ya), 0.0, 1.0);
    float t1 = clamp((bottom - ya) / (yb - ya), 0.0, 1.0);
    float tIn0 = min(t0, t1), tIn1 = max(t0, t1);
    // Above the pixel (y < top): the parts of [0, 1] outside [tIn0, tIn1] on the side where y < top.
    float above = ya < yb ? tIn0 : 1.0 - tIn1;
    float yMid = ya + (yb - ya) * 0.5 * (tIn0 + tIn1);
    return dir * len * (above + (tIn1 - tIn0) * (bottom - yMid));
}

void main() {
    vec2 pixel = floor(gl_FragCoord.xy);
    // Mode 1: the quad is exactly the run's pixels; its sign is all there is to add.
    float v = v_mode == 0 ? areaBelow(pixel, v_segment) : (v_segment.w > v_segment.y ? 1.0 : -1.0);
    o_area = vec4(v, 0.0, 0.0, 0.0);
}
