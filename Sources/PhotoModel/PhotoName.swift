// PhotoName: photo file names.
/// Photo file names: local date-time plus a sequence number, so names sort by time and never collide
/// even when the clock jumps back. A photo taken while the clock is not trusted (a Pi has no
/// battery clock: before network time it says whatever it said at shutdown) is undated, named by its
/// number alone, so no false date is ever claimed.
public struct PhotoName: Hashable, Sendable, Comparable {
    /// A civil date-time, as read from the wall clock by the caller.
    public struct DateTime: Hashable, Sendable {
        /// Year, month (1...12), day, hour, minute, second.
        public var year, month, day, hour, minute, second: Int

        /// A date-time from its parts.
        public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
                year, month, day, hour, minute, second
            )
        }

        /// `YYYY-MM-DD`.
        public var dateString: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
        /// `HH-MM-SS`.
        public var timeString: String { "\(pad(hour, 2))-\(pad(minute, 2))-\(pad(second, 2))" }
        /// `YYYY:MM:DD HH:MM:SS`, as EXIF writes it.
        public var exifString: String {
            "\(pad(year, 4)):\(pad(month, 2)):\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        }
    }

    /// When the photo was taken; nil when the clock could not be trusted then.
    public var dateTime: DateTime?
    /// The store's running number, from 1.
    public var sequence: Int

    /// The largest running number the store writes. A billion photos is centuries of use, so the
    /// store never reaches it honestly; a file named with a larger one (crafted, or copied in) is not
    /// ours, so the next number (`+ 1`) can never overflow. A file named with this one is how the store
    /// gets here: then the next number is the lowest one free (`sequence(after:inUse:)`).
    public static let maximumSequence = 999_999_999

    /// The number for the next photo when the highest one in use is `last`: `last + 1`, or, once
    /// `last` is `maximumSequence` (only a file named so gets it there), the lowest number no photo
    /// uses, so one crafted name never stops the saves (an undated booth's names differ by number
    /// alone); `inUse` is asked only then. Nil when every number is taken.
    public static func sequence(after last: Int, inUse: () -> Set<Int>) -> Int? {
        if last < maximumSequence { return max(last, 0) + 1 }
        let used = inUse()
        return (1...maximumSequence).first { !used.contains($0) }
    }

    /// What an undated name has where a dated one has its date and time, and the folder such photos
    /// are exported into.
    public static let undated = "undated"

    /// The name for a photo taken at `dateTime` (nil: undated) with running number `sequence`.
    public init(dateTime: DateTime?, sequence: Int) {
        self.dateTime = dateTime
        self.sequence = sequence
    }

    /// `HeyLook_2026-11-22_14-03-07_000042.jpg`, or undated `HeyLook_undated_000042.jpg`.
    public var fileName: String {
        guard let dateTime else { return "HeyLook_\(Self.undated)_\(pad(sequence, 6)).jpg" }
        return "HeyLook_\(dateTime.dateString)_\(dateTime.timeString)_\(pad(sequence, 6)).jpg"
    }

    /// The folder the photo goes into on a stick: its date `YYYY-MM-DD`, or `undated`.
    public var folder: String { dateTime?.dateString ?? Self.undated }

    /// The name a file called `fileName` was given, or nil for any other file (temp files included):
    /// only a name the store itself would write (zero-padded parts, a sequence in
    /// 1...`maximumSequence`) is ours, so every other file there is left alone.
    public init?(fileName: String) {
        let parts = fileName.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4, parts[0] == "HeyLook", let last = parts.last,
            last.hasSuffix(".jpg"), let sequence = Int(last.dropLast(4))
        else { return nil }
        if parts.count == 3 {
            guard parts[1] == Self.undated else { return nil }
            self.init(dateTime: nil, sequence: sequence)
        } else {
            let date = parts[1].split(separator: "-").compactMap { Int($0) }
            let time = parts[2].split(separator: "-").compactMap { Int($0) }
            guard date.count == 3, time.count == 3 else { return nil }
            self.init(
                dateTime: DateTime(
                    year: date[0], month: date[1], day: date[2], hour: time[0], minute: time[1], second: time[2]),
                sequence: sequence)
        }
        guard (1...Self.maximumSequence).contains(sequence), self.fileName == fileName else { return nil }
    }

    /// The temporary name a photo is written under before it is complete.
    public var temporaryFileName: String { ".\(fileName).partial" }

    /// The name of a file kept beside the photo (the camera's RAW of the same shot): the photo's name with `ext`
    /// ("cr2", "nef") instead of "jpg". Nil for an extension that is no lowercase letters and digits (1 to 5) or "jpg".
    public func companionFileName(extension ext: String) -> String? {
        guard Self.isCompanionExtension(ext) else { return nil }
        return String(fileName.dropLast(3)) + ext
    }

    /// The photo whose companion `fileName` is (`companionFileName(extension:)`), or nil for any other file.
    public init?(companionFileName fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), Self.isCompanionExtension(String(fileName[dot...].dropFirst())),
            let photo = PhotoName(fileName: fileName[..<dot] + ".jpg")
        else { return nil }
        self = photo
    }

    /// Whether `ext` may name a companion: 1 to 5 lowercase letters and digits, not "jpg".
    public static func isCompanionExtension(_ ext: String) -> Bool {
        (1...5).contains(ext.count) && ext != "jpg"
            && ext.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    public static func < (lhs: PhotoName, rhs: PhotoName) -> Bool { lhs.sequence < rhs.sequence }
}

private func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
