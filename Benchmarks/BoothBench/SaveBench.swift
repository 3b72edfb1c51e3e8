// SaveBench: `booth-bench --save N`, the time of one durable save (photo and index) into a store already holding some.
import BoothCore
import Foundation
import PhotoStore

/// Saves N photos of about 3 MB with `PhotoStore.save`, as the save worker does (temp name, fsync, rename, fsync
/// the folder, and the index), into a store that already holds `held` small photos (so an index of that many lines
/// is written with each save); median, p90 and max of the N.
enum SaveBench {
    static func rows(photos count: Int, held: Int, work: URL) throws -> [(String, String)] {
        let directory = work.appendingPathComponent("store").path
        let store = try PhotoStore(directory: directory, reserve: 0)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<held { _ = try store.save([0xFF, 0xD8] + [UInt8](repeating: 7, count: 1000), takenAt: nil) }
        let index = (try? Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(PhotoStore.indexName)")).count) ?? 0
        var milliseconds: [Double] = []
        for _ in 0..<count {
            var photo = [UInt8](repeating: 0, count: 3_000_000)
            photo.withUnsafeMutableBytes { raw in
                for word in 0..<(raw.count / 8) {
                    raw.storeBytes(of: rng.next(), toByteOffset: word * 8, as: UInt64.self)
                }
            }
            let started = DispatchTime.now()
            _ = try store.save(photo, takenAt: nil)
            milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
        }
        return [
            ("store (file system)", directory),
            ("photos already held, index size", "\(held), \(index / 1000) KB"),
            ("save of a 3 MB photo: median (ms, of \(count))", String(format: "%.1f", BoothBench.median(milliseconds))),
            (
                "p90 / max (ms)",
                String(
                    format: "%.1f / %.1f", BoothBench.percentile(milliseconds, 0.9), milliseconds.max() ?? 0)
            ),
        ]
    }
}
