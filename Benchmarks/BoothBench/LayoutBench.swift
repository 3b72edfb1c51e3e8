// LayoutBench: `booth-bench --layout N`, the time and memory to render each print layout from 12 MP photos.
import BoothCore
import Foundation
import PhotoEncoding
import Printing

/// Renders each layout (a photo, a grid of 4, a strip of 4 on 4×6 in at 300 dpi, with a title and a date) N times
/// from 4056x3040 JPEGs (quality 90, colour bars with a label: less detail than a photo, so the decode is at the
/// quick end), as the printer's worker does: decode at libjpeg's smallest covering scale, crop, draw with cairo,
/// encode the page. Median and max ms, the page's bytes, and the process's peak resident memory before the first
/// render and after each layout's renders (getrusage's maxrss: it only grows).
enum LayoutBench {
    static func rows(renders count: Int) throws -> [(String, String)] {
        let photos = try (1...4).map { shot in
            (
                name: "photo \(shot)",
                jpeg: try JPEGEncoder.encode(
                    TestPattern.render(width: 4056, height: 3040, text: "SHOT \(shot)"),
                    options: JPEGOptions(quality: 90))
            )
        }
        var rows: [(String, String)] = [
            ("photos", "4056x3040 JPEG, \(photos[0].jpeg.count / 1000) KB each"),
            ("peak RSS before rendering", "\(peakKilobytes() / 1024) MB"),
        ]
        for (kind, shots) in [(PrintLayout.Kind.photo, 1), (.grid, 4), (.strip, 4)] {
            var milliseconds: [Double] = []
            var page: LayoutRenderer.Page?
            for _ in 0..<count {
                let started = DispatchTime.now()
                page = try LayoutRenderer.render(
                    PrintLayout(kind: kind), photos: Array(photos.prefix(shots)), title: "Emma turns 5",
                    date: "5 December 2026")
                milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
            }
            let size = page.map { "\($0.width)x\($0.height), \($0.jpeg.count / 1000) KB" } ?? "-"
            rows.append(
                (
                    "\(kind.rawValue) of \(shots) (\(size)): median / max ms",
                    "\(BoothBench.fmt(BoothBench.median(milliseconds))) / \(BoothBench.fmt(milliseconds.max() ?? 0))"
                ))
            rows.append(("peak RSS after the \(kind.rawValue) renders", "\(peakKilobytes() / 1024) MB"))
        }
        return rows
    }

    /// The process's peak resident memory so far, in KiB.
    private static func peakKilobytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }
}
