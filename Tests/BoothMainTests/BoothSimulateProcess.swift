// BoothSimulateProcess: the real `booth simulate --script -` run as a user runs it, for the tests that need the binary.
import Foundation
import Testing

/// Runs the built `booth simulate --script - ARGUMENTS` with `script` on standard input and `environment` added to the
/// test's; its exit status and standard error.
func runBoothSimulate(
    _ arguments: [String], script: String, environment: [String: String] = [:]
) throws -> (status: Int32, errors: String) {
    let binary = try #require(BoothBinary.locate(), "no booth binary: run `swift build --build-tests` first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["simulate", "--script", "-"] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
