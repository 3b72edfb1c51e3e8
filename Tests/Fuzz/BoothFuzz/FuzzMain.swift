// FuzzMain: libFuzzer's driver over the harness BOOTH_FUZZ names (built with -sanitize=fuzzer -DFUZZING by
// scripts/fuzz), or, built plainly, a replay of corpus files.
#if canImport(Glibc)
    import Glibc
#endif

/// The harness libFuzzer drives, named by BOOTH_FUZZ (scripts/fuzz sets it), read once.
private let harness: FuzzHarness = {
    guard let name = getenv("BOOTH_FUZZ").map({ String(cString: $0) }), let harness = FuzzHarness(rawValue: name) else {
        let names = FuzzHarness.allCases.map(\.rawValue).joined(separator: ", ")
        failAndExit("booth-fuzz: set BOOTH_FUZZ to one of \(names)", code: 2)
    }
    return harness
}()

/// Writes `message` on standard error and exits with `code`.
private func failAndExit(_ message: String, code: Int32) -> Never {
    let line = message + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(code)
}

/// libFuzzer calls this with each input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    harness.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

#if FUZZING
    /// libFuzzer's own driver (SwiftPM links an executable's entry point in place of libFuzzer's `main`).
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32
#endif

/// `booth-fuzz [libFuzzer options] [CORPUS...]` with BOOTH_FUZZ set, built by scripts/fuzz; built plainly (the unit
/// test run), `booth-fuzz HARNESS FILE...` runs the harness on each file once, so the corpora and every crash kept
/// in them are replayed by `scripts/test`.
@main
enum FuzzMain {
    static func main() {
        #if FUZZING
            _ = harness
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
            replay()
        #endif
    }

    private static func replay() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let harness = FuzzHarness(rawValue: name) else {
            let names = FuzzHarness.allCases.map(\.rawValue).joined(separator: "|")
            failAndExit("usage: booth-fuzz \(names) FILE...", code: 2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            guard let file = fopen(path, "rb") else { failAndExit("booth-fuzz: cannot open \(path)", code: 1) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[..<n] }
            fclose(file)
            bytes.withUnsafeBufferPointer { harness.run($0) }
            count += 1
        }
        print("booth-fuzz: \(name): \(count) input(s) replayed")
    }
}
