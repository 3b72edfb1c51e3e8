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

    /// Decodes every WAV file in `folder`, read through `operations`. A missing folder gives an empty result.
    public static func load(folder: String, operations: any FileOperations = SystemFileOperations()) -> LoadResult {
        var result = LoadResult(sounds: [], rejections: [])
        let names: [String]
        switch candidateNames(in: folder, operations) {
        case .success(let found): names = found
        case .failure(let error):
            if case .unreadable(_, ENOENT) = error.reason { return result }
            result.rejections.append(error)
            return result
        }
        for name in names {
            do {
                let bytes = try readRegularFile(folder: folder, name: name, operations)
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
    /// Each file is checked by decoding it, then written with `DurableFile` (a temporary name, `fsync`, a
    /// rename over any file of the same name, the folder flushed), so the sounds folder never holds a
    /// half-written file. Every call, on the stick and in the folder, goes through `operations`.
    public static func importSounds(
        from source: String, into destination: String, limit: Int = 20,
        operations: any FileOperations = SystemFileOperations()
    ) -> ImportResult {
        var result = ImportResult(imported: [], rejections: [])
        let file = DurableFile(operations: operations)
        let names: [String]
        switch candidateNames(in: source, operations) {
        case .success(let found): names = found
        case .failure(let error):
            result.rejections.append(error)
            return result
        }
        for name in names.dropFirst(limit) {
            result.rejections.append(SoundFileError(file: name, reason: .tooMany(limit: limit)))
        }
        for name in names.prefix(limit) {
            do throws(SoundFileError) {
                let bytes = try readRegularFile(folder: source, name: name, operations)
                _ = try WAVDecoder.decode(bytes, file: name)
                do throws(StoreError) {
                    try file.write(
                        bytes, directory: destination, name: name, temporaryName: ".\(name).importing", replacing: true)
                } catch {
                    throw SoundFileError(
                        file: name, reason: .cannotCopy(operation: error.operation, errno: error.errno))
                }
                result.imported.append(name)
            } catch {
                result.rejections.append(error)
            }
        }
        return result
    }

    // MARK: - File access (through the file seam, no symlink following)

    /// Sorted names of non-hidden `*.wav` entries in `folder`.
    private static func candidateNames(
        in folder: String, _ operations: any FileOperations
    ) -> Result<[String], SoundFileError> {
        func fail(_ operation: String) -> Result<[String], SoundFileError> {
            .failure(SoundFileError(file: folder, reason: .unreadable(operation: operation, errno: errno)))
        }
        let directory = operations.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard directory >= 0 else { return fail("opendir") }
        defer { _ = operations.close(directory) }
        guard let names = operations.names(in: directory) else { return fail("readdir") }
        return .success(
            names.filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".wav") && $0.count > 4 }.sorted())
    }

    /// The content of regular file `name` in `folder`, refusing links, non-files and oversized files.
    private static func readRegularFile(
        folder: String, name: String, _ operations: any FileOperations
    ) throws(SoundFileError) -> [UInt8] {
        func fail(_ operation: String, _ code: Int32) -> SoundFileError {
            SoundFileError(
                file: name, reason: code == ELOOP ? .notRegularFile : .unreadable(operation: operation, errno: code))
        }
        let descriptor = operations.open("\(folder)/\(name)", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0)
        guard descriptor >= 0 else { throw fail("open", errno) }
        defer { _ = operations.close(descriptor) }
        var info = stat()
        guard operations.fstat(descriptor, &info) == 0 else { throw fail("fstat", errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SoundFileError(file: name, reason: .notRegularFile) }
        let size = Int(info.st_size)
        guard size <= WAVDecoder.maximumBytes else {
            throw SoundFileError(file: name, reason: .tooLarge(bytes: size, limit: WAVDecoder.maximumBytes))
        }
        do {
            return try FileReading.readAll(descriptor, limit: WAVDecoder.maximumBytes) { operations.read($0, $1) }
        } catch {
            switch error {
            case .tooLarge(let limit):  // Grew since fstat.
                throw SoundFileError(file: name, reason: .tooLarge(bytes: limit + 1, limit: limit))
            case .read(let code): throw fail("read", code)
            }
        }
    }

    /// `name` without its ".wav" extension.
    private static func stem(of name: String) -> String { String(name.dropLast(4)) }
}
