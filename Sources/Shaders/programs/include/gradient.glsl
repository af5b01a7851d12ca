// Gradient paints from one row of an RGBA32F "paint data" texture: `#include "gradient.glsl"`.
//
// The GLSL copy of GradientPaint's evaluation (Sources/GPUCanvasReference/GradientFormulas.swift). The row is
// `GradientPaint.packedTexels()`; its layout and the precision argument (why everything is relative to an
// integer origin o, why coefficients come split into hi + lo) are documented there. Texel index: contents
//   0        kind, spread (0 pad, 1 repeat, 2 mirror), flags (bit 0: sRGB-encode, bit 1: Oklab stops), stop count n
//   1        o.x, o.y, then linear: t_o, 0; radial / conic: v_o.x, v_o.y
//   2        linear: g_hi.xy, g_lo.xy;  radial / conic: M_hi = a, b, c, d
//   3        radial / conic: M_lo = a, b, c, d
//   4        concentric: r0, r1 − r0, k;  two-point: Δc.xy, r0, Δr;  conic: angle in turns
//   5        two-point: a, b_o, k
//   6 …      n stop colours (straight RGBA), then ⌈n/4⌉ texels of stop locations
// kind: 0 linear, 1 concentric radial, 2 two-point radial, 3 conic, 4 solid last stop, 5 nothing.
// Needs `precision highp float;` and `precision highp int;` before it; the texture must be complete (NEAREST
// filtering, no mipmaps), as texelFetch reads only level 0.

#include "srgb.glsl"

const int GRADIENT_HEADER_TEXELS = 6;

vec4 gradientTexel(highp sampler2D paintData, int row, int i) {
    return texelFetch(paintData, ivec2(i, row), 0);
}

// Header texel i (0…5). A program may define GRADIENT_HEADER as an array its vertex stage filled once per
// instance (flat), which saves the per-pixel fetches.
vec4 gradientHeader(highp sampler2D paintData, int row, int i) {
#ifdef GRADIENT_HEADER
    return GRADIENT_HEADER[i];
#else
    return gradientTexel(paintData, row, i);
#endif
}

// x reduced modulo 2 into [0, 2): exact for any float x (each step is exact).
float gradientMod2(float x) { return x - 2.0 * floor(x * 0.5); }

// w = M·(p − o) with M = M_hi + M_lo; M_hi has 8 significant bits, so its products with the half-integer
// d are exact.
vec2 gradientMapped(highp sampler2D paintData, int row, vec2 d) {
    vec4 hi = gradientHeader(paintData, row, 2);
    vec4 lo = gradientHeader(paintData, row, 3);
    return (hi.xy * d.x + hi.zw * d.y) + (lo.xy * d.x + lo.zw * d.y);
}

// The largest root t of a·t² − 2b·t + c = 0 with r0 + t·dr ≥ 0; `valid` false when there is none.
float gradientTwoPointRoot(float a, float b, float c, float r0, float dr, out bool valid) {
    valid = true;
    if (a == 0.0) {
        float t = c / (2.0 * b);
        valid = b != 0.0 && r0 + t * dr >= 0.0;
        return t;
    }
    float disc = b * b - a * c;
    if (disc < 0.0) { valid = false; return 0.0; }
    float q = b >= 0.0 ? b + sqrt(disc) : b - sqrt(disc);
    float t1 = q / a;
    float t2 = q != 0.0 ? c / q : t1;
    float hi = max(t1, t2), lo = min(t1, t2);
    if (r0 + hi * dr >= 0.0) return hi;
    if (r0 + lo * dr >= 0.0) return lo;
    valid = false;
    return 0.0;
}

float gradientLocation(highp sampler2D paintData, int row, int firstLocationTexel, int i) {
    return gradientTexel(paintData, row, firstLocationTexel + i / 4)[i & 3];
}

// The straight colour at t: binary search for the last stop with location ≤ t (at most 9 steps for 256
// stops), then linear interpolation to the next one; before the first stop the first colour, after the last
// the last colour, equal locations a hard edge where the later stop wins.
vec4 gradientStopColor(highp sampler2D paintData, int row, int n, float t) {
    int firstLocation = GRADIENT_HEADER_TEXELS + n;
#ifdef GRADIENT_STOPS
    // At most four stops (a program specialised for them, GRADIENT_FEW_STOPS), passed per vertex
    // (GRADIENT_STOPS, and their locations GRADIENT_LOCATIONS, an absent stop's being 2): no texture reads per
    // pixel. The last stop at or before t is the count of locations ≤ t, minus one.
    vec4 locations = GRADIENT_LOCATIONS;
    int lo = int(dot(step(locations, vec4(t)), vec4(1.0))) - 1;
    vec4 s0 = GRADIENT_STOPS[0], s1 = GRADIENT_STOPS[1], s2 = GRADIENT_STOPS[2], s3 = GRADIENT_STOPS[3];
    if (lo < 0) return s0;
    vec4 a = lo == 0 ? s0 : lo == 1 ? s1 : lo == 2 ? s2 : s3;
    if (lo == 3 || locations[lo + 1] > 1.5) return a;
    vec4 b = lo == 0 ? s1 : lo == 1 ? s2 : s3;
    float la = locations[lo];
    float lb = locations[lo + 1];
    float f = (t - la) / (lb - la);
    return a + (b - a) * f;
#else
    int lo = -1, hi = n;
    for (int k = 0; k < 9; ++k) {
        if (hi - lo <= 1) break;
        int mid = (lo + hi) / 2;
        if (gradientLocation(paintData, row, firstLocation, mid) <= t) lo = mid; else hi = mid;
    }
    if (lo < 0) return gradientTexel(paintData, row, GRADIENT_HEADER_TEXELS);
    vec4 a = gradientTexel(paintData, row, GRADIENT_HEADER_TEXELS + lo);
    if (lo == n - 1) return a;
    vec4 b = gradientTexel(paintData, row, GRADIENT_HEADER_TEXELS + lo + 1);
    float la = gradientLocation(paintData, row, firstLocation, lo);
    float lb = gradientLocation(paintData, row, firstLocation, lo + 1);
    float f = (t - la) / (lb - la);
    return a + (b - a) * f;
#endif
}

// Oklab → linear sRGB (GradientFormulas.swift's Oklab.toLinearSRGB): `Gradient.ColorSpace.perceptual`.
vec3 gradientOklabToLinear(vec3 c) {
    float l3 = c.x + 0.3963377774 * c.y + 0.2158037573 * c.z;
    float m3 = c.x - 0.1055613458 * c.y - 0.0638541728 * c.z;
    float s3 = c.x - 0.0894841775 * c.y - 1.2914855480 * c.z;
    float l = l3 * l3 * l3, m = m3 * m3 * m3, s = s3 * s3 * s3;
    return vec3(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s);
}

// The premultiplied working-space colour of the gradient in row `row` at a device pixel centre (transparent
// where the gradient is undefined).
vec4 gradientColor(highp sampler2D paintData, int row, vec2 devicePixelCentre) {
    vec4 h0 = gradientHeader(paintData, row, 0);
    vec4 h1 = gradientHeader(paintData, row, 1);
#ifdef GRADIENT_KIND
    const int kind = GRADIENT_KIND;  // a program specialised for one kind (ShaderVariant)
#else
    int kind = int(h0.x);
#endif
#ifdef GRADIENT_SPREAD
    const int spread = GRADIENT_SPREAD;
#else
    int spread = int(h0.y);
#endif
    int flags = int(h0.z);
    int n = int(h0.w);
    if (kind == 5) return vec4(0.0);
    float t = 1.0;
    bool spreadDone = false;
    vec2 d = devicePixelCentre - h1.xy;                  // exact: both are half-integers below 2^15
    if (kind == 0) {
        vec4 g = gradientHeader(paintData, row, 2);
        vec2 hi = vec2(g.x * d.x, g.y * d.y);            // exact products
        vec2 lo = g.zw * d;
        // The spread from the row even in a program that compiles it in: a constant here lets the driver
        // contract the products into the sum differently, and the general program (which reads it) and the
        // specialised one must give the same bytes.
        if (int(h0.y) != 0) hi = vec2(gradientMod2(hi.x), gradientMod2(hi.y));
        t = ((hi.x + hi.y) + (lo.x + lo.y)) + h1.z;
    } else if (kind == 1 || kind == 2) {
        vec2 w = gradientMapped(paintData, row, d);
        vec2 vo = h1.zw;
        vec2 v = vo + w;
        vec4 g4 = gradientHeader(paintData, row, 4);
        if (kind == 1) {
            float r0 = g4.x, dr = g4.y, k = g4.z;
            float len = length(v);
            float c = k + 2.0 * dot(vo, w) + dot(w, w);   // |v|² − r0², relative to the origin
            float den = len + r0;
            float diff = den > 0.0 ? c / den : len - r0;  // |v| − r0 without cancelling |v| against r0
            t = diff / dr;
        } else {
            vec4 g5 = gradientHeader(paintData, row, 5);
            float b = g5.y + dot(w, g4.xy);
            float c = g5.z + 2.0 * dot(vo, w) + dot(w, w);
            bool valid;
            t = gradientTwoPointRoot(g5.x, b, c, g4.z, g4.w, valid);
            if (!valid) return vec4(0.0);
        }
    } else if (kind == 3) {
        vec2 v = h1.zw + gradientMapped(paintData, row, d);
        float theta = (v.x == 0.0 && v.y == 0.0) ? 0.0 : atan(v.y, v.x);
        t = theta * 0.15915494309189535 - gradientHeader(paintData, row, 4).x;
        t = t - floor(t);
        if (t >= 1.0) t = 0.0;
        spreadDone = true;
    }
    vec4 straight;
    if (kind == 4) {
#ifdef GRADIENT_STOPS
        straight = GRADIENT_STOPS[0];  // the vertex stage put the last stop first
#else
        straight = gradientTexel(paintData, row, GRADIENT_HEADER_TEXELS + n - 1);
#endif
    } else {
        if (!spreadDone) {
            if (spread == 0) t = clamp(t, 0.0, 1.0);
            else if (spread == 1) t = t - floor(t);
            else t = 1.0 - abs(gradientMod2(t) - 1.0);
        }
        straight = gradientStopColor(paintData, row, n, t);
    }
    vec3 rgb = straight.rgb;
#ifdef GRADIENT_SPREAD
    // A specialised program knows whether it encodes (GRADIENT_ENCODE) and its spread (GRADIENT_SPREAD), and
    // whether its stops are Oklab (GRADIENT_OKLAB); a general one (the kind at most defined) reads the flags.
#ifdef GRADIENT_OKLAB
    rgb = gradientOklabToLinear(rgb);
#endif
#ifdef GRADIENT_ENCODE
    rgb = srgbEncode(rgb);
#endif
#else
    if ((flags & 2) != 0) rgb = gradientOklabToLinear(rgb);
    if ((flags & 1) != 0) rgb = srgbEncode(rgb);
#endif
    return vec4(rgb * straight.a, straight.a);
}
