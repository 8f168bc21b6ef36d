// swift-tools-version:6.0

import PackageDescription

// A small program using the package that
// `sdp gen --lang swift --out PluginRegistry --package PluginRegistry plugins.sdp`
// wrote next to it.
let package = Package(
    name: "Demo",
    dependencies: [
        .package(path: "../PluginRegistry"),
    ],
    targets: [
        .executableTarget(
            name: "Demo",
            dependencies: [.product(name: "PluginRegistry", package: "PluginRegistry")],
            path: "Sources/Demo"
        ),
    ],
    swiftLanguageModes: [.v6]
)
