// The reference draws the lowered frame (GPUCanvasCore) and nothing else: no GLES type is visible here.

@_exported import GPUCanvasCore
