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
        /// The files of the same shot kept beside it in the store (the camera's RAW, `PhotoName.companionFileName`),
        /// each by its file name and size, to go beside its copy (`export.raw`); none: the photo alone.
        public var companions: [Photo]

        /// A photo.
        public init(
            name: String, size: Int64, folder: String? = nil, stickName: String? = nil, companions: [Photo] = []
        ) {
            (self.name, self.size, self.folder, self.stickName) = (name, size, folder, stickName)
            self.companions = companions
        }
    }

    /// One photo, companion (a RAW) or print layout to put on the stick.
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

        /// Whether it is a photo's companion (a RAW), not a photo.
        public var isCompanion: Bool { ExportPlan.isCompanionSource(source) }
    }

    /// Whether a manifest's or a plan's source is a print layout's (`LayoutName`), not a photo's: layouts are not
    /// photos of the index, and never let cleanup delete anything.
    public static func isLayoutSource(_ source: String) -> Bool { LayoutName(fileName: source) != nil }

    /// Whether a manifest's or a plan's source is a photo's companion (`PhotoName(companionFileName:)`, a RAW), not a
    /// photo's: like layouts, companions are not photos of the index, and never let cleanup delete anything.
    public static func isCompanionSource(_ source: String) -> Bool { PhotoName(companionFileName: source) != nil }

    /// Whether a manifest's or a plan's source is a photo of the index (neither a layout nor a companion): only these
    /// are ever recorded as exported (`PhotoStore.markExported`).
    public static func isPhotoSource(_ source: String) -> Bool { PhotoName(fileName: source) != nil }

    /// The name a photo's companion `source` (a RAW, its file name in the store) gets on a stick, before any tag
    /// (`alternativeName`): the stem of the photo's own name there, `photoName` (`Photo.stickName` or its name), with
    /// the companion's extension; nil when either is no such name.
    public static func companionStickName(_ source: String, photoName: String) -> String? {
        guard let ext = source.split(separator: ".").last, PhotoName(companionFileName: source) != nil else {
            return nil
        }
        return PhotoName(fileName: photoName)?.companionFileName(extension: String(ext))
    }

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
    /// Companions (RAWs) of this booth already on the stick.
    public var companionsAlreadyThere = 0
    /// What to copy or verify, oldest first.
    public var items: [Item] = []
    /// Photos skipped, with the reason.
    public var skipped: [Skip] = []

    /// Plans exporting `photos` (oldest first) of booth `booth` to a stick with `manifest`, where
    /// `present` lists the regular files under the export folder (`folder/name` → size) and files
    /// larger than `maximumFileSize` cannot be stored (FAT32: 4 GiB - 1). `layouts` (file names and sizes in the
    /// store's `layouts/` folder) follow the photos into the export folder's `layouts/` folder, planned as photos are.
    /// Each photo's `companions` (a RAW) follow it into its date folder, named after its copy's own name
    /// (`companionStickName`), planned as photos are; a photo already there still gets a companion not yet there.
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
            let base = photo.stickName ?? photo.name
            // A dated name is filed by its date; an undated one by the date it was given since, if any.
            let parsed = PhotoName(fileName: base)
            let folder = parsed.map { $0.dateTime == nil ? photo.folder ?? $0.folder : $0.folder }
            if ours.contains(photo.name) {
                plan.alreadyThere += 1
            } else if parsed == nil {
                plan.skipped.append(Skip(source: photo.name, reason: "not a photo name"))
            } else if !FATName.isSafe(base) {
                plan.skipped.append(Skip(source: photo.name, reason: "the name is not valid on a FAT stick"))
            } else if let skip = sizeSkip(photo.name, size: photo.size, limit: maximumFileSize) {
                plan.skipped.append(skip)
            } else if let folder {
                plan.place(
                    photo, source: photo.name, folder: folder, booth: booth, present: presentSizes, claimed: &claimed)
            }
            for companion in photo.companions {
                let source = companion.name
                if ours.contains(source) {
                    plan.companionsAlreadyThere += 1
                    continue
                }
                guard let folder, let stickName = companionStickName(source, photoName: base), FATName.isSafe(source),
                    FATName.isSafe(stickName), PhotoName(companionFileName: source) == PhotoName(fileName: photo.name)
                else {
                    plan.skipped.append(Skip(source: source, reason: "not a name a photo's RAW has"))
                    continue
                }
                if let skip = sizeSkip(source, size: companion.size, limit: maximumFileSize) {
                    plan.skipped.append(skip)
                    continue
                }
                let file = Photo(name: source, size: companion.size, stickName: stickName == source ? nil : stickName)
                plan.place(
                    file, source: source, folder: folder, booth: booth, present: presentSizes, claimed: &claimed)
            }
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
            if let skip = sizeSkip(source, size: layout.size, limit: maximumFileSize) {
                plan.skipped.append(skip)
                continue
            }
            plan.place(
                layout, source: source, folder: LayoutName.folder, booth: booth, present: presentSizes,
                claimed: &claimed)
        }
        return plan
    }

    /// The skip for a file (`source`, `size` bytes) larger than the stick's file system allows (`limit`, FAT32's
    /// 4 GiB - 1); nil when it fits or there is no limit.
    private static func sizeSkip(_ source: String, size: Int64, limit: Int64?) -> Skip? {
        guard let limit, size > limit else { return nil }
        return Skip(source: source, reason: "larger than this stick's file system allows (4 GiB on FAT)")
    }

    /// Plans `file` (a photo, a companion or a layout, its file name `source`) into `folder` under the first of its names
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
        let what = isLayoutSource(source) ? "layout" : isCompanionSource(source) ? "RAW" : "photo"
        let name = base ?? source
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        return Skip(
            source: source,
            reason:
                "\(maximumAttempts) files in the stick's \(folder) folder already use this \(what)'s names (\(name[..<dot])*\(name[dot...])): remove or rename them to export it"
        )
    }

    /// Whether `name` is one an export writes: a photo name, or one with a booth's tag
    /// (`alternativeName`). Only such files (their temp files, or left empty by a pull) are ever
    /// deleted on a stick; everything else there belongs to someone else.
    public static func isExportName(_ name: String) -> Bool {
        isPhotoExportName(name) || isLayoutExportName(name) || isCompanionExportName(name)
    }

    /// Whether `name` is a companion's name (a RAW) as an export writes it: a photo's export name with a companion's
    /// extension instead of "jpg" (`…_000012.cr2`, `…_000012_1a2b3c4d.cr2`).
    static func isCompanionExportName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), PhotoName.isCompanionExtension(String(name[dot...].dropFirst()))
        else { return false }
        return isPhotoExportName(name[..<dot] + ".jpg")
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
