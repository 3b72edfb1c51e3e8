// LayoutName: the file names of print layouts, made from their first photo's name.

/// A print layout's file name: its first photo's name with the layout's kind before the extension
/// (`HeyLook_2026-12-05_14-03-07_000012-strip.jpg`). Layouts live in the store's `layouts/` folder and, on a stick,
/// in the export folder's; they are derived from photos, never entries of the index.
public struct LayoutName: Hashable, Sendable {
    /// The kinds of layout a name may carry (`PrintLayout.Kind`'s raw values).
    public static let kinds = ["photo", "strip", "grid"]

    /// The folder layouts are kept in, in the store and in a stick's export folder.
    public static let folder = "layouts"

    /// The photo the layout is named after (its first).
    public var photo: PhotoName
    /// The layout's kind, one of `kinds`.
    public var kind: String

    /// The name of the `kind` layout whose first photo is `photo`.
    public init(photo: PhotoName, kind: String) {
        (self.photo, self.kind) = (photo, kind)
    }

    /// `HeyLook_2026-12-05_14-03-07_000012-strip.jpg`.
    public var fileName: String { String(photo.fileName.dropLast(4)) + "-\(kind).jpg" }

    /// The layout a file called `fileName` is, or nil for any other file (temp files included).
    public init?(fileName: String) {
        guard fileName.hasSuffix(".jpg"), let dash = fileName.lastIndex(of: "-") else { return nil }
        let kind = String(fileName[fileName.index(after: dash)...].dropLast(4))
        guard Self.kinds.contains(kind), let photo = PhotoName(fileName: fileName[..<dash] + ".jpg") else {
            return nil
        }
        self.init(photo: photo, kind: kind)
    }

    /// The names every kind of layout named after `photo` would have.
    public static func fileNames(of photo: PhotoName) -> [String] {
        kinds.map { LayoutName(photo: photo, kind: $0).fileName }
    }
}
