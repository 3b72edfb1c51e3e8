// StickExporter+Redating: the dated copies (their EXIF date and name) of photos saved undated and dated since.
import BoothSystem
import Glibc
import PhotoEncoding
import PhotoModel

extension ExportRun {
    /// A dated copy of a photo saved undated: its name on the stick and its EXIF segment.
    struct Redated {
        var stickName: String
        var redating: ExifRedating

        /// The copy's size for a photo of `size` bytes.
        func size(of size: Int64) -> Int64 { size - Int64(redating.replaced) + Int64(redating.head.count) }

        /// What is written: the dated head, then the photo from the end of its EXIF segment.
        func contents(_ fd: Int32, path: String) -> DurableFile.Contents {
            .spliced(head: redating.head, descriptor: fd, skip: Int64(redating.replaced), path: path)
        }
    }

    /// The dated copies of `kept` photos saved undated and dated since (a phone set the clock): each one's stick name
    /// (`HeyLook_YYYY-MM-DD_HH-MM-SS_NNNNNN.jpg`, its local date and time) and EXIF segment with that date, made from
    /// the photo's first bytes. A photo with no EXIF segment of the booth's is copied as saved; one discarded since
    /// the listing is left out (the copy skips it).
    func redatings(of kept: [PhotoIndex.Entry]) throws(ExportError) -> [String: Redated] {
        var found: [String: Redated] = [:]
        for entry in kept {
            guard let seconds = entry.dated, let name = PhotoName(fileName: entry.name), name.dateTime == nil else {
                continue
            }
            try stopIfAsked()
            let dateTime = PhotoName.DateTime(localSeconds: seconds)
            let path = "\(store.directory)/\(entry.name)"
            let fd: Int32
            do throws(SystemError) {
                fd = try SystemError.check("open", path) { ops.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) }
            } catch let error where error.code == .noSuchFileOrDirectory {
                continue
            } catch {
                throw fail(error)
            }
            defer { _ = ops.close(fd) }
            var prefix = [UInt8](repeating: 0, count: ExifRedating.prefixLimit)
            var count = 0
            while count < prefix.count {
                let read = try check("read", path) {
                    prefix.withUnsafeMutableBytes {
                        ops.read(fd, UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
                    }
                }
                if read == 0 { break }
                count += read
            }
            guard let redating = try? ExifRedating(prefix: Array(prefix[..<count]), dateTime: dateTime.exifString)
            else { continue }
            found[entry.name] = Redated(
                stickName: PhotoName(dateTime: dateTime, sequence: name.sequence).fileName, redating: redating)
        }
        return found
    }
}
