// EncodeBench: the booth's JPEG encoder on a 12 MP frame versus libjpeg-turbo's own tools.
import Foundation
import PhotoEncoding

/// `EncodeBench`: the booth's JPEG encoder on a 12 MP camera frame versus libjpeg-turbo's own tools.
///
///     swift build -c release --product EncodeBench && .build/release/EncodeBench [--runs N] [--size WxH]
///
/// Makes one synthetic YUV420 frame (default 4056x3040, the Pi HQ camera's full size), writes it as a PPM,
/// then times, in N interleaved rounds (median and minimum): `JPEGEncoder.encode` from the YUV planes (quality 90, 4:2:0, EXIF as the booth
/// writes it); `cjpeg -quality 90` on the PPM (a whole process: start, read, RGB->YCbCr, encode, write); and
/// tjbench's "Comp from YUV" (libjpeg-turbo compressing the same planar 4:2:0 data in memory; its mean over a
/// 0.5 s run). Needs
/// libjpeg-turbo-progs.
@main
struct EncodeBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        let runs = option("--runs").flatMap(Int.init) ?? 9
        let size = (option("--size") ?? "4056x3040").split(separator: "x").compactMap { Int($0) }
        guard size.count == 2 else { fatalError("EncodeBench: --size WxH") }
        let (width, height) = (size[0], size[1])

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("encode-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let frame = syntheticFrame(width: width, height: height)
        let ppm = work.appendingPathComponent("frame.ppm")
        try Data(portablePixmap(frame)).write(to: ppm)

        let options = JPEGOptions(
            quality: 90,
            exif: ExifFields(
                dateTime: "2026:11:22 12:00:00", cameraModel: "imx477", orientation: 1,
                exposureTime: .microseconds(10_000), analogueGain: 1.0))
        // Interleaved rounds (ours, cjpeg, tjbench), so that a busy host slows all three alike.
        var bytes = 0
        var cjpegBytes = -1
        var tjBytes = -1
        var ours: [Double] = []
        var cjpeg: [Double] = []
        var tj: [Double] = []
        let out = work.appendingPathComponent("cjpeg.jpg").path
        for _ in 0..<runs {
            ours.append(seconds { bytes = (try? JPEGEncoder.encode(frame, options: options).count) ?? -1 })
            cjpeg.append(seconds { run("cjpeg", ["-quality", "90", "-outfile", out, ppm.path]) })
            cjpegBytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? -1
            if let result = tjbenchCompressFromYUV(ppm.path) {
                tj.append(result.seconds)
                tjBytes = result.bytes
            }
        }

        print("Encode of one \(width)x\(height) YUV420 frame, quality 90, 4:2:0; \(runs) interleaved rounds")
        print("| Encoder | median ms | min ms | ours ÷ this (median) | ours ÷ this (min) | JPEG bytes |")
        print("|---|---|---|---|---|---|")
        func row(_ name: String, _ times: [Double], _ size: Int) {
            guard !times.isEmpty else { return print("| \(name) | (did not run) | | | | |") }
            print(
                String(
                    format: "| %@ | %.1f | %.1f | %.2f | %.2f | %d |", name, median(times) * 1e3,
                    times.min()! * 1e3, median(ours) / median(times), ours.min()! / times.min()!, size))
        }
        row("booth JPEGEncoder (YUV planes, EXIF)", ours, bytes)
        row("cjpeg -quality 90 (PPM, whole process)", cjpeg, cjpegBytes)
        row("tjbench -yuv Comp from YUV (in memory)", tj, tjBytes)
    }

    /// A 4:2:0 frame with photo-like content: smooth shading, edges and sensor-like noise (a fixed LCG).
    static func syntheticFrame(width: Int, height: Int) -> PixelFrame {
        var seed: UInt32 = 12345
        func noise() -> Int {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Int(seed >> 28) - 8
        }
        var y = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                let shade = 40 + (column * 120) / width + (row * 60) / height
                let disc =
                    ((column - width / 2) * (column - width / 2) + (row - height / 2) * (row - height / 2))
                    < (height / 3) * (height / 3)
                let stripes = (column / 64 + row / 48) % 2 == 0 ? 12 : -12
                y[row * width + column] = UInt8(clamping: shade + (disc ? 50 : 0) + stripes + noise())
            }
        }
        let cw = (width + 1) / 2
        let ch = (height + 1) / 2
        var u = [UInt8](repeating: 0, count: cw * ch)
        var v = [UInt8](repeating: 0, count: cw * ch)
        for row in 0..<ch {
            for column in 0..<cw {
                u[row * cw + column] = UInt8(clamping: 100 + (column * 56) / cw + noise() / 4)
                v[row * cw + column] = UInt8(clamping: 150 - (row * 50) / ch + noise() / 4)
            }
        }
        return PixelFrame(
            width: width, height: height, format: .yuv420,
            planes: [
                PixelPlane(bytes: y, stride: width), PixelPlane(bytes: u, stride: cw), PixelPlane(bytes: v, stride: cw),
            ])
    }

    /// The frame as a binary PPM (JFIF full-range BT.601 YCbCr -> RGB), for cjpeg and tjbench.
    static func portablePixmap(_ frame: PixelFrame) -> [UInt8] {
        var out = Array("P6\n\(frame.width) \(frame.height)\n255\n".utf8)
        out.reserveCapacity(out.count + frame.width * frame.height * 3)
        let (y, u, v) = (frame.planes[0], frame.planes[1], frame.planes[2])
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                let luma = Double(y.bytes[row * y.stride + column])
                let cb = Double(u.bytes[(row / 2) * u.stride + column / 2]) - 128
                let cr = Double(v.bytes[(row / 2) * v.stride + column / 2]) - 128
                out.append(UInt8(clamping: Int((luma + 1.402 * cr).rounded())))
                out.append(UInt8(clamping: Int((luma - 0.344136 * cb - 0.714136 * cr).rounded())))
                out.append(UInt8(clamping: Int((luma + 1.772 * cb).rounded())))
            }
        }
        return out
    }

    /// tjbench's per-frame time and size for compressing the PPM's 4:2:0 planes at quality 90.
    static func tjbenchCompressFromYUV(_ ppm: String) -> (seconds: Double, bytes: Int)? {
        let text = run(
            "tjbench",
            [ppm, "90", "-subsamp", "420", "-yuv", "-componly", "-nowrite", "-warmup", "0.2", "-benchtime", "0.5"])
        guard let section = text.range(of: "Comp from YUV") else { return nil }
        let rest = text[section.upperBound...]
        func number(after label: String) -> Double? {
            guard let at = rest.range(of: label) else { return nil }
            return Double(rest[at.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." })
        }
        guard let fps = number(after: "Frame rate:"), fps > 0, let bytes = number(after: "Output image size:") else {
            return nil
        }
        return (1 / fps, Int(bytes))
    }

    /// Runs a program found on PATH; returns its standard output (empty when it cannot run).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func seconds(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
