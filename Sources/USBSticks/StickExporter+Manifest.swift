// StickExporter+Manifest: the run's copies recorded in the stick's manifest, and the manifest (and its owner's id) read.
import BoothCore
import BoothSystem
import Glibc

extension ExportRun {
    /// Records `copy` of `item` (adopted or written), with the photo's own CRC-32 when the copy is a dated one.
    func record(_ item: ExportPlan.Item, _ copy: StickCopier.Copy) {
        if let checksum = copy.photoChecksum { sourceChecksums[item.source] = checksum }
        let entry = ExportManifest.Entry(
            booth: store.boothID, source: item.source, path: "\(item.folder)/\(copy.name)", digest: copy.digest)
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
        let folder = try exportFolder
        do throws(SystemError) {
            try manifestFile.write(manifest, into: folder, folderPath: exportPath)
        } catch {
            throw fail(error)
        }
        unrecorded = 0
    }

    /// The id the stick's manifest carries, read without creating or changing anything on the stick; nil when
    /// there is no export folder or manifest (or a link in either's place), or no id can be read from it.
    func ownID() throws(ExportError) -> String? {
        let root = try root
        let folder: FileDescriptor
        do throws(SystemError) {
            folder = try SystemError.check("open", exportPath) {
                ops.openat(root, options.folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch let error
            where [.noSuchFileOrDirectory, .tooManySymbolicLinkLevels, .notDirectory].contains(error.code)
        {
            return nil
        } catch {
            throw fail(error)
        }
        defer { _ = ops.close(folder) }
        do throws(SystemError) {
            return StickManifestFile.stickID(in: try manifestFile.read(in: folder, folderPath: exportPath))
        } catch {
            throw fail(error)
        }
    }

    /// The stick's manifest, or a new one (keeping the id a damaged one still shows); `rebuilt` when something
    /// unusable was in its place.
    func readManifest() throws(ExportError) -> (ExportManifest, rebuilt: Bool) {
        let folder = try exportFolder
        do throws(SystemError) {
            return StickManifestFile.manifest(from: try manifestFile.read(in: folder, folderPath: exportPath))
        } catch {
            throw fail(error)
        }
    }
}
