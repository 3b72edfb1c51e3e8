// StoreFixtures: stores with photos, and snapshots of folders to compare before and after.
import BoothSystem
import Checksum
import Glibc
import PhotoModel
import PhotoStore
import USBSticks

/// Stores with photos, export options for a plain folder, and folder snapshots, for the store's and the sticks' tests.
public enum StoreFixtures {
    /// A JPEG-looking payload of `size` bytes, different for every `seed`.
    public static func photo(_ seed: Int, size: Int = 150_000) -> [UInt8] {
        [0xFF, 0xD8] + (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 7) ^ (seed &* 131) ^ ($0 >> 9)) }
    }

    /// A photo date the store tests share.
    public static let sampleDate = PhotoName.DateTime(year: 2026, month: 11, day: 22, hour: 10, minute: 0, second: 0)

    /// A store with `count` photos over two days.
    public static func store(
        photos count: Int, directory: String = temporaryDirectory(), seed: Int = 0
    ) throws -> PhotoStore {
        let store = try PhotoStore(directory: directory, reserve: 0)
        for i in 0..<count {
            let day = PhotoName.DateTime(year: 2026, month: 11, day: 21 + i % 2, hour: 10, minute: i, second: 0)
            _ = try store.save(photo(seed &+ i), takenAt: day)
        }
        return store
    }

    /// Options for exporting to a plain folder on this machine's file system.
    public static func options(
        for directory: String, operations: any FileOperations = SystemFileOperations()
    ) -> ExportOptions {
        let type = (try? StickAdmission.fileSystemType(at: directory)) ?? "unknown"
        return ExportOptions(allowedFileSystems: [type], unmount: false, recordEvery: 2, operations: operations)
    }

    /// Every regular file below `root` (relative path → CRC-32), following no links.
    public static func snapshot(_ root: String, ignoring ignored: Set<String> = []) -> [String: UInt32] {
        var result: [String: UInt32] = [:]
        func walk(_ relative: String) {
            let path = relative.isEmpty ? root : "\(root)/\(relative)"
            guard let names = try? PhotoStore.fileNames(in: path) else { return }
            for name in names {
                let child = relative.isEmpty ? name : "\(relative)/\(name)"
                guard !ignored.contains(child) else { continue }
                var info = stat()
                guard lstat("\(root)/\(child)", &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: walk(child)
                case S_IFREG: result[child] = CRC32.checksum(readFile("\(root)/\(child)") ?? [])
                default: result[child] = 0xFFFF_FFFF
                }
            }
        }
        walk("")
        return result
    }
}
