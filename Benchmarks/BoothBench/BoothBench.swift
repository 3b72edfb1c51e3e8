// BoothBench: `booth-bench`, measurements of the real booth binary printed as a table.
import Foundation

/// `booth-bench`: measures the real `booth` binary (release build) and prints a table.
///
///     swift build -c release && .build/release/booth-bench [--sequences N] [--starts N] [--fifo PRIORITY]
///     .build/release/booth-bench --soak N
///     .build/release/booth-bench --export N [--runs 3] [--export-to DIR]
///     .build/release/booth-bench --save N [--held M]
///     .build/release/booth-bench --layout N
///     .build/release/booth-bench --print N
///     eval "$(Tests/VirtualCamera/prepare)" && .build/release/booth-bench --camera N
///
/// Rows: start → ready (process spawn to the "ready" event), countdown LED edge error versus
/// schedule over N sequences (max, p99, median), and resident memory before and after them. With `--fifo PRIORITY`
/// each booth starts under `chrt -f PRIORITY`, as `booth run` puts its loop (`booth.realtime_priority`, 10 as
/// shipped; its workers go back to the normal scheduler themselves): the booth as installed, beside other load.
@main
struct BoothBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        func option(_ name: String, _ fallback: Int) -> Int {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let n = Int(arguments[i + 1]) else {
                return fallback
            }
            return n
        }
        let fifo = option("--fifo", 0)
        let sequences = option("--sequences", 100)
        let starts = option("--starts", 20)
        let soak = option("--soak", 0)
        let export = option("--export", 0)
        let save = option("--save", 0)
        let camera = option("--camera", 0)
        let layout = option("--layout", 0)
        let printing = option("--print", 0)
        if layout > 0 {
            printTable(try LayoutBench.rows(renders: layout))
            return
        }
        if save > 0 {
            printTable(try withWork { try SaveBench.rows(photos: save, held: option("--held", 1000), work: $0) })
            return
        }
        if export > 0 {
            let target = arguments.firstIndex(of: "--export-to").flatMap {
                $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
            }
            printTable(
                try withWork {
                    try ExportBench.rows(photos: export, runs: option("--runs", 3), target: target, work: $0)
                })
            return
        }
        let booth = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("booth").path
        guard FileManager.default.isExecutableFile(atPath: booth) else {
            fatalError("booth-bench: no booth binary beside me at \(booth); run `swift build -c release` first")
        }
        if printing > 0 {
            printTable(try withWork { try PrintBench.rows(booth: booth, sequences: printing, work: $0) })
            return
        }
        if camera > 0 {
            printTable(try withWork { try CameraBench.rows(booth: booth, shots: camera, work: $0) })
            return
        }
        // The command that starts a booth: under `chrt -f N` with `--fifo N`, as `booth run` puts its loop.
        let command = (fifo > 0 ? ["/usr/bin/chrt", "-f", "\(fifo)"] : []) + [booth]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("booth-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = try writeConfig(in: work, name: "bench")

        var rows: [(String, String)] = []
        if soak > 0 {
            rows += try soakRows(booth: command, config: config.path, work: work, sequences: soak)
            printTable(rows)
            return
        }

        // Start → ready.
        var startTimes: [Double] = []
        for _ in 0..<starts {
            let run = try BoothRun(
                booth: command, config: config.path, photos: work.appendingPathComponent("p0").path, script: "quit\n")
            startTimes.append(run.readyMilliseconds)
        }
        rows.append(
            ("start → ready (ms, median / max of \(starts))", "\(fmt(median(startTimes))) / \(fmt(startTimes.max()!))"))

        // Countdown LED timing over many sequences, and memory.
        let script = (0..<sequences).map { _ in "press\nwait 1.2\n" }.joined() + "quit\n"
        let run = try BoothRun(
            booth: command, config: config.path, photos: work.appendingPathComponent("p1").path, script: script,
            sampleMemoryAfter: 3.0)
        let errors = run.countdownLEDErrorsMicroseconds.map(Double.init).sorted()
        rows.append(("sequences completed / photos saved", "\(run.sequences) / \(run.photos)"))
        rows.append(("countdown LED edges measured", "\(errors.count)"))
        rows.append(("countdown LED error vs schedule (µs): median", fmt(median(errors))))
        rows.append(("countdown LED error vs schedule (µs): p99", fmt(percentile(errors, 0.99))))
        rows.append(("countdown LED error vs schedule (µs): max", fmt(errors.last ?? 0)))
        rows.append(("RSS after 3 s (KiB)", "\(run.earlyRSS)"))
        rows.append(("RSS after \(sequences) sequences (KiB)", "\(run.finalRSS)"))

        printTable(rows)
    }

    /// A soak in the simulator with virtual time: `sequences` presses with random extra presses during
    /// each sequence and random knob turns and presses in between; checks one photo per completed
    /// sequence, no stuck state, and reports resident memory along the way.
    static func soakRows(booth: [String], config: String, work: URL, sequences: Int) throws -> [(String, String)] {
        var rng = SystemRandomNumberGenerator()
        var script = ""
        for _ in 0..<sequences {
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                script += ["knob +1\n", "knob -2\n", "knob-press\nknob +1\nknob-press\n"].randomElement(using: &rng)!
                script += "wait 0.\(Int.random(in: 1...9, using: &rng))\n"
            }
            script += "press\n"
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                script += "wait 0.\(Int.random(in: 1...6, using: &rng))\npress\nknob +1\n"
            }
            script += "wait 4\n"
        }
        script += "quit\n"
        let started = Date()
        let run = try BoothRun(
            booth: booth, config: config, photos: work.appendingPathComponent("soak").path, script: script,
            extraArguments: ["--fast"], sampleMemoryEvery: max(1, sequences / 10))
        let seconds = Date().timeIntervalSince(started)
        return [
            ("soak sequences scripted", "\(sequences)"),
            ("sequences completed / photos saved", "\(run.sequences) / \(run.photos)"),
            ("ended idle and exited 0", "\(run.endedIdle && run.exitCode == 0)"),
            (
                "RSS samples every \(max(1, sequences / 10)) sequences (KiB)",
                run.rssSamples.map(String.init).joined(separator: " ")
            ),
            ("wall time (s, virtual time)", fmt(seconds)),
        ]
    }

    /// Writes the benchmarks' config as NAME.toml in `work` (its state file beside it): a short sound and countdown,
    /// no review window, so sequences follow each other quickly.
    static func writeConfig(in work: URL, name: String) throws -> URL {
        let config = work.appendingPathComponent("\(name).toml")
        try """
        [booth]
        state_file = "\(work.path)/\(name)-state.toml"
        review_window = 0.0
        [sound]
        favourites = ["Pop"]
        default = "Pop"
        [countdown]
        default_delay = 0.5
        """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// Runs `body` with a folder of its own in the temporary folder, removed after.
    static func withWork<T>(_ body: (URL) throws -> T) throws -> T {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("booth-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        return try body(work)
    }

    static func printTable(_ rows: [(String, String)]) {
        let width = rows.map(\.0.count).max()!
        print("| " + "measure".padding(toLength: width, withPad: " ", startingAt: 0) + " | value |")
        print("|" + String(repeating: "-", count: width + 2) + "|-------|")
        for (name, value) in rows {
            print("| " + name.padding(toLength: width, withPad: " ", startingAt: 0) + " | \(value) |")
        }
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// One `booth simulate` run with its events parsed.
struct BoothRun {
    var readyMilliseconds = 0.0
    var countdownLEDErrorsMicroseconds: [Int] = []
    var sequences = 0
    var photos = 0
    var earlyRSS = 0
    var finalRSS = 0

    var endedIdle = false
    var exitCode: Int32 = -1
    var rssSamples: [Int] = []

    /// A run of `booth` (the booth's command: its path, after `chrt -f N` with `--fifo N`).
    init(
        booth: [String], config: String, photos directory: String, script: String, sampleMemoryAfter: Double? = nil,
        extraArguments: [String] = [], sampleMemoryEvery: Int? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: booth[0])
        process.arguments =
            booth.dropFirst()
            + [
                "simulate", "--config", config, "--photos", directory, "--script", "-", "--events-json", "-",
            ] + extraArguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let started = DispatchTime.now()
        try process.run()
        input.fileHandleForWriting.write(script.data(using: .utf8)!)
        try input.fileHandleForWriting.close()

        var inCountdown = false
        var sampledEarly = sampleMemoryAfter == nil
        var lastRSS = 0
        for object in EventLines(output.fileHandleForReading) {
            guard let type = object["type"] as? String else { continue }
            switch type {
            case "ready":
                readyMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            case "state":
                inCountdown = object["to"] as? String == "countingDown"
                endedIdle = object["to"] as? String == "idle"
                if object["to"] as? String == "idle" && object["from"] as? String == "processing" {
                    sequences += 1
                    if let every = sampleMemoryEvery, sequences % every == 0 {
                        rssSamples.append(Self.rss(process.processIdentifier))
                    }
                }
            case "leds" where inCountdown:
                if let t = object["t_us"] as? Int, let scheduled = object["scheduled_us"] as? Int, t != scheduled {
                    countdownLEDErrorsMicroseconds.append(t - scheduled)
                }
            case "photoSaved":
                photos += 1
            default:
                break
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            if !sampledEarly, let after = sampleMemoryAfter, elapsed >= after {
                earlyRSS = Self.rss(process.processIdentifier)
                sampledEarly = true
            }
            if type == "state" { lastRSS = max(0, Self.rss(process.processIdentifier)) }
        }
        process.waitUntilExit()
        exitCode = process.terminationStatus
        finalRSS = lastRSS
    }

    /// VmRSS of `pid` in KiB.
    static func rss(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }
        return 0
    }
}

/// The booth's events as `--events-json -` writes them: one JSON object a line, read as they come, to the end.
struct EventLines: Sequence, IteratorProtocol {
    let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func next() -> [String: Any]? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { return object }
                continue
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
