// A SwiftPM build tool plugin: for the .sdp schema in a target's sources it
// adds a build command that runs `sdp gen --lang swift` into the plugin's
// work directory whenever the schema (or the sdp executable) changes, and
// the generated Swift files are compiled into the target.
//
// SwiftPM cannot build the sdp command (it is a Go program), so the plugin
// finds an installed one, in this order:
//   1. the SDP environment variable (the path of the executable);
//   2. a file .sdp-path next to the schema holding that path
//      (absolute, or relative to the package's directory): for Xcode and
//      other builds that do not pass your shell's environment;
//   3. `sdp` in a directory of PATH, then in $GOBIN, $GOPATH/bin and
//      ~/go/bin (where `go install ./cmd/sdp` puts it).

import Foundation
import PackagePlugin

@main
struct SDPGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else {
            return []
        }
        let schemas = module.sourceFiles(withSuffix: "sdp").map(\.url)
        guard let schema = schemas.first else {
            return []
        }
        guard schemas.count == 1 else {
            // Every schema's generated files have the same names and would
            // declare the same support types in one module.
            throw PluginError("target \(target.name) has \(schemas.count) .sdp files; "
                + "SDPGenerator takes one schema per target: put each in a target of its own")
        }
        let sdp = try findSDP(schemaDirectory: schema.deletingLastPathComponent(), package: context.package)
        let moduleName = module.moduleName
        let out = context.pluginWorkDirectoryURL.appendingPathComponent(schema.deletingPathExtension().lastPathComponent)
        let sources = out.appendingPathComponent("Sources").appendingPathComponent(moduleName)
        var names = ["SDPSupport.swift", "Types.swift", "Codec.swift", "Foundation.swift"]
        if try declaresStruct(schema) {
            names.append("Messages.swift")
        }
        return [
            .buildCommand(
                displayName: "sdp gen --lang swift \(schema.lastPathComponent)",
                executable: sdp,
                arguments: ["gen", "--lang", "swift", "--out", out.path, "--package", moduleName, schema.path],
                inputFiles: [schema, sdp],
                outputFiles: names.map { sources.appendingPathComponent($0) }
            )
        ]
    }

    /// The sdp executable, as the comment at the top of this file says.
    func findSDP(schemaDirectory: URL, package: Package) throws -> URL {
        let env = ProcessInfo.processInfo.environment
        let fm = FileManager.default
        if let path = env["SDP"], !path.isEmpty {
            guard fm.isExecutableFile(atPath: path) else {
                throw PluginError("SDP is set to \(path), which is not an executable file")
            }
            return URL(fileURLWithPath: path)
        }
        let config = schemaDirectory.appendingPathComponent(".sdp-path")
        if let text = try? String(contentsOf: config, encoding: .utf8) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let url = path.hasPrefix("/")
                ? URL(fileURLWithPath: path)
                : package.directoryURL.appendingPathComponent(path)
            guard fm.isExecutableFile(atPath: url.path) else {
                throw PluginError("\(config.path) names \(url.path), which is not an executable file")
            }
            return url
        }
        var dirs = (env["PATH"] ?? "").split(separator: ":").map(String.init)
        if let gobin = env["GOBIN"] {
            dirs.append(gobin)
        }
        if let gopath = env["GOPATH"] {
            dirs.append(contentsOf: gopath.split(separator: ":").map { "\($0)/bin" })
        }
        if let home = env["HOME"] {
            dirs.append("\(home)/go/bin")
        }
        for dir in dirs where !dir.isEmpty {
            let candidate = URL(fileURLWithPath: dir).appendingPathComponent("sdp")
            if fm.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw PluginError("the sdp executable was not found: build it from an SDP checkout "
            + "(go install ./cmd/sdp, or go build -o bin/sdp ./cmd/sdp) and set SDP to its path, "
            + "write its path into \(config.path), or put it on PATH")
    }

    /// Whether the schema declares a struct: only then does sdp write
    /// Messages.swift. Comments are skipped; a field named `struct` is
    /// followed by a colon, not by a name.
    func declaresStruct(_ schema: URL) throws -> Bool {
        let text = try String(contentsOf: schema, encoding: .utf8)
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") {
                line = line[..<comment.lowerBound]
            }
            var rest = line[...]
            while let r = rest.range(of: "struct") {
                let before = rest[..<r.lowerBound].last
                let after = rest[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
                let separated = rest[r.upperBound...].first.map { $0 == " " || $0 == "\t" } ?? false
                if !(before.map(isIdentifier) ?? false), separated, let next = after.first, isIdentifier(next) {
                    return true
                }
                rest = rest[r.upperBound...]
            }
        }
        return false
    }

    func isIdentifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "SDPGenerator: " + description }
}
