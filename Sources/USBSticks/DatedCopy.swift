// DatedCopy: the copy on a stick of a photo saved undated and dated since: its dated name and EXIF date.
import BoothSystem
import Glibc
import PhotoEncoding
import PhotoModel

/// A photo saved while the clock was unsynchronised (named by number alone) and dated since (a phone set the clock)
/// goes to a stick as a dated copy: named `HeyLook_YYYY-MM-DD_HH-MM-SS_NNNNNN.jpg` (its local date and time) and with
/// that date in its EXIF segment, made from the photo's first bytes. The photo in the store stays as saved.
struct DatedCopy {
    /// The copy's name on the stick.
    var stickName: String
    /// The EXIF segment the copy carries in place of the photo's.
    var redating: ExifRedating

    /// Whether `entry` is a photo saved undated and dated since, which goes to a stick as a dated copy.
    static func isDue(_ entry: PhotoIndex.Entry) -> Bool { dating(of: entry) != nil }

    /// The date and time `entry` gained since it was saved undated, and its name, or nil when it needs no dated copy.
    private static func dating(of entry: PhotoIndex.Entry) -> (dateTime: PhotoName.DateTime, name: PhotoName)? {
        guard let seconds = entry.dated, let name = PhotoName(fileName: entry.name), name.dateTime == nil else {
            return nil
        }
        return (PhotoName.DateTime(localSeconds: seconds), name)
    }

    /// The dated copy of `entry` (one `isDue`) kept in `directory`, from the photo's first bytes; nil when the photo
    /// was discarded since the listing (the copy skips it) or has no EXIF segment of the booth's (copied as saved).
    init?(of entry: PhotoIndex.Entry, in directory: String, operations ops: any FileOperations) throws(SystemError) {
        guard let (dateTime, name) = Self.dating(of: entry) else { return nil }
        let path = "\(directory)/\(entry.name)"
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try SystemError.check("open", path) { ops.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) }
        } catch let error where error.code == .noSuchFileOrDirectory {
            return nil
        }
        defer { _ = ops.close(fd) }
        var prefix = [UInt8](repeating: 0, count: ExifRedating.prefixLimit)
        var count = 0
        while count < prefix.count {
            let read = try SystemError.check("read", path) {
                prefix.withUnsafeMutableBytes { ops.read(fd, UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            }
            if read == 0 { break }
            count += read
        }
        guard let redating = try? ExifRedating(prefix: Array(prefix[..<count]), dateTime: dateTime.exifString) else {
            return nil
        }
        stickName = PhotoName(dateTime: dateTime, sequence: name.sequence).fileName
        self.redating = redating
    }

    /// The copy's size for a photo of `size` bytes.
    func size(of size: Int64) -> Int64 { size - Int64(redating.replaced) + Int64(redating.head.count) }

    /// What is written: the dated head, then the photo (open as `fd`) from the end of its EXIF segment.
    func contents(_ fd: FileDescriptor, path: String) -> DurableFile.Contents {
        .spliced(head: redating.head, descriptor: fd, skip: Int64(redating.replaced), path: path)
    }
}
