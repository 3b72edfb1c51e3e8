// StickExporter+Manifest: the stick's manifest read (and the owner's id it carries), each copy recorded, written.
import BoothCore
import BoothSystem
import Checksum
import Glibc
import PhotoStore

extension ExportRun {
    func record(_ item: ExportPlan.Item, name: String, digest: ContentDigest) {
        let entry = ExportManifest.Entry(
            booth: store.boothID, source: item.source, path: "\(item.folder)/\(name)", digest: digest)
        manifest.entries.append(entry)
        copies.append(entry)
        unrecorded += 1
        done += 1
    }

    func recordIfDue() throws(ExportError) {
        if unrecorded >= options.recordEvery { try recordNow() }
    }

    /// The manifest (the stick's truth, so a pulled stick resumes); the booth's index waits for the
    /// read-back after the final flush.
    func recordNow() throws(ExportError) {
        do {
            try file.write(
                .bytes(Array(manifest.encode().utf8)), into: exportFD, directoryPath: exportPath,
                name: StickExporter.manifestName,
                temporaryName: ".\(StickExporter.manifestName).partial", replacing: true, verify: true)
        } catch {
            throw ExportError(.failed(error), done: done, total: total)
        }
        unrecorded = 0
    }

    /// The id the stick's manifest carries, read without creating or changing anything on the stick; nil when
    /// there is no export folder or manifest (or a link in either's place), or no id can be read from it.
    func ownID() throws(ExportError) -> String? {
        let folder: Int32
        do throws(SystemError) {
            folder = try SystemError.check("open", exportPath) {
                ops.openat(rootFD, options.folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch let error
            where [.noSuchFileOrDirectory, .tooManySymbolicLinkLevels, .notDirectory].contains(error.code)
        {
            return nil
        } catch {
            throw fail(error)
        }
        defer { _ = ops.close(folder) }
        guard case .text(let text) = try manifestFile(in: folder) else { return nil }
        return ExportManifest.decode(text)?.stickID ?? ExportManifest.salvageStickID(text)
    }

    /// What is where the manifest should be in the export folder `folder`.
    private enum ManifestFile {
        /// Nothing: a new stick.
        case missing
        /// A link, a folder, or not a regular file under 16 MiB: not a manifest the booth wrote.
        case unusable
        /// A regular file's text.
        case text(String)
    }

    /// Reads the manifest in `folder`, never following a link; throws only when the stick fails (EIO ...).
    private func manifestFile(in folder: Int32) throws(ExportError) -> ManifestFile {
        let path = "\(exportPath)/\(StickExporter.manifestName)"
        let fd: Int32
        do throws(SystemError) {
            fd = try SystemError.check("open", path) {
                ops.openat(folder, StickExporter.manifestName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch let error where error.code == .noSuchFileOrDirectory {
            return .missing
        } catch let error where error.code == .tooManySymbolicLinkLevels || error.code == .isDirectory {
            return .unusable
        } catch {
            throw fail(error)
        }
        defer { _ = ops.close(fd) }
        var info = stat()
        guard ops.fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 16 << 20 else {
            return .unusable
        }
        do {
            let bytes = try FileReading.readAll(fd, limit: 16 << 20) { ops.read($0, $1) }
            return .text(String(decoding: bytes, as: UTF8.self))
        } catch .tooLarge {
            return .unusable  // Grew since fstat: not ours.
        } catch {
            throw fail(error.systemError(reading: path))
        }
    }

    /// The stick's manifest, or a new one (keeping the id a damaged one still shows); `rebuilt` when something
    /// unusable was in its place.
    func readManifest() throws(ExportError) -> (ExportManifest, rebuilt: Bool) {
        // Missing: a new stick. A link or a folder in its place, or an odd file: rebuilt (it is replaced, never
        // followed).
        switch try manifestFile(in: exportFD) {
        case .missing: return (ExportManifest(stickID: PhotoStore.randomID()), false)
        case .unusable: return (ExportManifest(stickID: PhotoStore.randomID()), true)
        case .text(let text):
            if let manifest = ExportManifest.decode(text) { return (manifest, false) }
            return (ExportManifest(stickID: ExportManifest.salvageStickID(text) ?? PhotoStore.randomID()), true)
        }
    }
}
