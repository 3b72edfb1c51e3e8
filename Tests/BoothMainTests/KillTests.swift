// KillTests: SIGKILLs the real `booth` binary during capture, save and export and restarts it each time.
import BoothCore
import BoothSystem
import BoothTestSupport
import Checksum
import Glibc
import PhotoEncoding
import PhotoModel
import PhotoStore
import Testing
import USBSticks

/// The crash promise, tested on the real binary: the booth is killed with SIGKILL at random moments
/// (while starting, idle, playing the sound, counting down, capturing, encoding and saving, and while
/// `booth export` copies to a folder) and restarted on the same photos folder each time. After every
/// kill, every photo acknowledged in the events output (`photoSaved`) is there, complete and decodes,
/// no final name holds a partial file (photos folder, discarded folder, export folder), the index and
/// the manifest are whole; at the end one clean start removes every leftover temp file and one clean
/// export copies every kept photo.
///
/// The kills are shared by two rigs side by side (the test's two cases), each with its own folders and its own seed:
/// each run mostly waits for the binary, so two end in about half the time one took.
///
/// `HEYLOOK_KILL_SEED` replays a rig's run (each prints its seed; the first rig takes the seed given, the second that
/// seed + 1); `HEYLOOK_KILLS` sets the number of kills of both together (default 200); `HEYLOOK_BOOTH_BINARY` names the
/// binary when it is not next to the test bundle; `HEYLOOK_KEEP_KILL_DIR` keeps the photos and export folders (their
/// path is printed).
@Suite(.offCooperativePool) struct KillTests {
    @Test(.timeLimit(.minutes(10)), arguments: [0, 1])
    func everyAcknowledgedPhotoSurvivesKillsDuringCaptureSaveAndExport(rig number: Int) throws {
        let binary = try #require(
            BoothBinary.locate(),
            "the booth binary is not next to the test bundle nor in .build/debug: run `swift build --build-tests` first, or set HEYLOOK_BOOTH_BINARY"
        )
        let seed =
            environmentNumber("HEYLOOK_KILL_SEED").map { $0 + UInt64(number) }
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let all = Int(environmentNumber("HEYLOOK_KILLS") ?? 200)
        let wanted = number == 0 ? all - all / 2 : all / 2
        print(
            "kill test, rig \(number + 1) of 2: seed \(seed) (HEYLOOK_KILL_SEED=\(seed) replays it as rig 1), \(wanted) kills, binary \(binary)"
        )
        var random = SplitMix64(seed: seed)
        let rig = try KillRig(binary: binary)
        let started = MonotonicNow.seconds()
        var tally = KillTally()
        var exportEstimate = 0.4
        var iteration = 0

        while tally.landed < wanted {
            iteration += 1
            try #require(
                iteration <= wanted * 4, "only \(tally.landed) of \(iteration - 1) runs were killed while running")
            let roll = random.unit()
            let run: KillRig.Run
            let delay: Double
            if roll < 0.25 {
                // Export to a folder, killed anywhere from its start to a bit after its usual end, or
                // (some of the time) just after a copy's temp file appears.
                let inCopy = random.unit() < 0.4
                delay = random.unit() * (inCopy ? 0.02 : exportEstimate * 1.3)
                run = try rig.export(killAfter: delay, once: inCopy ? rig.newTemp(rig.exportTemps) : nil)
                if !run.killed, run.status == 0, !inCopy { exportEstimate = max(0.05, run.seconds) }
            } else if roll < 0.28 {
                // `booth export` by hand while the booth runs, each export killed at random: the booth
                // saves every photo it takes (the exports never touch its temp files).
                var exports: [KillRig.Run] = []
                delay = 0
                run = try rig.simulate(
                    script: String(repeating: "press\nwait 1.5\n", count: 6) + "quit\n", fast: true, killAfter: nil,
                    beside: { exports.append(try rig.export(killAfter: random.unit() * exportEstimate * 1.3)) })
                for export in exports where export.killed {
                    var beside = export
                    beside.phase = "export beside the booth"
                    tally.count(beside)
                }
                #expect(run.errors.isEmpty, "the booth failed while exports ran beside it: \(run.errors)")
                #expect(run.saved == run.saving, "\(run.saving) sequences reached saving, \(run.saved) photos saved")
            } else if roll < 0.38 {
                // Virtual time, killed just after a photo's temp file appears: inside the durable write.
                delay = random.unit() < 0.7 ? 0 : random.unit() * 0.002
                let script = String(repeating: "press\nwait 1.5\n", count: 4) + "quit\n"
                run = try rig.simulate(script: script, fast: true, killAfter: delay, once: rig.newTemp(rig.photoTemps))
            } else if roll < 0.7 {
                // Real time: start, then one sequence (Pop 0.3 s, countdown 0.5 s, capture, save); a
                // third of the time killed within 80 ms of the capture request (capturing is short).
                let nearCapture = random.unit() < 0.33
                delay = random.unit() * (nearCapture ? 0.08 : 1.7)
                run = try rig.simulate(
                    script: "press\nwait 1.2\nquit\n", fast: false, killAfter: delay,
                    once: nearCapture ? rig.capturing : nil)
            } else {
                // Virtual time: idle, sound and countdown take no time, so the kill lands mostly in saves.
                delay = random.unit() * 1.0
                let script = String(repeating: "press\nwait 1.5\n", count: 12) + "quit\n"
                run = try rig.simulate(script: script, fast: true, killAfter: delay)
            }
            tally.running += run.seconds
            if run.killed {
                tally.count(run)
            } else {
                #expect(
                    run.status == 0, "run \(iteration) (\(run.command)) ended with \(run.status): \(rig.lastErrors())")
            }
            try rig.checkAfterRun(run, iteration: iteration)
        }

        // One clean start removes what the kills left; one clean export copies every kept photo.
        let last = try rig.simulate(script: "quit\n", fast: true, killAfter: nil)
        #expect(last.status == 0, "the final start failed: \(rig.lastErrors())")
        try rig.checkAfterRun(last, iteration: iteration + 1)
        try rig.checkNoLeftovers(in: rig.photos)
        try rig.checkIndexMatchesFiles()
        // A temp file as a running booth has while it saves: `booth export` by hand leaves it alone
        // (deleting it would lose the photo being saved); only the booth's own start removes it.
        let inFlight = "\(rig.photos)/.HeyLook_2026-01-01_00-00-00_999999.jpg.partial"
        try writeText("half a photo", to: inFlight)
        let export = try rig.export(killAfter: nil)
        #expect(export.status == 0, "the final export failed: \(rig.lastErrors())")
        #expect(access(inFlight, F_OK) == 0, "booth export removed a temp file a running booth could be writing")
        unlink(inFlight)
        try rig.checkAfterRun(export, iteration: iteration + 2)
        try rig.checkEveryKeptPhotoExported()
        try rig.checkNoLeftovers(in: rig.exportRoot)

        let seconds = MonotonicNow.seconds() - started
        print(
            "kill test, rig \(number + 1) of 2: seed \(seed): \(tally.summary); \(rig.acknowledged.count) photos acknowledged, \(iteration) runs in \(Int(seconds)) s (\(Int(tally.running)) s running the binary)"
        )
        #expect(tally.landed >= wanted)
        #expect(rig.acknowledged.count > 0)
        if getenv("HEYLOOK_KEEP_KILL_DIR") == nil { rig.removeAll() } else { print("kill test: kept \(rig.root)") }
    }
}

/// Counts where the kills landed.
struct KillTally {
    var landed = 0
    var byPhase: [String: Int] = [:]
    /// Kills that left a photo's temp file behind (the kill landed inside the durable write).
    var midWrite = 0
    /// Kills that left an export temp file behind (inside a copy or manifest write).
    var midCopy = 0

    /// Seconds the binary ran, summed over every run.
    var running = 0.0

    mutating func count(_ run: KillRig.Run) {
        landed += 1
        byPhase[run.phase, default: 0] += 1
        if run.leftPhotoTemp && run.phase == "processing" { midWrite += 1 }
        if run.leftExportTemp && run.phase == "export" { midCopy += 1 }
    }

    var summary: String {
        let order = [
            "starting", "idle", "playingSound", "countingDown", "capturing", "processing", "aborted", "export",
            "export beside the booth",
        ]
        let phases = order.compactMap { phase in byPhase[phase].map { "\(phase) \($0)" } }
        let others = byPhase.keys.filter { !order.contains($0) }.sorted().map { "\($0) \(byPhase[$0]!)" }
        return "\(landed) kills: " + (phases + others).joined(separator: ", ")
            + "; \(midWrite) inside a photo's write (temp file left), \(midCopy) inside an export copy"
    }
}

/// A photos folder, an export folder and the booth binary run on them, killed and checked.
final class KillRig {
    /// One run of the binary.
    struct Run {
        var command: String
        var killed: Bool
        var status: Int32
        var seconds: Double
        /// The last phase in the events output ("starting" before `ready`, "export" for `booth export`).
        var phase: String
        var leftPhotoTemp: Bool
        var leftExportTemp: Bool
        /// For `simulate`: sequences that reached saving, photos saved, `error` events.
        var saving = 0
        var saved = 0
        var errors: [String] = []
    }

    let binary: String
    let root: String
    let photos: String
    let exportRoot: String
    let config: String
    /// Every photo `photoSaved` acknowledged, with the size it reported.
    private(set) var acknowledged: [String: Int] = [:]
    /// Files under final names already decoded, with their size and CRC-32, so each is read once.
    private var verified: [String: (size: Int, checksum: UInt32)] = [:]

    init(binary: String) throws {
        self.binary = binary
        root = temporaryDirectory()
        photos = "\(root)/photos"
        exportRoot = "\(root)/export"
        config = "\(root)/booth.toml"
        #expect(mkdir(exportRoot, 0o755) == 0)
        let text = """
            [booth]
            state_file = "\(root)/state.toml"
            review_window = 0.0
            free_space_reserve_mb = 0

            [sound]
            favourites = ["Pop"]
            default = "Pop"
            sounds_dir = "\(root)/sounds"

            [countdown]
            default_delay = 0.5

            [export]
            media_root = "\(root)/media"

            """
        try writeText(text, to: config)
    }

    /// Runs `booth simulate` with `script`; with `delay`, kills it `delay` seconds after it starts, or
    /// after `trigger` first holds (polled every millisecond; the kill comes after 3 s if it never does).
    /// `beside` runs again and again while the booth runs (other commands on the same photos folder).
    func simulate(
        script: String, fast: Bool, killAfter delay: Double?, once trigger: (() -> Bool)? = nil,
        beside: (() throws -> Void)? = nil
    ) throws -> Run {
        let scriptPath = "\(root)/script.txt"
        try writeText(script, to: scriptPath)
        let events = "\(root)/events.json"
        // A run killed before it opens the events file must not be credited with the last run's events.
        unlink(events)
        var arguments = [
            "simulate", "--script", scriptPath, "--events-json", events, "--photos", photos, "--config", config,
        ]
        if fast { arguments.append("--fast") }
        var run = try spawnAndKill(arguments, after: delay, once: trigger, beside: beside)
        let text = readFile(events).map { String(decoding: $0, as: UTF8.self) } ?? ""
        run.phase = "starting"
        for line in text.split(separator: "\n") {
            guard let type = Self.field("type", in: line) else { continue }  // a torn last line
            if type == "ready" { run.phase = "idle" }
            if type == "state", let to = Self.field("to", in: line) {
                run.phase = to
                if to == "processing" { run.saving += 1 }
            }
            if type == "error" { run.errors.append(Self.field("message", in: line) ?? String(line)) }
            if type == "photoSaved", let path = Self.field("path", in: line), let bytes = Self.field("bytes", in: line)
            {
                #expect(acknowledged[path] == nil, "\(path) was acknowledged twice")
                acknowledged[path] = Int(bytes) ?? -1
                run.saved += 1
            }
        }
        return run
    }

    /// Runs `booth export --to` the export folder; `delay` and `trigger` as for `simulate`.
    func export(killAfter delay: Double?, once trigger: (() -> Bool)? = nil) throws -> Run {
        var run = try spawnAndKill(
            ["export", "--to", exportRoot, "--photos", photos, "--config", config], after: delay, once: trigger,
            beside: nil)
        run.phase = "export"
        return run
    }

    /// After a run (killed or not): the acknowledged photos are whole, no final name is partial, the
    /// index and the manifest decode.
    func checkAfterRun(_ run: Run, iteration: Int) throws {
        let context =
            "after run \(iteration) (\(run.command), \(run.killed ? "killed in \(run.phase)" : "exit \(run.status)"))"
        for (path, bytes) in acknowledged {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                Issue.record("\(context): acknowledged photo \(path) is gone")
                continue
            }
            #expect(Int(info.st_size) == bytes, "\(context): \(path) has \(info.st_size) bytes, acknowledged \(bytes)")
        }
        try checkFinalNames(in: photos, context: context)
        try checkFinalNames(in: "\(photos)/discarded", context: context)
        for path in acknowledged.keys { #expect(verified[path] != nil, "\(context): \(path) was never listed") }
        if let text = readFile("\(photos)/\(PhotoStore.indexName)").map({ String(decoding: $0, as: UTF8.self) }) {
            #expect(PhotoIndex.decode(text) != nil, "\(context): index.txt is damaged:\n\(text)")
        }
        try checkExport(context: context)
    }

    /// Every photo-named file in `folder` decodes (each is read once: a final name never changes).
    private func checkFinalNames(in folder: String, context: String) throws {
        // Missing only before a first start got far enough to make it (the acknowledged photos are
        // checked on their own).
        guard let names = try namesUnlessMissing(in: folder) else { return }
        for name in names where PhotoName(fileName: name) != nil {
            try checkPhoto("\(folder)/\(name)", context: context)
        }
    }

    private func checkPhoto(_ path: String, context: String) throws {
        var info = stat()
        // Listed a moment ago and nothing runs now: a name that cannot be read is a failure.
        try #require(
            lstat(path, &info) == 0,
            "\(context): \(path) was listed, then lstat failed: \(ErrnoText.describe(errno))")
        if let known = verified[path] {
            #expect(known.size == Int(info.st_size), "\(context): \(path) changed size")
            return
        }
        let bytes = try #require(readFile(path), "\(context): cannot read \(path)")
        verified[path] = (bytes.count, CRC32.checksum(bytes))
        #expect(Self.isWholeJPEG(bytes), "\(context): \(path) (\(bytes.count) bytes) is not a whole JPEG")
    }

    /// The export folder: every photo decodes and every manifest entry names a file of its size and CRC.
    private func checkExport(context: String) throws {
        let folder = "\(exportRoot)/HeyLook"
        // Missing until an export got far enough to make it.
        guard let names = try namesUnlessMissing(in: folder) else { return }
        for day in names where !day.hasPrefix(".") && day != StickExporter.manifestName {
            for name in try PhotoStore.fileNames(in: "\(folder)/\(day)") where !name.hasPrefix(".") {
                try checkPhoto("\(folder)/\(day)/\(name)", context: context)
            }
        }
        let manifestPath = "\(folder)/\(StickExporter.manifestName)"
        guard access(manifestPath, F_OK) == 0 else {
            // No manifest until the first export finished its first photo.
            try #require(errno == ENOENT, "\(context): \(manifestPath): \(ErrnoText.describe(errno))")
            return
        }
        let bytes = try #require(readFile(manifestPath), "\(context): cannot read \(manifestPath)")
        let text = String(decoding: bytes, as: UTF8.self)
        let manifest = try #require(ExportManifest.decode(text), "\(context): the manifest is damaged:\n\(text)")
        for entry in manifest.entries {
            // Every file there was read above (once: a final name's content never changes).
            let copy = try #require(
                verified["\(folder)/\(entry.path)"], "\(context): the manifest lists \(entry.path), which is missing")
            #expect(copy.size == entry.size, "\(context): \(entry.path) has another size than its manifest entry")
            #expect(copy.checksum == entry.checksum, "\(context): \(entry.path) has another CRC-32")
        }
    }

    /// The names in `folder`, or nil when it does not exist; any other failure to list it fails the test.
    private func namesUnlessMissing(in folder: String) throws -> [String]? {
        do {
            return try PhotoStore.fileNames(in: folder)
        } catch let error where error.errno == ENOENT {
            return nil
        }
    }

    /// No temp file (`.*.partial`) anywhere below `folder`.
    func checkNoLeftovers(in folder: String) throws {
        for name in try PhotoStore.fileNames(in: folder) {
            let path = "\(folder)/\(name)"
            #expect(!name.hasSuffix(".partial"), "leftover temp file \(path) after a clean run")
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { try checkNoLeftovers(in: path) }
        }
    }

    /// The index lists exactly the kept and discarded photos, with their sizes.
    func checkIndexMatchesFiles() throws {
        let bytes = try #require(readFile("\(photos)/\(PhotoStore.indexName)"), "no index.txt after a clean start")
        let index = try #require(PhotoIndex.decode(String(decoding: bytes, as: UTF8.self)))
        let kept = try PhotoStore.fileNames(in: photos).filter { PhotoName(fileName: $0) != nil }
        let discarded = try PhotoStore.fileNames(in: "\(photos)/discarded").filter { PhotoName(fileName: $0) != nil }
        #expect(Set(index.entries.keys) == Set(kept + discarded))
        for name in kept {
            var info = stat()
            try #require(lstat("\(photos)/\(name)", &info) == 0, "\(name): \(ErrnoText.describe(errno))")
            #expect(index.entries[name]?.state == .kept)
            #expect(index.entries[name]?.size == Int64(info.st_size), "\(name): the index has another size")
        }
        for path in acknowledged.keys { #expect(kept.contains(String(path.split(separator: "/").last!))) }
    }

    /// After a clean export, every kept photo has a byte-identical copy in the export folder.
    func checkEveryKeptPhotoExported() throws {
        let folder = "\(exportRoot)/HeyLook"
        let manifestBytes = try #require(readFile("\(folder)/\(StickExporter.manifestName)"), "no manifest")
        let manifest = try #require(ExportManifest.decode(String(decoding: manifestBytes, as: UTF8.self)))
        var copies: [String: UInt32] = [:]
        for entry in manifest.entries { copies[entry.source] = entry.checksum }
        for name in try PhotoStore.fileNames(in: photos) where PhotoName(fileName: name) != nil {
            let bytes = try #require(readFile("\(photos)/\(name)"))
            #expect(copies[name] == CRC32.checksum(bytes), "\(name) has no verified copy in the export folder")
        }
    }

    /// What the last run wrote to standard error (for failure messages).
    func lastErrors() -> String {
        readFile("\(root)/stderr.txt").map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    func removeAll() {
        _ = "rm -rf \(root)".withCString { system($0) }
    }

    /// Starts the binary and, when `delay` is given, SIGKILLs it that many seconds later if it still runs.
    private func spawnAndKill(
        _ arguments: [String], after delay: Double?, once trigger: (() -> Bool)?, beside: (() throws -> Void)?
    ) throws -> Run {
        let started = MonotonicNow.seconds()
        let pid = try spawn(binary, arguments, stdout: "\(root)/stdout.txt", stderr: "\(root)/stderr.txt")
        var deadline = started + (delay.map { trigger == nil ? $0 : 3 } ?? 120)
        var waiting = trigger
        var raw: Int32 = 0
        while true {
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid { break }
            try #require(reaped == 0 || errno == EINTR, "waitpid: \(ErrnoText.describe(errno))")
            try beside?()
            if let condition = waiting, let delay, condition() {
                deadline = MonotonicNow.seconds() + delay
                waiting = nil
            }
            if MonotonicNow.seconds() >= deadline {
                if delay == nil { Issue.record("booth \(arguments.first ?? "") did not end within 120 s") }
                kill(pid, SIGKILL)
                _ = waitpid(pid, &raw, 0)
                break
            }
            usleep(1000)
        }
        // Killed only if SIGKILL ended it (it may have exited on its own just before).
        let signal = raw & 0x7f
        let killed = delay != nil && signal == SIGKILL
        let status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        let seconds = MonotonicNow.seconds() - started
        return Run(
            command: arguments.first ?? "", killed: killed, status: status, seconds: seconds, phase: "",
            leftPhotoTemp: !photoTemps().isEmpty, leftExportTemp: !exportTemps().isEmpty)
    }

    /// Whether the running simulation asked the camera for a frame.
    func capturing() -> Bool {
        readFile("\(root)/events.json").map { String(decoding: $0, as: UTF8.self).contains("captureRequested") }
            ?? false
    }

    /// The photos' temp files in the photos folder.
    func photoTemps() -> Set<String> {
        Set((try? PhotoStore.fileNames(in: photos))?.filter { $0.hasSuffix(".jpg.partial") } ?? [])
    }

    /// The temp files below the export folder.
    func exportTemps() -> Set<String> { Self.temps(below: "\(exportRoot)/HeyLook") }

    /// A trigger for `simulate` and `export`: a temp file that was not there before appeared.
    func newTemp(_ temps: @escaping () -> Set<String>) -> () -> Bool {
        let stale = temps()
        return { !temps().subtracting(stale).isEmpty }
    }

    private static func temps(below folder: String) -> Set<String> {
        var found: Set<String> = []
        for name in (try? PhotoStore.fileNames(in: folder)) ?? [] {
            if name.hasSuffix(".partial") {
                found.insert("\(folder)/\(name)")
            } else if !name.hasPrefix(".") {
                found.formUnion(temps(below: "\(folder)/\(name)"))
            }
        }
        return found
    }

    /// A whole JPEG: starts with SOI, ends with EOI, and decodes.
    static func isWholeJPEG(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[bytes.count - 2] == 0xFF,
            bytes[bytes.count - 1] == 0xD9
        else { return false }
        guard let frame = try? JPEGInspector.decode(bytes) else { return false }
        return frame.width > 0 && frame.height > 0
    }

    /// The value of `"key":` in one events line (a string's content or a number), or nil.
    static func field(_ key: String, in line: Substring) -> String? {
        guard let start = line.firstRange(of: "\"\(key)\":") else { return nil }
        var rest = line[start.upperBound...]
        if rest.first == "\"" {
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
        }
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return rest.isEmpty || end == rest.endIndex ? nil : String(rest[..<end])
    }
}

/// Finds the `booth` executable the tests run.
enum BoothBinary {
    /// `HEYLOOK_BOOTH_BINARY`, else `booth` next to the test bundle (`swift build --build-tests` puts
    /// both in the same folder), else `.build/debug/booth` below the current folder.
    static func locate() -> String? {
        var candidates: [String] = []
        if let path = getenv("HEYLOOK_BOOTH_BINARY") { candidates.append(String(cString: path)) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            var folder = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // The test binary's folder, and the folder holding its bundle where it is inside one.
            while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
                folder = String(folder[..<slash])
                candidates.append("\(folder)/booth")
                if !folder.contains(".xctest") { break }
            }
        }
        candidates.append(".build/debug/booth")
        return candidates.first { access($0, X_OK) == 0 }
    }
}

/// Seconds on CLOCK_MONOTONIC.
enum MonotonicNow {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Starts `path` with `arguments`, standard input from /dev/null and its output to two files.
func spawn(_ path: String, _ arguments: [String], stdout: String, stderr: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
    try #require(result == 0, "posix_spawn \(path): \(ErrnoText.describe(result))")
    return pid
}

/// Writes `text` to `path` (test setup; not crash-safe).
func writeText(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    let bytes = Array(text.utf8)
    try #require(write(fd, bytes, bytes.count) == bytes.count, "cannot write \(path)")
}
