// `import GPUCanvas` gives a user the whole API: the values, the context and the recording live in
// GPUCanvasCore, the views, renderer, export and scene files here.

@_exported import GPUCanvasCore
