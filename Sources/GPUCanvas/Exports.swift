// `import GPUCanvas` gives a user the whole API: the values, the context and the recording live in
// GPUCanvasCore, the GLES backend's options and statistics in GPUCanvasGLES, the views, renderer, export and
// scene files here.

@_exported import GPUCanvasCore
@_exported import GPUCanvasGLES
import GPUCanvasReference
