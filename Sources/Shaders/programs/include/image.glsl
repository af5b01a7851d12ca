// Image sampling (`imageColor`), the GLSL copy of Sources/GPUCanvasReference/ImageSampling.swift: the same rule
// in the same order of operations. The paint's parameters are four texels (read once per instance by the vertex
// stage): h0 = deviceToImage a, b, c, d; h1 = tx, ty, flags, 0; h2 = the source rect in image pixels x, y, w, h;
// h3 = a template's premultiplied tint; h4 = the image's width and height in pixels. Flags: 1 tiled (repeat
// the source rect), 2 nearest, 4 template, 8 decode sRGB (a linear-light canvas; before filtering).
// Needs `precision highp float;` and `precision highp int;` before it.

// i wrapped into [lo, lo + n) (n ≥ 1), for any sign of i − lo.
int imageWrap(int i, int lo, int n) {
    int k = i - lo;
    return lo + k - n * int(floor(float(k) / float(n)));
}

float imageDecode(float v) {
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

vec4 imageTexel(highp sampler2D img, ivec2 i, bool decode) {
    vec4 t = texelFetch(img, i, 0);
    if (!decode || t.a <= 0.0) return t;
    vec3 s = t.rgb / t.a;
    return vec4(vec3(imageDecode(s.r), imageDecode(s.g), imageDecode(s.b)) * t.a, t.a);
}

ivec2 imageIndex(ivec2 i, ivec2 lo, ivec2 n, bool tiled, ivec2 size) {
    ivec2 k = tiled ? ivec2(imageWrap(i.x, lo.x, n.x), imageWrap(i.y, lo.y, n.y)) : clamp(i, lo, lo + n - 1);
    return clamp(k, ivec2(0), size - 1);
}

vec4 imageColor(highp sampler2D img, vec4 h0, vec4 h1, vec4 h2, vec4 h3, vec4 h4, vec2 devicePixelCentre) {
    int flags = int(h1.z);
    ivec2 size = ivec2(h4.xy);
    bool decode = (flags & 8) != 0;
    bool tiled = (flags & 1) != 0;
    vec2 p = vec2(h0.x * devicePixelCentre.x + h0.z * devicePixelCentre.y + h1.x,
                  h0.y * devicePixelCentre.x + h0.w * devicePixelCentre.y + h1.y);
    // The source rect's whole texels: [lo, lo + n).
    ivec2 lo = ivec2(floor(h2.xy));
    ivec2 n = max(ivec2(1), ivec2(ceil(h2.xy + h2.zw)) - lo);
    if (tiled) p = h2.xy + (p - h2.xy) - h2.zw * floor((p - h2.xy) / h2.zw);
    p = clamp(p, vec2(-1e9), vec2(1e9));
    vec4 c;
#ifdef IMAGE_NEAREST
    // A program specialised for nearest sampling: the bilinear path is not compiled (llvmpipe runs both sides
    // of a branch on a flat flag).
    c = imageTexel(img, imageIndex(ivec2(floor(p)), lo, n, tiled, size), decode);
#else
    if ((flags & 2) != 0) {
        c = imageTexel(img, imageIndex(ivec2(floor(p)), lo, n, tiled, size), decode);
    } else {
        vec2 u = p - 0.5;
        vec2 f0 = floor(u);
        vec2 f = u - f0;
        ivec2 i0 = ivec2(f0);
        vec4 c00 = imageTexel(img, imageIndex(i0, lo, n, tiled, size), decode);
        vec4 c10 = imageTexel(img, imageIndex(i0 + ivec2(1, 0), lo, n, tiled, size), decode);
        vec4 c01 = imageTexel(img, imageIndex(i0 + ivec2(0, 1), lo, n, tiled, size), decode);
        vec4 c11 = imageTexel(img, imageIndex(i0 + ivec2(1, 1), lo, n, tiled, size), decode);
        vec4 top = c00 + (c10 - c00) * f.x;
        vec4 bottom = c01 + (c11 - c01) * f.x;
        c = top + (bottom - top) * f.y;
    }
#endif
    if ((flags & 4) != 0) c = h3 * c.a;
    return c;
}
