// ThumbnailBench: a gallery thumbnail of a 12 MP photo versus `djpeg -scale 1/8` of the same file.
import Foundation
import PhotoEncoding

/// `ThumbnailBench`: the time to make one gallery thumbnail from a 12 MP JPEG, beside libjpeg-turbo's `djpeg`.
///
///     swift build -c release --product ThumbnailBench && .build/release/ThumbnailBench [--runs N] [--size WxH]
///         [--long-edge PX] [--quality Q]
///
/// Encodes one photo-like RGB frame (default 4056x3040, the Pi HQ camera's full size: ramps, hard edges and
/// sensor-like noise) at quality 90 with the booth's EXIF, writes it to a file, then times in N interleaved
/// rounds (median and minimum): `JPEGThumbnail.make` (default long edge 400 px, quality 80) including reading
/// the file, as the gallery does; its scaled decode alone (1/8 for 400 px); and `djpeg -scale 1/8 -outfile
/// /dev/null` of the file as a whole process (start, read, decode at 1/8, write nothing), beside `/bin/true` for
/// the cost of starting a process (both through posix_spawn and waitpid); and a full-size decode of the same
/// bytes for what scaling saves. Needs libjpeg-turbo-progs.
@main
struct ThumbnailBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        let runs = option("--runs").flatMap(Int.init) ?? 20
        let size = (option("--size") ?? "4056x3040").split(separator: "x").compactMap { Int($0) }
        guard size.count == 2, size[0] > 0, size[1] > 0 else {
            FileHandle.standardError.write(Data("ThumbnailBench: --size takes WxH, e.g. 4056x3040\n".utf8))
            exit(2)
        }
        let (width, height) = (size[0], size[1])
        let longEdge = option("--long-edge").flatMap(Int.init) ?? JPEGThumbnail.defaultLongEdge
        let quality = option("--quality").flatMap(Int.init) ?? JPEGThumbnail.defaultQuality
        let plan = ThumbnailPlan(sourceWidth: width, sourceHeight: height, longEdge: longEdge)

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnail-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let photo = work.appendingPathComponent("photo.jpg")
        let options = JPEGOptions(
            quality: 90,
            exif: ExifFields(
                dateTime: "2026:11:22 12:00:00", cameraModel: "imx477", orientation: 1,
                exposureTime: .microseconds(10_000), analogueGain: 1.0))
        let jpeg = try JPEGEncoder.encode(photoLikeFrame(width: width, height: height), options: options)
        try Data(jpeg).write(to: photo)

        var thumbnail: JPEGThumbnail? = nil
        var decoded = (0, 0)
        var ours: [Double] = []
        var decodeOnly: [Double] = []
        var djpeg: [Double] = []
        var spawn: [Double] = []
        var full: [Double] = []
        for _ in 0..<runs {
            ours.append(
                seconds {
                    thumbnail = try? JPEGThumbnail.make(
                        from: Array(Data(contentsOf: photo)), longEdge: longEdge, quality: quality)
                })
            decodeOnly.append(
                seconds {
                    let frame = try? JPEGThumbnail.decode(jpeg, scaleDenominator: plan.scaleDenominator)
                    decoded = (frame?.width ?? 0, frame?.height ?? 0)
                })
            djpeg.append(seconds { run("/usr/bin/djpeg", ["-scale", "1/8", "-outfile", "/dev/null", photo.path]) })
            spawn.append(seconds { run("/bin/true", []) })
            full.append(seconds { _ = try? JPEGInspector.decode(jpeg) })
        }
        guard let thumbnail else {
            FileHandle.standardError.write(Data("ThumbnailBench: the thumbnail failed\n".utf8))
            exit(1)
        }

        print(
            "Thumbnail of one \(width)x\(height) JPEG (quality 90, \(jpeg.count) bytes); \(runs) interleaved rounds")
        print(
            "booth: 1/\(thumbnail.scaleDenominator) decode to \(thumbnail.decodedWidth)x\(thumbnail.decodedHeight), "
                + "thumbnail \(thumbnail.width)x\(thumbnail.height), \(thumbnail.jpeg.count) bytes")
        print("| What | median ms | min ms | ÷ djpeg (median) | ÷ djpeg (min) |")
        print("|---|---|---|---|---|")
        func row(_ name: String, _ times: [Double]) {
            print(
                String(
                    format: "| %@ | %.2f | %.2f | %.2f | %.2f |", name, median(times) * 1e3, times.min()! * 1e3,
                    median(times) / median(djpeg), times.min()! / djpeg.min()!))
        }
        let scale = "1/\(plan.scaleDenominator)"
        row("JPEGThumbnail.make, \(longEdge) px (read file, \(scale) decode, resize, encode)", ours)
        row("JPEGThumbnail.decode at \(scale) alone (\(decoded.0)x\(decoded.1), in memory)", decodeOnly)
        row("djpeg -scale 1/8 -outfile /dev/null (whole process)", djpeg)
        row("/bin/true (process start alone, same launcher)", spawn)
        row("JPEGInspector.decode at full size (what the scaled decode avoids)", full)
    }

    /// An RGB frame with photo-like content: ramps, a grid of hard edges and sensor-like noise (a fixed LCG).
    static func photoLikeFrame(width: Int, height: Int) -> PixelFrame {
        var seed: UInt32 = 2025
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Int(seed >> 28) - 8
                let tile = (x / 97 + y / 61) % 3
                let at = (y * width + x) * 3
                bytes[at] = clamp(x * 200 / width + 30 * tile + noise)
                bytes[at + 1] = clamp(y * 180 / height + 40 + noise)
                bytes[at + 2] = clamp((x + y) * 255 / (width + height) - 20 * tile + 40 + noise)
            }
        }
        return PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: bytes, stride: width * 3)])
    }

    static func clamp(_ value: Int) -> UInt8 { UInt8(min(255, max(0, value))) }

    static func seconds(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Runs `tool` and waits for it with posix_spawn and waitpid (Foundation's `Process` polls its run loop
    /// for the exit, adding up to 50 ms to a whole-process time).
    static func run(_ tool: String, _ arguments: [String]) {
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool, nil, nil, argv, environ)
        var status: Int32 = 0
        guard spawned == 0, waitpid(pid, &status, 0) == pid, status == 0 else {
            FileHandle.standardError.write(
                Data("ThumbnailBench: \(tool) failed (spawn \(spawned), status \(status))\n".utf8))
            exit(1)
        }
    }
}
