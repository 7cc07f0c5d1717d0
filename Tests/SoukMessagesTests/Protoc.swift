import Foundation

/// Runs protoc on the repository's Proto/ directory, to make golden bytes and descriptor sets.
enum Protoc {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let protoDirectory = repository.appendingPathComponent("Proto").path
    static let includeDirectory = ProcessInfo.processInfo.environment["PROTOC_INCLUDE"] ?? "/usr/include"

    /// `protoc --encode=<type>` of a text-format message.
    static func encode(_ type: String, _ text: String, files: [String]) throws -> [UInt8] {
        try run(["-I", protoDirectory, "-I", includeDirectory, "--encode=\(type)"] + files, input: Array(text.utf8))
    }

    /// A descriptor set (with imports) built from proto files in `directory`.
    static func descriptorSet(directory: String, files: [String]) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("souk-\(UUID().uuidString).desc")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try run(["-I", directory, "-I", includeDirectory, "--include_imports", "--descriptor_set_out=\(output.path)"] + files, input: [])
        return Array(try Data(contentsOf: output))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["protoc"] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "protoc \(arguments.joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return Array(output)
    }
}
