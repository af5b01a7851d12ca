import GPUCanvas
print("canvas-gl: being written")
