// swift-tools-version:6.0
// The byte-identity recorder: renders every conformance catalogue scene with the reference and with every GLES
// form and prints one SHA-256 per (scene, backend). It builds against the checkout named by
// GPUCANVAS_CHECKOUT (default: the repository this folder sits in), so the same tool records an old commit
// and the head. Run it through scripts/byte-identity.sh.
import Foundation
import PackageDescription

let checkout = Context.environment["GPUCANVAS_CHECKOUT"] ?? "../.."

let package = Package(
    name: "byte-identity",
    dependencies: [.package(name: "GPUCanvas", path: checkout)],
    targets: [
        .executableTarget(
            name: "byte-identity",
            dependencies: [.product(name: "GPUCanvas", package: "GPUCanvas")],
            path: "Sources/byte-identity"
        ),
    ]
)
