// The 28 blend modes (raw values of CGBlendMode) on premultiplied colours: `#include "blend.glsl"`.
//
// The GLSL copy of Sources/GPUCanvasReference/BlendFormulas.swift, written in the same order of operations
// so the two agree to float rounding (FormulaGPUAgreementTests checks every mode on llvmpipe). Separable and
// non-separable modes: unpremultiply (alpha 0 gives colour 0), the W3C Compositing and Blending Level 1
// function B(Cb, Cs) on straight colour, then co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B, αo = αs + αb·(1 − αs).
// The Porter-Duff modes and plusDarker / plusLighter are CoreGraphics' premultiplied formulas. Nothing is
// clamped except where a formula clamps. Needs `precision highp float;` and `precision highp int;` before it.

vec3 blendUnpremultiplied(vec4 c) {
    return c.a > 0.0 ? c.rgb / c.a : vec3(0.0);
}

// W3C HardLight: Multiply(Cb, 2·Cs) for Cs ≤ ½, else Screen(Cb, 2·Cs − 1).
float blendHardLight(float cs, float cb) {
    if (cs <= 0.5) return cb * (2.0 * cs);
    float s2 = 2.0 * cs - 1.0;
    return cb + s2 - cb * s2;
}

// B(Cb, Cs) of a separable mode (1…11) on one straight channel.
float blendSeparable(int mode, float cb, float cs) {
    switch (mode) {
    case 1: return cb * cs;                                   // multiply
    case 2: return cb + cs - cb * cs;                         // screen
    case 3: return blendHardLight(cb, cs);                    // overlay: HardLight with Cs and Cb swapped
    case 4: return min(cb, cs);                               // darken
    case 5: return max(cb, cs);                               // lighten
    case 6:                                                   // colorDodge
        if (cb == 0.0) return 0.0;
        if (cs == 1.0) return 1.0;
        return min(1.0, cb / (1.0 - cs));
    case 7:                                                   // colorBurn
        if (cb == 1.0) return 1.0;
        if (cs == 0.0) return 0.0;
        return 1.0 - min(1.0, (1.0 - cb) / cs);
    case 8: {                                                 // softLight
        if (cs <= 0.5) return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
        float dcb = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
        return cb + (2.0 * cs - 1.0) * (dcb - cb);
    }
    case 9: return blendHardLight(cs, cb);                    // hardLight
    case 10: return abs(cb - cs);                             // difference
    case 11: return cb + cs - 2.0 * cb * cs;                  // exclusion
    default: return 0.0;
    }
}

float blendLum(vec3 c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }

float blendSat(vec3 c) { return max(max(c.r, c.g), c.b) - min(min(c.r, c.g), c.b); }

// W3C ClipColor; the minimum and maximum are taken once, before either correction. A grey outside [0, 1]
// (where the specification divides by zero) is left as it is.
vec3 blendClipColor(vec3 c) {
    float l = blendLum(c);
    float n = min(min(c.r, c.g), c.b);
    float x = max(max(c.r, c.g), c.b);
    vec3 r = c;
    if (n < 0.0 && l - n > 0.0) r = l + (r - l) * l / (l - n);
    if (x > 1.0 && x - l > 0.0) r = l + (r - l) * (1.0 - l) / (x - l);
    return r;
}

vec3 blendSetLum(vec3 c, float l) { return blendClipColor(c + (l - blendLum(c))); }

// W3C SetSat per channel: (c − min)·s/(max − min); a grey becomes black.
vec3 blendSetSat(vec3 c, float s) {
    float n = min(min(c.r, c.g), c.b);
    float x = max(max(c.r, c.g), c.b);
    if (!(x > n)) return vec3(0.0);
    return (c - n) * s / (x - n);
}

vec4 blendMode(int mode, vec4 src, vec4 dst) {
    float sa = src.a, da = dst.a;
    if (mode == 0) return src + dst * (1.0 - sa);                                     // normal
    if (mode >= 1 && mode <= 15) {
        vec3 cs = blendUnpremultiplied(src), cb = blendUnpremultiplied(dst);
        vec3 b;
        if (mode <= 11) {
            b = vec3(blendSeparable(mode, cb.r, cs.r), blendSeparable(mode, cb.g, cs.g),
                     blendSeparable(mode, cb.b, cs.b));
        } else if (mode == 12) {
            b = blendSetLum(blendSetSat(cs, blendSat(cb)), blendLum(cb));              // hue
        } else if (mode == 13) {
            b = blendSetLum(blendSetSat(cb, blendSat(cs)), blendLum(cb));              // saturation
        } else if (mode == 14) {
            b = blendSetLum(cs, blendLum(cb));                                         // color
        } else {
            b = blendSetLum(cb, blendLum(cs));                                         // luminosity
        }
        vec3 rgb = src.rgb * (1.0 - da) + dst.rgb * (1.0 - sa) + (sa * da) * b;
        return vec4(rgb, sa + da * (1.0 - sa));
    }
    switch (mode) {
    case 16: return vec4(0.0);                                                         // clear
    case 17: return src;                                                               // copy
    case 18: return src * da;                                                          // sourceIn
    case 19: return src * (1.0 - da);                                                  // sourceOut
    case 20: return src * da + dst * (1.0 - sa);                                       // sourceAtop
    case 21: return src * (1.0 - da) + dst;                                            // destinationOver
    case 22: return dst * sa;                                                          // destinationIn
    case 23: return dst * (1.0 - sa);                                                  // destinationOut
    case 24: return src * (1.0 - da) + dst * sa;                                       // destinationAtop
    case 25: return src * (1.0 - da) + dst * (1.0 - sa);                               // xor
    case 26: return max(vec4(0.0), vec4(1.0) - ((vec4(1.0) - dst) + (vec4(1.0) - src))); // plusDarker
    case 27: return min(vec4(1.0), src + dst);                                         // plusLighter
    default: return vec4(0.0);
    }
}

// How a draw applies a blend mode where its shape covers the pixel by `coverage`: d + c·(blend(s, d) − d).
vec4 blendModeWithCoverage(int mode, vec4 src, vec4 dst, float coverage) {
    return dst + coverage * (blendMode(mode, src, dst) - dst);
}
