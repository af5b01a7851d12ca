#version 300 es
// A composite program: a clip mask × a coverage or a layer's alpha (blend ZERO, SRC_COLOR).
// Shared stages: include/composite_vertex.glsl and include/composite_fragment.glsl.

#pragma stage vertex
precision highp float;
precision highp int;
#include "composite_vertex.glsl"

#pragma stage fragment

precision highp float;
precision highp int;
#define COMPOSITE_MASK
#define COMPOSITE_GRADIENTS
#include "composite_gradient_header.glsl"
#include "gradient.glsl"
#include "image.glsl"
#include "blend.glsl"
#include "composite_fragment.glsl"
