// The sRGB transfer function, extended symmetrically to negative values (Color.swift's ColorTransfer):
// srgbEncode takes linear light to sRGB-encoded values, srgbDecode back.

float srgbEncode(float v) {
    float m = abs(v);
    float e = m <= 0.0031308 ? m * 12.92 : 1.055 * pow(m, 1.0 / 2.4) - 0.055;
    return v < 0.0 ? -e : e;
}

float srgbDecode(float v) {
    float m = abs(v);
    float l = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4);
    return v < 0.0 ? -l : l;
}

vec3 srgbEncode(vec3 c) { return vec3(srgbEncode(c.r), srgbEncode(c.g), srgbEncode(c.b)); }
vec3 srgbDecode(vec3 c) { return vec3(srgbDecode(c.r), srgbDecode(c.g), srgbDecode(c.b)); }
