// A gradient (or image) program's header texels, read once per instance by composite_vertex.glsl (flat), for
// gradient.glsl's gradientHeader(). Included before gradient.glsl in the fragment stage.
#if defined(PAINT_KIND) && PAINT_KIND == 1
flat in vec4 v_gradientHeader[6];
#define GRADIENT_HEADER v_gradientHeader
#ifdef GRADIENT_FEW_STOPS
flat in vec4 v_gradientStops[4];
flat in vec4 v_gradientLocations;
#define GRADIENT_STOPS v_gradientStops
#define GRADIENT_LOCATIONS v_gradientLocations
#endif
#endif
#if defined(PAINT_KIND) && PAINT_KIND == 5
flat in vec4 v_gradientHeader[6];
#endif
