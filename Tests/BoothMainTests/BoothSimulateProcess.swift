// BoothSimulateProcess: the real `booth` binary run as a user runs it (`booth simulate --script -` and the others).
import Foundation
import Testing

/// Runs the built `booth simulate --script - ARGUMENTS` with `script` on standard input and `environment` added to the
/// test's; its exit status and standard error. `stopWhen`, looked at every 0.1 s while it runs: once true, the booth is
/// stopped as systemd stops it (SIGTERM), so a script can wait long for something slow and end as soon as it happened.
func runBoothSimulate(
    _ arguments: [String], script: String, environment: [String: String] = [:],
    stopWhen: (@Sendable () -> Bool)? = nil
) throws -> (status: Int32, errors: String) {
    let run = try runBooth(
        ["simulate", "--script", "-"] + arguments, input: script, environment: environment, stopWhen: stopWhen)
    return (run.status, run.errors)
}

/// Runs the built `booth ARGUMENTS` to its end with `input` on standard input (none: /dev/null) and `environment`
/// added to the test's; its exit status, standard output and standard error. `stopWhen`: as for `runBoothSimulate`.
func runBooth(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
    stopWhen: (@Sendable () -> Bool)? = nil
) throws -> (status: Int32, output: String, errors: String) {
    let binary = try #require(BoothBinary.locate(), "no booth binary: run `swift build --build-tests` first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdin = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    // Standard output is read on its own thread: a command that fills one pipe while the other is read would wait.
    nonisolated(unsafe) var printed = Data()
    let reader = Thread { printed = output.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    if let stopWhen {
        let pid = process.processIdentifier
        let watcher = Thread {
            while process.isRunning {
                if stopWhen() {
                    kill(pid, SIGTERM)
                    return
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        watcher.start()
    }
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    return (process.terminationStatus, String(decoding: printed, as: UTF8.self), text)
}
