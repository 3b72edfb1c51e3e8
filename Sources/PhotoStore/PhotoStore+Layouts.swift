// PhotoStore+Layouts: the print layouts and companion files kept beside the photos, and a deleted photo's layouts.
import BoothSystem
import Glibc
import PhotoModel

extension PhotoStore {
    /// A print layout kept in the store's `layouts/` folder.
    public struct Layout: Sendable, Hashable {
        /// Its file name (`LayoutName`).
        public var name: String
        /// Its size in bytes.
        public var size: Int64
    }

    /// The layouts kept in the store's `layouts/` folder, by name: regular files under a layout's name (temp files,
    /// links and anything else there are left out). None when the folder is missing.
    public func layouts() throws(SystemError) -> [Layout] {
        let folder = Self.layoutsDirectory(of: directory)
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try SystemError.check("opendir", folder) {
                file.operations.open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch  where error.code == .noSuchFileOrDirectory {
            return []
        }
        defer { _ = file.operations.close(fd) }
        let names = try SystemError.checkValue("readdir", folder) { file.operations.names(in: fd) }
        var found: [Layout] = []
        for name in names.sorted() where LayoutName(fileName: name) != nil {
            var info = stat()
            do throws(SystemError) {
                try SystemError.check("stat", "\(folder)/\(name)") {
                    file.operations.fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW)
                }
            } catch  where error.code == .noSuchFileOrDirectory {
                continue
            }
            if info.st_mode & S_IFMT == S_IFREG { found.append(Layout(name: name, size: Int64(info.st_size))) }
        }
        return found
    }

    /// A file kept beside a photo in the store (`Companion`, the camera's RAW), found by its name.
    public struct CompanionFile: Sendable, Hashable {
        /// Its file name (`PhotoName.companionFileName(extension:)`).
        public var name: String
        /// Its size in bytes.
        public var size: Int64
        /// The file name of the photo it belongs to.
        public var photo: String
    }

    /// The companions kept beside the photos, by name: regular files under a companion's name (temp files, links and
    /// anything else are left out), whether or not their photo is still kept.
    public func companionFiles() throws(SystemError) -> [CompanionFile] {
        let fd = try SystemError.check("opendir", directory) {
            file.operations.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        }
        defer { _ = file.operations.close(fd) }
        let names = try SystemError.checkValue("readdir", directory) { file.operations.names(in: fd) }
        var found: [CompanionFile] = []
        for name in names.sorted() {
            guard let photo = PhotoName(companionFileName: name) else { continue }
            var info = stat()
            do throws(SystemError) {
                try SystemError.check("stat", "\(directory)/\(name)") {
                    file.operations.fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW)
                }
            } catch  where error.code == .noSuchFileOrDirectory {
                continue
            }
            if info.st_mode & S_IFMT == S_IFREG {
                found.append(CompanionFile(name: name, size: Int64(info.st_size), photo: photo.fileName))
            }
        }
        return found
    }

    /// Deletes the layouts named after the photo `photo` (a file name) when cleanup deletes it: a layout's first
    /// photo gone, the layout goes too, so cleanup frees their room and nothing offers a layout of deleted photos.
    /// A layout that cannot be deleted stays (it is derived; the cleanup goes on).
    func removeLayouts(namedAfter photo: String) {
        guard let name = PhotoName(fileName: photo) else { return }
        let folder = Self.layoutsDirectory(of: directory)
        var removedAny = false
        for layout in LayoutName.fileNames(of: name) {
            if file.operations.unlink("\(folder)/\(layout)") == 0 { removedAny = true }
        }
        if removedAny { try? file.syncDirectory(folder) }
    }
}
