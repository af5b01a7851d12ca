#version 300 es
// A composite program: source-over by fixed function (ONE, ONE_MINUS_SRC_ALPHA): batches any paints.
// Shared stages: include/composite_vertex.glsl and include/composite_fragment.glsl.

#pragma stage vertex
precision highp float;
precision highp int;
#include "composite_vertex.glsl"

#pragma stage fragment

precision highp float;
precision highp int;
#define COMPOSITE_FIXED
#define COMPOSITE_GRADIENTS
#include "composite_gradient_header.glsl"
#include "gradient.glsl"
#include "image.glsl"
#include "blend.glsl"
#define COMPOSITE_FILTERS
#include "color_filter.glsl"
#include "composite_fragment.glsl"
