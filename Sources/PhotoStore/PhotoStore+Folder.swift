// PhotoStore+Folder: the store's folder: its lock, its photos listed, the booth's id, and small file helpers.
import BoothSystem
import Glibc
import PhotoModel

extension PhotoStore {
    /// The folder's lock file: held while a process writes the index or the booth id, or clears leftovers.
    public static let lockName = ".index.lock"

    /// Runs `body` holding the folder's lock (`flock` on `lockName`: every process that opens the store
    /// takes it). A lock file that cannot be made (a read-only folder) leaves `body` unlocked: it fails
    /// on its own write then, with the folder named.
    static func withFolderLock<T>(
        _ directory: String, _ ops: any FileOperations, _ body: () throws(SystemError) -> T
    ) throws(SystemError) -> T {
        let lock = ops.open("\(directory)/\(lockName)", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        defer { if let lock { _ = ops.close(lock) } }
        if let lock {
            _ = SystemError.retryingInterrupts { ops.flock(lock, LOCK_EX) }
        }
        return try body()
    }

    static func listing(
        directory: String, kept: [String], discarded: [String], operations: any FileOperations
    ) -> [PhotoIndex.ListedFile] {
        func files(_ names: [String], in folder: String, _ state: PhotoIndex.State) -> [PhotoIndex.ListedFile] {
            names.compactMap { name in
                guard PhotoName(fileName: name) != nil else { return nil }
                var info = stat()
                guard operations.lstat("\(folder)/\(name)", &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                    return nil
                }
                return PhotoIndex.ListedFile(name: name, state: state, size: Int64(info.st_size))
            }
        }
        return files(kept, in: directory, .kept) + files(discarded, in: "\(directory)/discarded", .discarded)
    }

    /// The booth's id (`BoothIdentity`): made up on first start, and again on a new machine, when the
    /// old one is returned too.
    static func loadBoothID(
        directory: String, file: DurableFile, machine: String?
    ) throws(SystemError) -> (
        String, String?
    ) {
        let stored = readSmallFile("\(directory)/\(boothIDName)", operations: file.operations)
            .flatMap(BoothIdentity.parse)
        let (identity, write) = BoothIdentity.resolve(stored: stored, machine: machine, newID: randomID)
        if write {
            try file.write(
                Array(identity.text.utf8), directory: directory, name: boothIDName,
                temporaryName: ".\(boothIDName).\(getpid()).partial", replacing: true)
        }
        return (identity.id, stored.map(\.id).flatMap { $0 == identity.id ? nil : $0 })
    }

    /// This machine's name for `BoothIdentity`: the board's serial number from the device tree (a
    /// Raspberry Pi's), else systemd's machine id; nil when neither can be read.
    public static func machineName() -> String? {
        for (kind, path) in [("serial", "/sys/firmware/devicetree/base/serial-number"), ("id", "/etc/machine-id")] {
            guard let text = readSmallFile(path) else { continue }
            let value = String(text.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
            if !value.isEmpty, value.count <= 64 { return "\(kind):\(value)" }
        }
        return nil
    }

    /// 16 random hex digits (a booth or stick id).
    public static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A file's text (at most 64 MiB), or nil when it cannot be read.
    public static func readSmallFile(_ path: String, operations: any FileOperations = SystemFileOperations()) -> String?
    {
        guard let fd = operations.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) else { return nil }
        defer { _ = operations.close(fd) }
        let bytes = try? FileReading.readAll(fd, limit: 64 << 20) { operations.read($0, $1) }
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Creates `path` and its parents (mode 0755).
    public static func makeDirectories(
        _ path: String, operations: any FileOperations = SystemFileOperations()
    ) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/\(part)"
            do throws(SystemError) {
                try SystemError.check("mkdir", current) { operations.mkdir(current, 0o755) }
            } catch  where error.code == .fileExists {}
        }
    }

    /// The names in a folder, without "." and "..".
    public static func fileNames(
        in directory: String, operations: any FileOperations = SystemFileOperations()
    ) throws(SystemError) -> [String] {
        let fd = try SystemError.check("opendir", directory) {
            operations.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        }
        defer { _ = operations.close(fd) }
        return try SystemError.checkValue("readdir", directory) { operations.names(in: fd) }
    }
}
