// ExportBench: `booth-bench --export N`, the stick export's throughput against `cp` + `sync` of the same files.
import BoothCore
import Checksum
import Foundation
import PhotoModel
import PhotoStore
import USBSticks

/// Exports N photos of about 3 MB (random bodies between JPEG markers, named like the store's) with
/// `StickExporter` exactly as `booth export --to DIR` does (fsync per file, read back from the device and
/// compared, manifest), and copies the same files with `cp` + `sync`; median of `runs` each, alternating.
enum ExportBench {
    static func rows(photos count: Int, runs: Int, target: String?, work: URL) throws -> [(String, String)] {
        let store = work.appendingPathComponent("store").path
        let sizes = try seed(store, count: count)
        let bytes = sizes.reduce(0, +)
        let destination =
            target.map { URL(fileURLWithPath: $0).appendingPathComponent("booth-bench-\(getpid())") }
            ?? work.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: destination) }
        let type = fileSystemType(destination.path)
        let photoStore = try PhotoStore(directory: store, reserve: 0)
        let exporter = StickExporter(
            store: photoStore, options: ExportOptions(allowedFileSystems: [type], unmount: false))

        var exportSeconds: [Double] = []
        var copySeconds: [Double] = []
        for run in 0..<runs {
            let exported = destination.appendingPathComponent("export\(run)")
            let copied = destination.appendingPathComponent("cp\(run)")
            try FileManager.default.createDirectory(at: exported, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: copied, withIntermediateDirectories: true)
            sync()
            let export = {
                let started = DispatchTime.now()
                let summary = try exporter.export(to: exported.path)
                precondition(summary.copied == count, "exported \(summary.copied) of \(count)")
                exportSeconds.append(seconds(since: started))
            }
            let copy = {
                let started = DispatchTime.now()
                try shell("cp \(store)/HeyLook_*.jpg \(copied.path)/ && sync")
                copySeconds.append(seconds(since: started))
            }
            if run % 2 == 0 {
                try export()
                try copy()
            } else {
                try copy()
                try export()
            }
            try FileManager.default.removeItem(at: exported)
            try FileManager.default.removeItem(at: copied)
        }
        let megabytes = Double(bytes) / 1e6
        // The exporter sums every byte twice (copy, read-back), CRC-32 and SHA-256: each alone, for scale.
        let sample = [UInt8](repeating: 0xA5, count: 64 << 20)
        let crcStarted = DispatchTime.now()
        var crc = CRC32()
        sample.withUnsafeBytes { crc.update($0) }
        let crcRate = Double(sample.count) / 1e6 / seconds(since: crcStarted)
        precondition(crc.value != 0)
        // And SHA-256 (Swift, no C library), beside coreutils' sha256sum of the same bytes from the page cache.
        let shaStarted = DispatchTime.now()
        var sha = SHA256()
        sample.withUnsafeBytes { sha.update($0) }
        let shaRate = Double(sample.count) / 1e6 / seconds(since: shaStarted)
        precondition(sha.finish().count == 32)
        let samplePath = work.appendingPathComponent("sha-sample").path
        try Data(sample).write(to: URL(fileURLWithPath: samplePath))
        try shell("cat \(samplePath) >/dev/null")
        let sumStarted = DispatchTime.now()
        try shell("sha256sum \(samplePath) >/dev/null")
        let sumRate = Double(sample.count) / 1e6 / seconds(since: sumStarted)
        let exportRate = megabytes / BoothBench.median(exportSeconds)
        let copyRate = megabytes / BoothBench.median(copySeconds)
        return [
            ("export target (file system)", "\(destination.path) (\(type))"),
            ("photos × size", "\(count) × \(BoothBench.fmt(megabytes / Double(count))) MB"),
            ("StickExporter, verified (MB/s, median of \(runs))", BoothBench.fmt(exportRate)),
            ("cp + sync (MB/s, median of \(runs))", BoothBench.fmt(copyRate)),
            ("export / cp+sync throughput", String(format: "%.2f", exportRate / copyRate)),
            ("CRC-32 alone (MB/s)", BoothBench.fmt(crcRate)),
            ("SHA-256 alone (MB/s)", BoothBench.fmt(shaRate)),
            ("sha256sum of the same 64 MiB (MB/s)", BoothBench.fmt(sumRate)),
            ("SHA-256 / sha256sum", String(format: "%.2f", shaRate / sumRate)),
        ]
    }

    /// Writes `count` JPEG-shaped photos of 2.4 to 3.6 MB into `directory`; returns their sizes.
    static func seed(_ directory: String, count: Int) throws -> [Int] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var rng = SystemRandomNumberGenerator()
        var sizes: [Int] = []
        for i in 0..<count {
            let size = Int.random(in: 2_400_000...3_600_000, using: &rng)
            var bytes = [UInt8](repeating: 0, count: size)
            bytes.withUnsafeMutableBytes { raw in
                for word in 0..<(size / 8) { raw.storeBytes(of: rng.next(), toByteOffset: word * 8, as: UInt64.self) }
            }
            bytes.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])
            bytes.replaceSubrange((size - 2)..<size, with: [0xFF, 0xD9])
            let name = PhotoName(
                dateTime: .init(year: 2026, month: 11, day: 22, hour: 10, minute: i / 60 % 60, second: i % 60),
                sequence: i + 1)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name.fileName)"))
            sizes.append(size)
        }
        return sizes
    }

    static func fileSystemType(_ path: String) -> String {
        (try? StickAdmission.fileSystemType(at: path)) ?? "unknown"
    }

    static func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "\(command) failed")
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
