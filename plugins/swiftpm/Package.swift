// swift-tools-version:6.0
// The SDP build tool plugin: regenerates Swift code from a target's .sdp
// schema at build time (see README.md and docs/swift.md).

import PackageDescription

let package = Package(
    name: "SDPPlugin",
    products: [
        .plugin(name: "SDPGenerator", targets: ["SDPGenerator"]),
    ],
    targets: [
        .plugin(name: "SDPGenerator", capability: .buildTool(), path: "Plugins/SDPGenerator"),
    ]
)
