// SoundLibrary: loads the sounds folder and imports WAV files into it, one bad file never stopping the rest.

import BoothSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Loads custom sounds from a folder and imports them from another (a USB stick), file by file.
///
/// Only regular files named `*.wav` (any case) that are not hidden (`.` prefix, which also skips
/// macOS `._` resource files) are considered; symbolic links are refused, never followed.
public enum SoundLibrary {
    /// What loading a folder produced.
    public struct LoadResult: Sendable, Equatable {
        /// Sounds that decoded, sorted by name.
        public var sounds: [CustomSound]
        /// Files refused, with the reason.
        public var rejections: [SoundFileError]
    }

    /// What importing from a folder produced.
    public struct ImportResult: Sendable, Equatable {
        /// File names copied into the sounds folder, sorted.
        public var imported: [String]
        /// Files refused or not copied, with the reason.
        public var rejections: [SoundFileError]
    }

    /// Decodes every WAV file in `folder`. A missing folder gives an empty result.
    public static func load(folder: String) -> LoadResult {
        var result = LoadResult(sounds: [], rejections: [])
        let names: [String]
        switch candidateNames(in: folder) {
        case .success(let found): names = found
        case .failure(let error):
            if case .unreadable(_, ENOENT) = error.reason { return result }
            result.rejections.append(error)
            return result
        }
        for name in names {
            do {
                let bytes = try readRegularFile(folder: folder, name: name)
                let buffer = try WAVDecoder.decode(bytes, file: name)
                result.sounds.append(CustomSound(name: stem(of: name), buffer: buffer))
            } catch {
                result.rejections.append(error)
            }
        }
        return result
    }

    /// Copies every valid WAV file from `source` into `destination` (which must exist), the first `limit`
    /// of them by name (the rest are reported, so a stick full of files cannot fill the card).
    ///
    /// Each file is checked by decoding it, written under a temporary name, flushed with `fsync`, then
    /// renamed over any file of the same name, so the sounds folder never holds a half-written file.
    public static func importSounds(from source: String, into destination: String, limit: Int = 20) -> ImportResult {
        var result = ImportResult(imported: [], rejections: [])
        let names: [String]
        switch candidateNames(in: source) {
        case .success(let found): names = found
        case .failure(let error):
            result.rejections.append(error)
            return result
        }
        for name in names.dropFirst(limit) {
            result.rejections.append(SoundFileError(file: name, reason: .tooMany(limit: limit)))
        }
        for name in names.prefix(limit) {
            do {
                let bytes = try readRegularFile(folder: source, name: name)
                _ = try WAVDecoder.decode(bytes, file: name)
                try writeAtomically(bytes, folder: destination, name: name)
                result.imported.append(name)
            } catch {
                result.rejections.append(error)
            }
        }
        if !result.imported.isEmpty { syncFolder(destination) }
        return result
    }

    // MARK: - File access (libc, no symlink following)

    /// Sorted names of non-hidden `*.wav` entries in `folder`.
    private static func candidateNames(in folder: String) -> Result<[String], SoundFileError> {
        guard let directory = opendir(folder) else {
            return .failure(SoundFileError(file: folder, reason: .unreadable(operation: "opendir", errno: errno)))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix("."), name.lowercased().hasSuffix(".wav"), name.count > 4 { names.append(name) }
        }
        return .success(names.sorted())
    }

    /// The content of regular file `name` in `folder`, refusing links, non-files and oversized files.
    private static func readRegularFile(folder: String, name: String) throws(SoundFileError) -> [UInt8] {
        func fail(_ operation: String, _ code: Int32) -> SoundFileError {
            SoundFileError(
                file: name, reason: code == ELOOP ? .notRegularFile : .unreadable(operation: operation, errno: code))
        }
        let descriptor = open("\(folder)/\(name)", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail("open", errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw fail("fstat", errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SoundFileError(file: name, reason: .notRegularFile) }
        let size = Int(info.st_size)
        guard size <= WAVDecoder.maximumBytes else {
            throw SoundFileError(file: name, reason: .tooLarge(bytes: size, limit: WAVDecoder.maximumBytes))
        }
        do {
            return try FileReading.readAll(descriptor, limit: WAVDecoder.maximumBytes)
        } catch {
            switch error {
            case .tooLarge(let limit):  // Grew since fstat.
                throw SoundFileError(file: name, reason: .tooLarge(bytes: limit + 1, limit: limit))
            case .read(let code): throw fail("read", code)
            }
        }
    }

    /// Writes `bytes` to `folder/name` via a temporary file, fsync and rename.
    private static func writeAtomically(_ bytes: [UInt8], folder: String, name: String) throws(SoundFileError) {
        func fail(_ operation: String, _ code: Int32) -> SoundFileError {
            SoundFileError(file: name, reason: .cannotCopy(operation: operation, errno: code))
        }
        let temporary = "\(folder)/.\(name).importing"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("open", errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw fail("write", code)
            }
            written += count
        }
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw fail("fsync", code)
        }
        close(descriptor)
        guard rename(temporary, "\(folder)/\(name)") == 0 else {
            let code = errno
            unlink(temporary)
            throw fail("rename", code)
        }
    }

    /// Flushes `folder`'s directory entries so the renames survive a power cut.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// `name` without its ".wav" extension.
    private static func stem(of name: String) -> String { String(name.dropLast(4)) }
}
