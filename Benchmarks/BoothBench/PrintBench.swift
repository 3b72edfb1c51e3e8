// PrintBench: `booth-bench --print N`, printing's cost to the press: the press, the countdown, the job and memory.
import BoothTestSupport
import Foundation

/// Printing through a real CUPS (`CUPSFixture`: cupsd and ippeveprinter of its own, on loopback) measured beside the
/// same booth with printing off, in one run: three configs alternate in two rounds of `sequences / 2` presses each,
/// a press every 1.5 s, so a print is rendered and sent while the next press, sound and countdown happen. The configs:
/// printing off; each photo printed as it is; each burst of two printed as a strip with a title (drawn by cairo on
/// the printer's worker). Per config, from the booth's own events: press → the sound's start and the countdown LEDs'
/// error versus their schedule (what printing must not move), press → the job accepted by CUPS (`printSent`), the
/// last photo saved → the job accepted (the print's own path: the layout drawn, the job sent), and the most resident
/// memory seen after a sequence.
enum PrintBench {
    /// One config's figures, or one run's, in microseconds on the loop's clock (memory in KiB).
    struct Figures {
        var pressToSound: [Int] = []
        var ledErrors: [Int] = []
        var pressToJob: [Int] = []
        var savedToJob: [Int] = []
        var sequences = 0
        var jobs = 0
        var maximumRSS = 0

        /// `other`'s figures added to these.
        mutating func add(_ other: Figures) {
            pressToSound += other.pressToSound
            ledErrors += other.ledErrors
            pressToJob += other.pressToJob
            savedToJob += other.savedToJob
            sequences += other.sequences
            jobs += other.jobs
            maximumRSS = max(maximumRSS, other.maximumRSS)
        }
    }

    static func rows(booth: String, sequences: Int, work: URL) throws -> [(String, String)] {
        try CUPSFixture.exclusively { cups in
            let configs: [(name: String, print: String)] = [
                ("printing off", ""),
                ("each photo as it is", "mode = \"each\""),
                ("each burst of 2 as a strip, titled", "mode = \"each\"\nlayout = \"strip\"\ntitle = \"Emma turns 5\""),
            ]
            var figures = [Figures](repeating: Figures(), count: configs.count)
            let half = max(1, sequences / 2)
            for round in 0..<2 {
                for (i, config) in configs.enumerated() {
                    let file = try writeConfig(in: work, name: "print-\(i)", print: config.print, burst: i == 2 ? 2 : 1)
                    let run = try measure(
                        booth, config: file.path, photos: work.appendingPathComponent("p\(i)-\(round)").path,
                        script: String(repeating: "press\nwait 1.5\n", count: half) + "wait 3\nquit\n",
                        environment: ["CUPS_SERVER": cups.socket])
                    figures[i].add(run)
                }
            }
            var rows: [(String, String)] = []
            let off = figures[0]
            for (i, config) in configs.enumerated() {
                let f = figures[i]
                let sound = BoothBench.median(f.pressToSound.map(Double.init))
                let led = BoothBench.median(f.ledErrors.map(Double.init))
                rows.append(("\(config.name): sequences / jobs accepted by CUPS", "\(f.sequences) / \(f.jobs)"))
                rows.append(
                    (
                        "\(config.name): press → sound (µs, median / p99)",
                        "\(BoothBench.fmt(sound)) / \(BoothBench.fmt(BoothBench.percentile(f.pressToSound.map(Double.init).sorted(), 0.99)))"
                            + (i > 0 ? " (\(ratio(sound, BoothBench.median(off.pressToSound.map(Double.init)))))" : "")
                    ))
                rows.append(
                    (
                        "\(config.name): countdown LED error (µs, median / p99)",
                        "\(BoothBench.fmt(led)) / \(BoothBench.fmt(BoothBench.percentile(f.ledErrors.map(Double.init).sorted(), 0.99)))"
                            + (i > 0 ? " (\(ratio(led, BoothBench.median(off.ledErrors.map(Double.init)))))" : "")
                    ))
                if i > 0 {
                    rows.append(
                        (
                            "\(config.name): press → job accepted (ms, median / max)",
                            "\(milliseconds(BoothBench.median(f.pressToJob.map(Double.init)))) / \(milliseconds(Double(f.pressToJob.max() ?? 0)))"
                        ))
                    rows.append(
                        (
                            "\(config.name): photo saved → job accepted (ms, median / max)",
                            "\(milliseconds(BoothBench.median(f.savedToJob.map(Double.init)))) / \(milliseconds(Double(f.savedToJob.max() ?? 0)))"
                        ))
                }
                rows.append(("\(config.name): most RSS after a sequence (KiB)", "\(f.maximumRSS)"))
            }
            return rows
        }
    }

    /// `value / base` as "1.03× off".
    static func ratio(_ value: Double, _ base: Double) -> String {
        base > 0 ? String(format: "%.2f× off", value / base) : "-"
    }

    static func milliseconds(_ microseconds: Double) -> String { BoothBench.fmt(microseconds / 1000) }

    /// The bench's config with `print` in its [print] table and bursts of `burst`.
    static func writeConfig(in work: URL, name: String, print: String, burst: Int) throws -> URL {
        let config = work.appendingPathComponent("\(name).toml")
        try """
        [booth]
        state_file = "\(work.path)/\(name)-state/state.toml"
        review_window = 0.0
        burst = \(burst)
        [sound]
        favourites = ["Pop"]
        default = "Pop"
        [countdown]
        default_delay = 0.5
        [print]
        \(print)
        """.write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("\(name)-state"), withIntermediateDirectories: true)
        return config
    }

    /// One run's figures: `booth simulate` in real time, its events read as they come.
    static func measure(
        _ booth: String, config: String, photos: String, script: String, environment: [String: String]
    ) throws -> Figures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: booth)
        process.arguments = ["simulate", "--config", config, "--photos", photos, "--script", "-", "--events-json", "-"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice  // the journal's lines; the table is the output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        var run = Figures()
        var inCountdown = false
        // The last press; the attention sound it starts begins a sequence (a press while busy starts none).
        var press: Int?
        // Presses and the last photo saved of each, oldest first, waiting for their jobs.
        var waitingForJob: [(press: Int, saved: Int?)] = []
        for object in EventLines(output.fileHandleForReading) {
            guard let type = object["type"] as? String, let t = object["t_us"] as? Int else { continue }
            switch type {
            case "input" where object["input"] as? String == "buttonPressed":
                press = t
            case "soundStarted" where object["purpose"] as? String == "attention":
                guard let started = press else { break }
                run.pressToSound.append(t - started)
                waitingForJob.append((started, nil))
                press = nil
            case "state":
                inCountdown = object["to"] as? String == "countingDown"
                if object["to"] as? String == "idle", object["from"] as? String == "processing" {
                    run.sequences += 1
                    run.maximumRSS = max(run.maximumRSS, BoothRun.rss(process.processIdentifier))
                }
            case "leds" where inCountdown:
                if let scheduled = object["scheduled_us"] as? Int { run.ledErrors.append(abs(t - scheduled)) }
            case "photoSaved":
                if let last = waitingForJob.indices.last { waitingForJob[last].saved = t }
            case "printSent":
                run.jobs += 1
                guard !waitingForJob.isEmpty else { break }
                let sequence = waitingForJob.removeFirst()
                run.pressToJob.append(t - sequence.press)
                if let saved = sequence.saved { run.savedToJob.append(t - saved) }
            default:
                break
            }
        }
        process.waitUntilExit()
        return run
    }
}
