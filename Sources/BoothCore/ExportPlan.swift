// ExportPlan: which photos to copy to a stick, and where, given the manifest and the files there.
import PhotoModel

/// Decides an export without touching a file: which kept photos are already on the stick, which to
/// copy and under which name, which files already there only need verifying, and which to skip.
public struct ExportPlan: Hashable, Sendable {
    /// A kept photo of this booth.
    public struct Photo: Hashable, Sendable {
        /// The file name in the store.
        public var name: String
        /// Size in bytes.
        public var size: Int64
        /// The date folder of a photo saved undated and dated since (by a phone's clock), `YYYY-MM-DD`; nil:
        /// its name's folder.
        public var folder: String?
        /// The name its copy gets when not `name`: a photo saved undated and dated since, whose copy carries its
        /// date in its name and EXIF (then `size` is the copy's).
        public var stickName: String?

        /// A photo.
        public init(name: String, size: Int64, folder: String? = nil, stickName: String? = nil) {
            (self.name, self.size, self.folder, self.stickName) = (name, size, folder, stickName)
        }
    }

    /// One photo or print layout to put on the stick.
    public struct Item: Hashable, Sendable {
        /// The file name in the store (a layout's in the store's `layouts/` folder: `storePath`).
        public var source: String
        /// Size in bytes.
        public var size: Int64
        /// The date folder, `YYYY-MM-DD`.
        public var folder: String
        /// The file name on the stick (the source name unless another booth's photo has it).
        public var name: String
        /// A file of that name and size is already there and no manifest claims it (an interrupted
        /// export, or a rebuilt manifest): verify its checksum and adopt it instead of copying.
        public var adopt: Bool
        /// Which of `alternativeName`'s names `name` is (0 for the copy's own name).
        public var attempt: Int = 0
        /// The copy's own name when not the source's (`Photo.stickName`): the names tried are made from it.
        public var stickName: String? = nil

        /// The name the names tried are made from: the copy's own.
        public var baseName: String { stickName ?? source }

        /// The path relative to the export folder.
        public var path: String { "\(folder)/\(name)" }

        /// Whether it is a print layout, not a photo.
        public var isLayout: Bool { ExportPlan.isLayoutSource(source) }
    }

    /// Whether a manifest's or a plan's source is a print layout's (`LayoutName`), not a photo's: layouts are not
    /// photos of the index, and never let cleanup delete anything.
    public static func isLayoutSource(_ source: String) -> Bool { LayoutName(fileName: source) != nil }

    /// Where a manifest's or a plan's source is in the store, relative to its folder: a layout in `layouts/`.
    public static func storePath(of source: String) -> String {
        isLayoutSource(source) ? "\(LayoutName.folder)/\(source)" : source
    }

    /// A photo that cannot go on this stick.
    public struct Skip: Hashable, Sendable {
        /// The file name in the store.
        public var source: String
        /// Why, for the person at the booth.
        public var reason: String

        /// A skipped photo.
        public init(source: String, reason: String) {
            (self.source, self.reason) = (source, reason)
        }
    }

    /// Manifest entries still valid (their file is there with the recorded size).
    public var kept: [ExportManifest.Entry] = []
    /// Manifest entries whose file vanished or changed size (copied again if they are this booth's).
    public var dropped: [ExportManifest.Entry] = []
    /// Photos of this booth already on the stick.
    public var alreadyThere = 0
    /// Print layouts of this booth already on the stick.
    public var layoutsAlreadyThere = 0
    /// What to copy or verify, oldest first.
    public var items: [Item] = []
    /// Photos skipped, with the reason.
    public var skipped: [Skip] = []

    /// Plans exporting `photos` (oldest first) of booth `booth` to a stick with `manifest`, where
    /// `present` lists the regular files under the export folder (`folder/name` → size) and files
    /// larger than `maximumFileSize` cannot be stored (FAT32: 4 GiB - 1). `layouts` (file names and sizes in the
    /// store's `layouts/` folder) follow the photos into the export folder's `layouts/` folder, planned as photos are.
    public static func make(
        photos: [Photo], layouts: [Photo] = [], booth: String, manifest: ExportManifest, present: [String: Int64],
        maximumFileSize: Int64? = nil
    ) -> ExportPlan {
        var plan = ExportPlan()
        // FAT is case-insensitive: compare paths in lower case.
        var presentSizes: [String: Int64] = [:]
        for (path, size) in present { presentSizes[path.lowercased()] = size }
        var claimed: Set<String> = []
        var ours: Set<String> = []
        for entry in manifest.entries {
            let key = entry.path.lowercased()
            if presentSizes[key] == entry.size, !claimed.contains(key) {
                plan.kept.append(entry)
                claimed.insert(key)
                if entry.booth == booth { ours.insert(entry.source) }
            } else {
                plan.dropped.append(entry)
            }
        }
        for photo in photos {
            if ours.contains(photo.name) {
                plan.alreadyThere += 1
                continue
            }
            let base = photo.stickName ?? photo.name
            guard let parsed = PhotoName(fileName: base) else {
                plan.skipped.append(Skip(source: photo.name, reason: "not a photo name"))
                continue
            }
            guard FATName.isSafe(base) else {
                plan.skipped.append(Skip(source: photo.name, reason: "the name is not valid on a FAT stick"))
                continue
            }
            if let limit = maximumFileSize, photo.size > limit {
                plan.skipped.append(
                    Skip(source: photo.name, reason: "larger than this stick's file system allows (4 GiB on FAT)"))
                continue
            }
            // A dated name is filed by its date; an undated one by the date it was given since, if any.
            let folder = parsed.dateTime == nil ? photo.folder ?? parsed.folder : parsed.folder
            plan.place(
                photo, source: photo.name, folder: folder, booth: booth, present: presentSizes, claimed: &claimed)
        }
        for layout in layouts {
            let source = layout.name
            if ours.contains(source) {
                plan.layoutsAlreadyThere += 1
                continue
            }
            guard LayoutName(fileName: layout.name) != nil, FATName.isSafe(layout.name) else {
                plan.skipped.append(Skip(source: source, reason: "not a layout's name"))
                continue
            }
            if let limit = maximumFileSize, layout.size > limit {
                plan.skipped.append(
                    Skip(source: source, reason: "larger than this stick's file system allows (4 GiB on FAT)"))
                continue
            }
            plan.place(
                layout, source: source, folder: LayoutName.folder, booth: booth, present: presentSizes,
                claimed: &claimed)
        }
        return plan
    }

    /// Plans `file` (a photo or a layout, its file name `source`) into `folder` under the first of its names
    /// (`alternativeName`) not claimed: adopted when a file of its size is there, copied when the name is free, skipped
    /// when every name is taken.
    private mutating func place(
        _ file: Photo, source: String, folder: String, booth: String, present: [String: Int64],
        claimed: inout Set<String>
    ) {
        let base = file.stickName ?? source
        for attempt in 0..<Self.maximumAttempts {
            let name = Self.alternativeName(base, booth: booth, attempt: attempt)
            let key = "\(folder)/\(name)".lowercased()
            if claimed.contains(key) { continue }
            let there = present[key]
            if let there, there != file.size { continue }
            items.append(
                Item(
                    source: source, size: file.size, folder: folder, name: name, adopt: there != nil,
                    attempt: attempt, stickName: file.stickName))
            claimed.insert(key)
            return
        }
        skipped.append(Self.collisionSkip(source, base: base, folder: folder))
    }

    /// How many names (`alternativeName`) a photo may try on a stick before it is skipped: files
    /// crafted under all of them cost that photo, never the export.
    public static let maximumAttempts = 100

    /// The skip for a photo whose every name (made from `base`, its copy's own name, when not `source`) is taken in
    /// `folder`, with what to do.
    public static func collisionSkip(_ source: String, base: String? = nil, folder: String) -> Skip {
        let what = isLayoutSource(source) ? "layout" : "photo"
        return Skip(
            source: source,
            reason:
                "\(maximumAttempts) files in the stick's \(folder) folder already use this \(what)'s names (\((base ?? source).dropLast(4))*.jpg): remove or rename them to export it"
        )
    }

    /// Whether `name` is one an export writes: a photo name, or one with a booth's tag
    /// (`alternativeName`). Only such files (their temp files, or left empty by a pull) are ever
    /// deleted on a stick; everything else there belongs to someone else.
    public static func isExportName(_ name: String) -> Bool {
        isPhotoExportName(name) || isLayoutExportName(name)
    }

    /// Whether `name` is a layout's name (`LayoutName`) as an export writes it: its own, or with a booth's tag after
    /// the kind (`…_000012-strip_1a2b3c4d.jpg`).
    static func isLayoutExportName(_ name: String) -> Bool {
        if LayoutName(fileName: name) != nil { return true }
        guard name.hasSuffix(".jpg") else { return false }
        let stem = name.dropLast(4)
        guard let underscore = stem.lastIndex(of: "_"), let dash = stem[..<underscore].lastIndex(of: "-"),
            LayoutName.kinds.contains(String(stem[stem.index(after: dash)..<underscore]))
        else { return false }
        // The layout's own name with the tag taken out is a photo's name with the same tag.
        return isPhotoExportName(String(stem[..<dash] + stem[underscore...]) + ".jpg")
    }

    /// Whether `name` is a photo's name as an export writes it: its own, or with a booth's tag.
    private static func isPhotoExportName(_ name: String) -> Bool {
        if PhotoName(fileName: name) != nil { return true }
        guard name.hasSuffix(".jpg"), let underscore = name.lastIndex(of: "_") else { return false }
        let tail = name[name.index(after: underscore)...].dropLast(4)
        let parts = tail.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let tag = parts[0]
        guard (1...8).contains(tag.count), tag.allSatisfy(\.isHexDigit) else { return false }
        if parts.count == 2 {
            guard let number = Int(parts[1]), number >= 2, String(number) == parts[1] else { return false }
        }
        return PhotoName(fileName: name[..<underscore] + ".jpg") != nil
    }

    /// The stick name for `name` at `attempt`: the name itself first, then with this booth's id
    /// (`HeyLook_…_000042_1a2b3c4d.jpg`), then numbered (`…_1a2b3c4d-2.jpg`). All FAT-safe.
    public static func alternativeName(_ name: String, booth: String, attempt: Int) -> String {
        guard attempt > 0 else { return name }
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let tag = String(booth.prefix(8))
        let number = attempt == 1 ? "" : "-\(attempt)"
        return "\(name[..<dot])_\(tag)\(number)\(name[dot...])"
    }
}
