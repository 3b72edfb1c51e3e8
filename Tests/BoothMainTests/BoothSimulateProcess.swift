// BoothSimulateProcess: the real `booth simulate --script -` (and other commands) run as a user runs them.
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

/// Runs the built `booth ARGUMENTS` to its end; its exit status, standard output and standard error.
func runBooth(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let binary = try #require(BoothBinary.locate(), "no booth binary: run `swift build --build-tests` first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Standard error is read on its own thread: a command that fills one pipe while the other is read would wait.
    nonisolated(unsafe) var problems = Data()
    let reader = Thread { problems = errors.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    return (process.terminationStatus, text, String(decoding: problems, as: UTF8.self))
}
