// swift-tools-version:6.0
// The Sensors library is generated from Sources/Sensors/sensors.sdp at build
// time by the SDPGenerator plugin (plugins/swiftpm of the SDP repository):
//
//     go build -o ../../bin/sdp ../../cmd/sdp      # once, from the SDP checkout
//     SDP=$PWD/../../bin/sdp swift run Greenhouse   # or put sdp on PATH

import PackageDescription

let package = Package(
    name: "Greenhouse",
    platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1)],
    dependencies: [
        .package(path: "../../plugins/swiftpm"),
    ],
    targets: [
        .target(
            name: "Sensors",
            plugins: [.plugin(name: "SDPGenerator", package: "swiftpm")]
        ),
        .executableTarget(name: "Greenhouse", dependencies: ["Sensors"]),
    ],
    swiftLanguageModes: [.v6]
)
