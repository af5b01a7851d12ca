#version 300 es
// A composite program: any blend mode in the shader, the destination read by framebuffer fetch (blending off).
// Shared stages: include/composite_vertex.glsl and include/composite_fragment.glsl.

#pragma stage vertex
precision highp float;
precision highp int;
#include "composite_vertex.glsl"

#pragma stage fragment
#extension GL_EXT_shader_framebuffer_fetch : require
precision highp float;
precision highp int;
#define COMPOSITE_FETCH
#define COMPOSITE_GRADIENTS
#include "composite_gradient_header.glsl"
#include "gradient.glsl"
#include "image.glsl"
#include "blend.glsl"
#define COMPOSITE_FILTERS
#include "color_filter.glsl"
#include "composite_fragment.glsl"
