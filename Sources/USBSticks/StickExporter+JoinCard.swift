// StickExporter+JoinCard: the join card copied beside the photos.
import BoothSystem
import Glibc

extension ExportRun {
    /// The join card's name in the export folder.
    static let joinCardName = "join-card.pdf"

    /// Copies the join card (`options.joinCard`) into the export folder when the stick has not the same bytes, so a
    /// booth with no screen hands it over with the photos: whole or not at all (read back before its rename), never
    /// more than 4 MiB. Returns whether it was copied; no card kept is nothing to copy.
    func copyJoinCard() throws(ExportError) -> Bool {
        guard let path = options.joinCard else { return false }
        try stopIfAsked()
        let source: FileDescriptor
        do throws(SystemError) {
            source = try SystemError.check("open", path) { ops.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) }
        } catch let error where error.code == .noSuchFileOrDirectory {
            return false
        } catch {
            throw fail(error)
        }
        defer { _ = ops.close(source) }
        let card: [UInt8]
        do {
            card = try FileReading.readAll(source, limit: 4 << 20) { ops.read($0, $1) }
        } catch {
            throw fail(error.systemError(reading: path))
        }
        let name = Self.joinCardName
        let target = "\(exportPath)/\(name)"
        let folder = try exportFolder
        if let existing = ops.openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) {
            defer { _ = ops.close(existing) }
            if (try? FileReading.readAll(existing, limit: 4 << 20) { ops.read($0, $1) }) == card { return false }
        }
        try checkRoom(for: Int64(card.count), path: target)
        do {
            try file.write(
                .bytes(card), into: folder, directoryPath: exportPath, name: name, temporaryName: ".\(name).partial",
                replacing: true, verify: true)
        } catch {
            throw ExportError(.failed(error), done: done, total: total)
        }
        return true
    }
}
