// StickExporter+Folders: the export folder's date folders (opened, made durable), their listing, the room left.
import BoothCore
import BoothSystem
import Glibc

extension ExportRun {
    /// Opens the folder `name` in `parent`, creating it if needed. A folder it creates is flushed
    /// through its parent at once: on FAT, mkdir writes the parent's entry, the FAT chain and the new
    /// folder's own cluster ('.' and '..') in no fixed order, and only the parent's fsync writes that
    /// cluster. Until then a power cut can leave a folder fsck has to rebuild (the power-cut-stick rig
    /// scenario saw it at every flush between the export folder's mkdir and the first photo's rename).
    func openDirectory(
        _ name: String, in parent: FileDescriptor, path: String, parentPath: String
    ) throws(ExportError) -> FileDescriptor {
        var created = true
        do throws(SystemError) {
            try SystemError.check("mkdir", path) { ops.mkdirat(parent, name, 0o755) }
        } catch let error where error.code == .fileExists {
            created = false
        } catch {
            throw fail(error)
        }
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try SystemError.check("open", path) {
                ops.openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch let error where error.code == .tooManySymbolicLinkLevels || error.code == .notDirectory {
            throw ExportError(.refusedLink(path), done: done, total: total)
        } catch {
            throw fail(error)
        }
        if created {
            do throws(SystemError) {
                try SystemError.check("fsync", parentPath) { ops.fsync(parent) }
            } catch {
                _ = ops.close(fd)
                throw fail(error)
            }
        }
        return fd
    }

    func dateDirectory(_ folder: String) throws(ExportError) -> FileDescriptor {
        if let fd = dateFDs[folder] { return fd }
        let fd = try openDirectory(
            folder, in: try exportFolder, path: "\(exportPath)/\(folder)", parentPath: exportPath)
        dateFDs[folder] = fd
        return fd
    }

    func checkRoom(for size: Int64, path: String) throws(ExportError) {
        var volume = statvfs()
        guard ops.fstatvfs(try exportFolder, &volume) == 0 else { return }
        // Room for the file plus slack for folder entries and the manifest.
        let free = Int64(volume.f_bavail) * Int64(volume.f_frsize)
        if free < size + 256 * 1024 { throw fail("write", path, ENOSPC) }
    }

    /// The regular files in the date folders (`folder/name` → size); removes temp files an
    /// interrupted export left, and empty files under export names. Only names an export writes are
    /// ever removed (`ExportPlan.isExportName`): anybody else's file stays. Links and odd names are
    /// ignored (they only occupy names).
    func listPresent() throws(ExportError) -> [String: Int64] {
        var present: [String: Int64] = [:]
        let export = try exportFolder
        for (folder, mode, _) in try entries(of: export, path: exportPath)
        where mode == S_IFDIR && !folder.hasPrefix(".") {
            let fd = try check("open", "\(exportPath)/\(folder)") {
                ops.openat(export, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
            defer { _ = ops.close(fd) }
            let listed = try entries(of: fd, path: "\(exportPath)/\(folder)")
            let names = Set(listed.map(\.0))
            for (name, mode, size) in listed {
                let temporaryOf = name.hasPrefix(".") ? String(name.dropFirst().dropLast(".partial".count)) : ""
                if name.hasSuffix(".partial") && ExportPlan.isExportName(temporaryOf) && mode == S_IFREG {
                    // Should a FAT rename ever leave the temp name and the final name on the same
                    // clusters (DurableFile's order prevents it), deleting the temp would free the
                    // photo's: left alone then.
                    if !names.contains(temporaryOf) {
                        _ = ops.unlinkat(fd, name, 0)
                    }
                } else if mode == S_IFREG && size == 0 && ExportPlan.isExportName(name) {
                    // An empty file under a photo's name: what a pull between the two flushes of a FAT
                    // rename leaves (see DurableFile). It holds nothing and owns no clusters: removed,
                    // so the photo is copied again under its own name.
                    if ops.unlinkat(fd, name, 0) != 0 { present["\(folder)/\(name)"] = -1 }
                } else if mode == S_IFREG {
                    present["\(folder)/\(name)"] = size
                } else {
                    present["\(folder)/\(name)"] = -1  // occupied by something that is not a photo
                }
            }
        }
        return present
    }

    /// The entries of `directory` (name, file type, size), links not followed. An entry gone between
    /// the listing and its stat is left out; any other failure means the stick is failing.
    private func entries(of directory: FileDescriptor, path: String) throws(ExportError) -> [(String, mode_t, Int64)] {
        let names: [String]
        do throws(SystemError) {
            names = try SystemError.checkValue("opendir", path) { ops.names(in: directory) }
        } catch {
            throw fail(error)
        }
        var result: [(String, mode_t, Int64)] = []
        for name in names {
            var info = stat()
            do throws(SystemError) {
                try SystemError.check("stat", "\(path)/\(name)") {
                    ops.fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW)
                }
            } catch let error where error.code == .noSuchFileOrDirectory {
                continue
            } catch {
                throw fail(error)
            }
            result.append((name, info.st_mode & S_IFMT, Int64(info.st_size)))
        }
        return result
    }
}
