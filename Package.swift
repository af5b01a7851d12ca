// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "GPUCanvas",
    products: [
        .library(name: "GPUCanvas", targets: ["GPUCanvas"]),
        .executable(name: "canvas-gl", targets: ["canvas-gl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation` (scripts/docs.sh): a plugin only, nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // EGL, OpenGL ES 3.2 (+ gl2ext.h) and libpng, behind one module map. The link lines live in the
        // module map; pkg-config can only name one package here, the others are found on the default paths.
        .systemLibrary(
            name: "CGLES",
            path: "Sources/CGLES",
            pkgConfig: "egl",
            providers: [.apt(["libegl-dev", "libgles-dev", "libpng-dev", "libegl-mesa0", "libgl1-mesa-dri"])]
        ),
        // libjpeg (libjpeg-turbo, libjpeg 6.2 API), with a C shim whose error manager longjmps instead of
        // calling exit(): see Sources/CJPEG/shim.h.
        .systemLibrary(
            name: "CJPEG",
            path: "Sources/CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // The text engine's libraries: FreeType (font files, outlines), HarfBuzz (shaping), fontconfig (matching
        // and fallback). pkg-config names FreeType; the module map links all three. The fonts are what the engine's matching table and tests expect to find (Sources/GPUCanvasCore/Text).
        .systemLibrary(
            name: "CText",
            path: "Sources/CText",
            pkgConfig: "freetype2",
            providers: [.apt([
                "libfreetype-dev", "libharfbuzz-dev", "libfontconfig-dev",
                "fonts-inter", "fonts-liberation2", "fonts-dejavu-core", "fonts-noto-core", "fonts-noto-color-emoji",
                "fonts-wqy-microhei",
                // Image(systemName:): SF Symbols names drawn with Material Design Icons (API/SystemImage.swift).
                "fonts-materialdesignicons-webfont",
            ])]
        ),
        // ICU's common library (libicuuc, Debian libicu-dev): UAX #14 line breaking and UAX #9 bidi for the text
        // engine. A C target, not a system-library module: ICU's own types must stay out of Swift, where they
        // would clash with Foundation's ICU (Sources/CICU/include/cicu.h). ICU 72 implements Unicode 15.0.
        .target(
            name: "CICU",
            path: "Sources/CICU",
            linkerSettings: [.linkedLibrary("icuuc")]
        ),
        // cmark, the CommonMark reference implementation: the inline Markdown of `Text` string literals
        // (`Text("**bold** and *italic*")`, API/Text+Markdown.swift).
        .systemLibrary(
            name: "CMark",
            path: "Sources/CMark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // OpenSSL's libcrypto for SHA-256: the program-binary cache's keys and checksums.
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Clipper 6 (Debian libpolyclipping-dev), the polygon clipping library behind the path boolean operations,
        // through a small C++ target with a C header: Clipper is C++ and throws on out-of-range coordinates, and
        // the shim turns that into a status (Sources/CClipper/include/cclipper.h says why not C++ interop).
        .target(
            name: "CClipper",
            path: "Sources/CClipper",
            linkerSettings: [.linkedLibrary("polyclipping")]
        ),
        // GLSL ES programs, one file per program, shipped as resources.
        .target(
            name: "Shaders",
            path: "Sources/Shaders",
            resources: [.copy("programs")]
        ),
        // The stages as modules; an arrow the graph below lacks is a compile error, not a convention.
        // Core: the values a recording is made of (Path, Color, Shading, GraphicsContext …), the recording,
        // geometry, text, imaging and the lowering both backends share. libpng comes through CGLES's module map.
        .target(
            name: "GPUCanvasCore",
            dependencies: ["CGLES", "CJPEG", "CText", "CICU", "CMark", "CClipper"],
            path: "Sources/GPUCanvasCore"
        ),
        // The CPU reference rasterizer: the lowered frame → pixels, independent of the GLES backend.
        .target(
            name: "GPUCanvasReference",
            dependencies: ["GPUCanvasCore"],
            path: "Sources/GPUCanvasReference"
        ),
        // The OpenGL ES backend: the lowered frame → GPU commands.
        .target(
            name: "GPUCanvasGLES",
            dependencies: ["GPUCanvasCore", "CGLES", "CCrypto", "Shaders"],
            path: "Sources/GPUCanvasGLES"
        ),
        // The API front: views, `CanvasRenderer`, export, scene files; re-exports GPUCanvasCore.
        .target(
            name: "GPUCanvas",
            dependencies: ["GPUCanvasCore", "GPUCanvasReference", "GPUCanvasGLES", "CGLES"],
            path: "Sources/GPUCanvas"
        ),
        .executableTarget(
            name: "canvas-gl",
            dependencies: [
                "GPUCanvas",
                // `render --timings` counts the shader files read (`ShaderLibrary.fileReads`).
                "Shaders",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/canvas-gl"
        ),
        .testTarget(
            name: "GPUCanvasTests",
            dependencies: ["GPUCanvas", "GPUCanvasCore", "GPUCanvasReference", "GPUCanvasGLES", "CJPEG", "Shaders", "CClipper"],
            path: "Tests/GPUCanvasTests"
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["GPUCanvas"],
            path: "Tests/ConformanceTests",
            exclude: ["make_catalogue.py"],
            resources: [.copy("scenes")]
        ),
        // GPUCanvas for reading back the PNGs the tool writes (pixel checks, backend differences).
        .testTarget(name: "CLITests", dependencies: ["canvas-gl", "GPUCanvas"], path: "Tests/CLITests"),
    ]
)
