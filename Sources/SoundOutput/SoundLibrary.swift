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
        let directory: FileDescriptor
        let names: [String]
        switch candidateNames(in: folder, operations) {
        case .success(let found): (directory, names) = found
        case .failure(let error):
            if case .unreadable(_, ENOENT) = error.reason { return result }
            result.rejections.append(error)
            return result
        }
        defer { _ = operations.close(directory) }
        for name in names {
            do {
                let bytes = try readRegularFile(in: directory, name: name, operations)
                let buffer = try WAVDecoder.decode(bytes, file: name)
                result.sounds.append(CustomSound(name: stem(of: name), buffer: buffer))
            } catch {
                result.rejections.append(error)
            }
        }
        return result
    }

    /// How much a sounds folder may hold after an import: a stick cannot fill the SD card or crowd the knob.
    public struct ImportLimits: Sendable, Equatable {
        /// WAV files in the sounds folder, those there before included.
        public var count: Int
        /// Their bytes together.
        public var bytes: Int

        /// At most `count` sounds of `bytes` together (20 sounds of 16 MiB by default: eight 5 s stereo
        /// sounds at 48 kHz, or twenty short ones).
        public init(count: Int = 20, bytes: Int = 16 * 1024 * 1024) {
            self.count = count
            self.bytes = bytes
        }
    }

    /// Copies every valid WAV file from the folder `source` (a descriptor; `sourcePath` names it in
    /// messages) into `destination` (which must exist), by name, while the folder stays within `limits`
    /// (the rest are reported). A sound the folder already has is never replaced: the stick's file of that
    /// name is reported instead, with the fix.
    ///
    /// Each file is opened relative to `source` with `O_NOFOLLOW` (a link is refused, never followed),
    /// checked by decoding it, then written with `DurableFile` (a temporary name, `fsync`, a rename that
    /// never replaces, the folder flushed), so the sounds folder never holds a half-written file. Every
    /// call, on the stick and in the folder, goes through `operations`.
    public static func importSounds(
        from source: FileDescriptor, sourcePath: String, into destination: String,
        limits: ImportLimits = ImportLimits(),
        operations: any FileOperations = SystemFileOperations()
    ) -> ImportResult {
        var result = ImportResult(imported: [], rejections: [])
        let file = DurableFile(operations: operations)
        let names: [String]
        do throws(SystemError) {
            names = try SystemError.checkValue("readdir", sourcePath) { operations.names(in: source) }
        } catch {
            result.rejections.append(
                SoundFileError(file: sourcePath, reason: .unreadable(operation: "readdir", errno: error.errno)))
            return result
        }
        var present: [String: Int] = [:]  // The sounds folder's WAV files by lowercased stem, with their sizes.
        switch folderContents(destination, operations) {
        case .success(let found): present = found
        case .failure(let error):  // Nothing can be copied: each file says so.
            guard case .unreadable(let operation, let code) = error.reason else { return result }
            result.rejections = candidates(names).map {
                SoundFileError(file: $0, reason: .cannotCopy(operation: operation, errno: code))
            }
            return result
        }
        var (count, bytes) = (present.count, present.values.reduce(0, +))
        for name in candidates(names) {
            do throws(SoundFileError) {
                guard present[stem(of: name).lowercased()] == nil else {
                    throw SoundFileError(file: name, reason: .alreadyThere(sound: stem(of: name)))
                }
                guard count < limits.count else {
                    throw SoundFileError(file: name, reason: .tooMany(limit: limits.count))
                }
                let data = try readRegularFile(in: source, name: name, operations)
                guard bytes + data.count <= limits.bytes else {
                    throw SoundFileError(file: name, reason: .folderFull(limit: limits.bytes))
                }
                _ = try WAVDecoder.decode(data, file: name)
                let temporary = ".\(name).importing"
                _ = operations.unlink("\(destination)/\(temporary)")  // A crash's leftover, never a sound.
                do throws(SystemError) {
                    try file.write(data, directory: destination, name: name, temporaryName: temporary)
                } catch {
                    // The rename never replaces: a sound of that name that appeared meanwhile stays.
                    throw SoundFileError(
                        file: name,
                        reason: error.operation == "rename" && error.code == .fileExists
                            ? .alreadyThere(sound: stem(of: name))
                            : .cannotCopy(operation: error.operation, errno: error.errno))
                }
                present[stem(of: name).lowercased()] = data.count
                count += 1
                bytes += data.count
                result.imported.append(name)
            } catch {
                result.rejections.append(error)
            }
        }
        return result
    }

    /// `importSounds(from:sourcePath:...)` from the folder at `source` (opened without following a link).
    public static func importSounds(
        from source: String, into destination: String, limits: ImportLimits = ImportLimits(),
        operations: any FileOperations = SystemFileOperations()
    ) -> ImportResult {
        let folder: FileDescriptor
        do throws(SystemError) {
            folder = try SystemError.check("opendir", source) {
                operations.open(source, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch {
            let reason = SoundFileError.Reason.unreadable(operation: "opendir", errno: error.errno)
            return ImportResult(imported: [], rejections: [SoundFileError(file: source, reason: reason)])
        }
        defer { _ = operations.close(folder) }
        return importSounds(
            from: folder, sourcePath: source, into: destination, limits: limits, operations: operations)
    }

    // MARK: - File access (through the file seam, no symlink following)

    /// The non-hidden `*.wav` names among `names`, sorted.
    private static func candidates(_ names: [String]) -> [String] {
        names.filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".wav") && $0.count > 4 }.sorted()
    }

    /// Sorted names of non-hidden `*.wav` entries in `folder`, and the folder open (the caller closes it).
    private static func candidateNames(
        in folder: String, _ operations: any FileOperations
    ) -> Result<(folder: FileDescriptor, names: [String]), SoundFileError> {
        do throws(SystemError) {
            let directory = try SystemError.check("opendir", folder) {
                operations.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
            }
            do throws(SystemError) {
                let names = try SystemError.checkValue("readdir", folder) { operations.names(in: directory) }
                return .success((directory, candidates(names)))
            } catch {
                _ = operations.close(directory)
                throw error
            }
        } catch {
            return .failure(
                SoundFileError(file: folder, reason: .unreadable(operation: error.operation, errno: error.errno)))
        }
    }

    /// The sounds folder's WAV files, by lowercased name without `.wav`, with their sizes (a missing folder
    /// is an error: the import needs it).
    private static func folderContents(
        _ folder: String, _ operations: any FileOperations
    ) -> Result<[String: Int], SoundFileError> {
        switch candidateNames(in: folder, operations) {
        case .failure(let error): return .failure(error)
        case .success(let (directory, names)):
            defer { _ = operations.close(directory) }
            var sizes: [String: Int] = [:]
            for name in names {
                var info = stat()
                let size = operations.fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? Int(info.st_size) : 0
                sizes[stem(of: name).lowercased()] = size
            }
            return .success(sizes)
        }
    }

    /// The content of regular file `name` in the folder `directory`, refusing links, non-files and
    /// oversized files.
    private static func readRegularFile(
        in directory: FileDescriptor, name: String, _ operations: any FileOperations
    ) throws(SoundFileError) -> [UInt8] {
        func fail(_ operation: String, _ code: Int32) -> SoundFileError {
            SoundFileError(
                file: name,
                reason: Errno(rawValue: code) == .tooManySymbolicLinkLevels
                    ? .notRegularFile : .unreadable(operation: operation, errno: code))
        }
        let descriptor: FileDescriptor
        do throws(SystemError) {
            descriptor = try SystemError.check("open", name) {
                operations.openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0)
            }
        } catch {
            throw fail("open", error.errno)
        }
        defer { _ = operations.close(descriptor) }
        var info = stat()
        do throws(SystemError) {
            try SystemError.check("fstat", name) { operations.fstat(descriptor, &info) }
        } catch {
            throw fail("fstat", error.errno)
        }
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
            case .open(let code): throw fail("open", code)
            }
        }
    }

    /// `name` without its ".wav" extension.
    private static func stem(of name: String) -> String { String(name.dropLast(4)) }
}
