// StickManifestFile: the manifest's file in a stick's export folder, read without following a link and written durably.
import BoothCore
import BoothSystem
import Glibc
import PhotoStore

/// The manifest (`manifest.txt`) in the export folder on a stick: what is in its place when read, never following a
/// link, and its new text written durably (temp file, fsync, rename, read back). What it says is `ExportManifest`'s.
struct StickManifestFile {
    /// What is where the manifest should be.
    enum Found: Equatable {
        /// Nothing: a new stick.
        case missing
        /// A link, a folder, or not a regular file under 16 MiB: not a manifest the booth wrote.
        case unusable
        /// A regular file's text.
        case text(String)
    }

    /// The manifest's file name in the export folder.
    static let name = StickExporter.manifestName
    /// The largest manifest read.
    private static let limit = 16 << 20

    /// Every call.
    let operations: any FileOperations

    /// Reads what is in the manifest's place in the export folder `folder` (at `folderPath`, for messages); throws
    /// only when the stick fails (EIO ...).
    func read(in folder: FileDescriptor, folderPath: String) throws(SystemError) -> Found {
        let path = "\(folderPath)/\(Self.name)"
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try SystemError.check("open", path) {
                operations.openat(folder, Self.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch let error where error.code == .noSuchFileOrDirectory {
            return .missing
        } catch let error where error.code == .tooManySymbolicLinkLevels || error.code == .isDirectory {
            return .unusable
        }
        defer { _ = operations.close(fd) }
        var info = stat()
        guard operations.fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < Self.limit else {
            return .unusable
        }
        do {
            let bytes = try FileReading.readAll(fd, limit: Self.limit) { operations.read($0, $1) }
            return .text(String(decoding: bytes, as: UTF8.self))
        } catch .tooLarge {
            return .unusable  // Grew since fstat: not ours.
        } catch {
            throw error.systemError(reading: path)
        }
    }

    /// Writes `manifest` into the export folder `folder` (at `folderPath`), replacing the one there once the new one
    /// is whole and read back.
    func write(_ manifest: ExportManifest, into folder: FileDescriptor, folderPath: String) throws(SystemError) {
        _ = try DurableFile(operations: operations).write(
            .bytes(Array(manifest.encode().utf8)), into: folder, directoryPath: folderPath, name: Self.name,
            temporaryName: ".\(Self.name).partial", replacing: true, verify: true)
    }

    /// The manifest `found` holds, or a new one (keeping the id a damaged one still shows); `rebuilt` when something
    /// unusable was in its place (it is replaced, never followed).
    static func manifest(from found: Found) -> (ExportManifest, rebuilt: Bool) {
        switch found {
        case .missing: return (ExportManifest(stickID: PhotoStore.randomID()), false)
        case .unusable: return (ExportManifest(stickID: PhotoStore.randomID()), true)
        case .text(let text):
            if let manifest = ExportManifest.decode(text) { return (manifest, false) }
            return (ExportManifest(stickID: ExportManifest.salvageStickID(text) ?? PhotoStore.randomID()), true)
        }
    }

    /// The stick's id `found` carries, if one can be read from it.
    static func stickID(in found: Found) -> String? {
        guard case .text(let text) = found else { return nil }
        return ExportManifest.decode(text)?.stickID ?? ExportManifest.salvageStickID(text)
    }
}
