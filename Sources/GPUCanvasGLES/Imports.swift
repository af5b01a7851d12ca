// The GLES backend draws the lowered frame (GPUCanvasCore).

@_exported import GPUCanvasCore
