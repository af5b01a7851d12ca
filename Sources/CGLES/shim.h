// The one umbrella header of the C side: EGL (with the device/platform extensions), OpenGL ES 3.2 with
// its extension header, and libpng. Debian: libegl-dev, libgles-dev, libpng-dev.
#ifndef CGLES_SHIM_H
#define CGLES_SHIM_H
#define EGL_EGLEXT_PROTOTYPES 0
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <png.h>
// zlib (libpng links it): crc32 for the APNG chunks the frame exporter writes around libpng's IDAT data.
#include <zlib.h>
// The frame exporter's fast PNG encoder (level 1, no filtering), with its setjmp in C.
#include "png_fast.h"
#endif
