// StickExporter+CopyLoop: an export's plan and its loop over the plan's files, each adopted or copied by the copier.
import BoothCore
import BoothSystem
import Glibc
import PhotoModel
import PhotoStore

extension ExportRun {
    func copyAll(started: () -> Void, progress: (Int, Int) -> Void) throws(ExportError) -> ExportSummary {
        guard FATName.isSafe(options.folder), !options.folder.hasPrefix("."), !options.folder.contains("/") else {
            throw fail("export", options.folder, EINVAL)
        }
        let admitted = try StickAdmission.admit(
            mountPoint, device: device, allowing: options.allowedFileSystems, operations: ops)
        rootFD = admitted.root
        let type = admitted.fileSystem
        if let owners = options.owners, !claim {
            guard let id = try ownID(), owners.contains(id) else {
                throw ExportError(.unknownStick(mountPoint: mountPoint), done: 0, total: 0)
            }
        }
        if !claim { started() }
        var volume = statvfs()
        if ops.fstatvfs(admitted.root, &volume) == 0, volume.f_flag & 1 /* ST_RDONLY */ != 0 {
            throw fail("export", mountPoint, EROFS)
        }
        exportFD = try openDirectory(options.folder, in: admitted.root, path: exportPath, parentPath: mountPoint)
        try lockStick()

        let (loaded, rebuilt) = try readManifest()
        manifest = loaded
        if claim {
            if let owners = options.owners {
                // The stick carries its id before the booth counts it as the owner's.
                try recordNow()
                do { try owners.add(manifest.stickID) } catch { throw ExportError(.failed(error), done: 0, total: 0) }
            }
            started()
        }
        let present = try listPresent()
        let kept = store.records().filter { $0.state == .kept }
        let layouts: [PhotoStore.Layout]
        do { layouts = try store.layouts() } catch { throw ExportError(.failed(error), done: 0, total: 0) }
        // With `export.raw` off nothing is listed: no companion is planned or read back. A companion whose photo is
        // no longer kept (cleanup deleted the JPEG) stays in the store, and off the sticks.
        var companions: [String: [PhotoStore.CompanionFile]] = [:]
        if options.raw {
            let keptNames = Set(kept.map(\.name))
            do {
                companions = Dictionary(
                    grouping: try store.companionFiles().filter { keptNames.contains($0.photo) }, by: \.photo)
            } catch {
                throw ExportError(.failed(error), done: 0, total: 0)
            }
        }
        for entry in kept where DatedCopy.isDue(entry) {
            try stopIfAsked()
            do throws(SystemError) {
                redatings[entry.name] = try DatedCopy(of: entry, in: store.directory, operations: ops)
            } catch {
                throw fail(error)
            }
        }
        let (verified, unverified) = try checkClaims(
            kept: kept, layouts: layouts, companions: companions.values.flatMap { $0 }, present: present)
        manifest.entries.removeAll { unverified.contains($0.path) }
        // A version 1 entry gains its SHA-256 once read back (its file and the booth's photo agree).
        var upgraded = false
        for i in manifest.entries.indices where manifest.entries[i].sha256 == nil {
            if let digest = verified[manifest.entries[i].path], manifest.entries[i].booth == store.boothID {
                manifest.entries[i].sha256 = digest.sha256
                upgraded = true
            }
        }
        // Only the claims read back and found right count as exported; only photos of the index are recorded there.
        claims = manifest.entries.filter {
            $0.booth == store.boothID && verified[$0.path] != nil && ExportPlan.isPhotoSource($0.source)
        }.map {
            ($0.source, sourceChecksums[$0.source] ?? $0.checksum)
        }
        let photos = kept.map { entry in
            let folder = entry.dated.map { PhotoName.DateTime(localSeconds: $0).dateString }
            let raws = (companions[entry.name] ?? []).map { ExportPlan.Photo(name: $0.name, size: $0.size) }
            guard let redated = redatings[entry.name] else {
                return ExportPlan.Photo(name: entry.name, size: entry.size, folder: folder, companions: raws)
            }
            return ExportPlan.Photo(
                name: entry.name, size: redated.size(of: entry.size), folder: folder, stickName: redated.stickName,
                companions: raws)
        }
        let plan = ExportPlan.make(
            photos: photos, layouts: layouts.map { ExportPlan.Photo(name: $0.name, size: $0.size) },
            booth: store.boothID, manifest: manifest, present: present,
            maximumFileSize: type == "vfat" ? FATName.maximumFileSize : nil)
        manifest.entries = plan.kept
        total = plan.items.count
        progress(0, total)
        var summary = ExportSummary(
            stickID: manifest.stickID, copied: 0, adopted: 0, alreadyThere: plan.alreadyThere, skipped: plan.skipped,
            bytes: 0,
            manifestRebuilt: rebuilt, unmounted: false, unmountError: nil)
        summary.layoutsAlreadyThere = plan.layoutsAlreadyThere
        summary.rawAlreadyThere = plan.companionsAlreadyThere
        // A rebuilt manifest or dropped entries are written even when nothing is copied.
        if rebuilt || upgraded || !plan.dropped.isEmpty || !unverified.isEmpty { unrecorded += 1 }

        nextPhoto: for item in plan.items {
            try stopIfAsked()
            let sourcePath = "\(store.directory)/\(ExportPlan.storePath(of: item.source))"
            let source: FileDescriptor
            do throws(SystemError) {
                source = try SystemError.check("open", sourcePath) {
                    ops.open(sourcePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
                }
            } catch let error where error.code == .noSuchFileOrDirectory {
                // Discarded (a retake) since the plan: not exported.
                // A layout goes when cleanup deletes its first photo.
                summary.skipped.append(ExportPlan.Skip(source: item.source, reason: "no longer kept"))
                total -= 1
                continue
            } catch {
                throw fail(error)
            }
            defer { _ = ops.close(source) }
            let folder = try dateDirectory(item.folder)
            let folderPath = "\(exportPath)/\(item.folder)"
            var attempt = item.attempt
            let redated = redatings[item.source]
            if item.adopt {
                let adopted = try failing { () throws(SystemError) in
                    try copier.adopt(
                        item, source: source, sourcePath: sourcePath, redated: redated, folder: folder,
                        folderPath: folderPath)
                }
                if let adopted {
                    record(item, adopted)
                    summary.count(item, adopted: true)
                    try recordIfDue()
                    progress(done, total)
                    continue
                }
                attempt += 1
            }
            while true {
                guard attempt < ExportPlan.maximumAttempts else {
                    summary.skipped.append(
                        ExportPlan.collisionSkip(item.source, base: item.stickName, folder: item.folder))
                    total -= 1
                    progress(done, total)
                    continue nextPhoto
                }
                try checkRoom(for: item.size, path: "\(folderPath)/\(item.name)")
                let name = ExportPlan.alternativeName(item.baseName, booth: store.boothID, attempt: attempt)
                let written = try failing { () throws(SystemError) in
                    try copier.write(
                        source, sourcePath: sourcePath, redated: redated, as: name, into: folder,
                        folderPath: folderPath)
                }
                // Nil: someone else's file took the name since the listing; the next name.
                guard let written else {
                    attempt += 1
                    continue
                }
                record(item, written)
                summary.count(item, adopted: false)
                summary.bytes += item.size
                break
            }
            try recordIfDue()
            progress(done, total)
        }
        summary.joinCardCopied = try copyJoinCard()
        return summary
    }
}
