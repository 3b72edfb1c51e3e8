// StickCopier: one file onto a stick and read back: a copy already there adopted, a new one verified before its name.
import BoothCore
import BoothSystem
import Checksum
import Glibc

/// How one planned file reaches the stick and is proven there, through the fault seam. `ExportRun` decides what is
/// copied, in which folder and under which names; this writes, reads back and compares. A photo saved undated and
/// dated since is written as its dated copy (`DatedCopy`): its bytes are not the photo's, so the photo's own CRC-32
/// (what the booth's index records) is read from the photo and handed back beside the copy's digest.
struct StickCopier {
    /// A file on the stick that holds the photo: its name there, its digest, and the photo's own CRC-32 when the
    /// file is a dated copy (nil: the file's bytes are the photo's).
    struct Copy: Equatable {
        var name: String
        var digest: ContentDigest
        var photoChecksum: UInt32?
    }

    let operations: any FileOperations
    let file: DurableFile

    init(operations: any FileOperations) {
        self.operations = operations
        file = DurableFile(operations: operations)
    }

    /// The file already at `item.name` in `folder` when it holds what this copy would write (its size, CRC-32 and
    /// SHA-256): the photo, or its dated copy; nil when there is none there, a link, or another file. `source` is
    /// read from its start, and left there.
    func adopt(
        _ item: ExportPlan.Item, source: FileDescriptor, sourcePath: String, redated: DatedCopy?,
        folder: FileDescriptor,
        folderPath: String
    ) throws(SystemError) -> Copy? {
        let there: ContentDigest
        do throws(SystemError) {
            there = try stickDigest(of: item.name, in: folder, path: "\(folderPath)/\(item.name)")
        } catch let error
            where error.operation == "open"
            && (error.code == .noSuchFileOrDirectory || error.code == .tooManySymbolicLinkLevels)
        {
            return nil
        }
        let photo = try DurableFile.digest(of: source, path: sourcePath, operations: operations)
        var ours = photo
        if let redated {
            ours = try DurableFile.digest(of: redated.contents(source, path: sourcePath), operations: operations)
        }
        try SystemError.check("lseek", sourcePath) { operations.lseek(source, 0, SEEK_SET) }
        guard there == ours, ours.size == item.size else { return nil }
        return Copy(name: item.name, digest: ours, photoChecksum: redated == nil ? nil : photo.crc32)
    }

    /// Writes `source` (or its dated copy) into `folder` as `name`: under a temporary name, read back from the
    /// device, then renamed without replacing anything. Nil when another file took `name` since the listing (the
    /// source is rewound for the next name); any other failure throws.
    func write(
        _ source: FileDescriptor, sourcePath: String, redated: DatedCopy?, as name: String, into folder: FileDescriptor,
        folderPath: String
    ) throws(SystemError) -> Copy? {
        var contents = DurableFile.Contents.file(descriptor: source, path: sourcePath)
        var photoChecksum: UInt32?
        if let redated {
            photoChecksum = try DurableFile.checksum(of: source, path: sourcePath, operations: operations).1
            contents = redated.contents(source, path: sourcePath)
        }
        do throws(SystemError) {
            let digest = try file.write(
                contents, into: folder, directoryPath: folderPath, name: name, temporaryName: ".\(name).partial",
                verify: true)
            return Copy(name: name, digest: digest, photoChecksum: photoChecksum)
        } catch let error where error.operation == "rename" && error.errno == EEXIST {
            try SystemError.check("lseek", sourcePath) { operations.lseek(source, 0, SEEK_SET) }
            return nil
        }
    }

    /// Reads `copy`, `name` in its date folder `folder` (open), back from the device after the stick's final flush:
    /// its size and CRC-32 must be the ones written (a fake-capacity stick overwrites earlier files with later ones).
    func verify(
        _ copy: ExportManifest.Entry, name: String, in folder: FileDescriptor, exportPath: String
    ) throws(SystemError) {
        try file.verify(name, in: folder, path: "\(exportPath)/\(copy.path)", size: copy.size, checksum: copy.checksum)
    }

    /// The digest of `name` in `folder` on the stick, read from the device (its cached pages dropped), never through a
    /// link.
    func stickDigest(of name: String, in folder: FileDescriptor, path: String) throws(SystemError) -> ContentDigest {
        let fd = try SystemError.check("open", path) {
            operations.openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        }
        defer { _ = operations.close(fd) }
        _ = operations.dropCache(fd)
        return try DurableFile.digest(of: fd, path: path, operations: operations)
    }
}
