// OwnerSticks: the sticks made this booth's own, by the ids their manifests carry, kept in a file.
import BoothCore
import BoothSystem
import Glibc
import PhotoModel
import PhotoStore
import Synchronization

/// The sticks made this booth's own (`export.sticks = "owner"`): the ids their manifests carry (`stick <id>`),
/// one a line in a file beside the booth's state, written whole (crash-safe) each time one is added. Only these
/// sticks get photos, and only copies on them count for `cleanup_exported`. Shared by the export and save
/// threads. A stick's id is no secret (anyone holding the stick can copy its manifest): it tells the owner's
/// sticks from a guest's, it does not lock anyone out.
public final class OwnerSticks: Sendable {
    /// The file's name in its folder (the state file's).
    public static let fileName = "owner-sticks.txt"
    /// The folder holding the file.
    public let directory: String
    private let ids: Mutex<Set<String>>
    private let file: DurableFile

    /// The file holding the ids.
    public var path: String { "\(directory)/\(Self.fileName)" }

    /// The owner's sticks recorded in `directory` (none when the file does not exist yet; lines that are not a stick
    /// id are ignored).
    public init(directory: String, operations: any FileOperations = SystemFileOperations()) {
        self.directory = directory
        file = DurableFile(operations: operations)
        let text = PhotoStore.readSmallFile("\(directory)/\(Self.fileName)", operations: operations) ?? ""
        ids = Mutex(Set(text.split(whereSeparator: \.isWhitespace).filter(StoreID.isValid).map(String.init)))
    }

    /// Whether the stick whose manifest carries `id` is one of the owner's.
    public func contains(_ id: String) -> Bool {
        ids.withLock { $0.contains(id) }
    }

    /// Every owner's stick's id.
    public var all: Set<String> {
        ids.withLock { $0 }
    }

    /// Makes the stick whose manifest carries `id` one of the owner's: durable when this returns.
    public func add(_ id: String) throws(SystemError) {
        guard StoreID.isValid(id) else { throw SystemError("add", path, errno: EINVAL) }
        try ids.withLock { ids throws(SystemError) in
            guard !ids.contains(id) else { return }
            var updated = ids
            updated.insert(id)
            let text = updated.sorted().map { "\($0)\n" }.joined()
            try file.write(
                Array(text.utf8), directory: directory, name: Self.fileName,
                temporaryName: ".\(Self.fileName).partial", replacing: true)
            ids = updated
        }
    }
}
