// ExportOptions: where on the stick photos go, which file systems are accepted, and the calls used.
import BoothSystem

/// How `StickExporter` writes to a stick.
public struct ExportOptions: Sendable {
    /// The folder created at the stick's root (a single FAT-safe name).
    public var folder: String
    /// File system types accepted (as /proc/mounts names them); anything else is refused untouched.
    public var allowedFileSystems: Set<String>
    /// Whether to unmount the stick at the end (a plain folder that is not a mount point: false).
    public var unmount: Bool
    /// How it is unmounted (the booth asks systemd; tests and the rig's guest call umount2).
    public var unmounter: any StickUnmounter
    /// The manifest and the store's index are written after every this many photos (and at the end):
    /// an interrupted export loses at most this many records, and those photos are found and verified
    /// on the stick next time instead of being copied again.
    public var recordEvery: Int
    /// The calls made on the stick (a failing seam in tests).
    public var operations: any FileOperations
    /// Only these sticks get photos (`export.sticks = "owner"`); nil: every stick (`"any"`).
    public var owners: OwnerSticks?
    /// The join card `booth card` keeps for the sticks (`join-card.pdf` in the state folder), copied to the export
    /// folder when the stick has not the same; nil or no such file: none.
    public var joinCard: String?
    /// Whether each kept photo's companions (the camera's RAW kept beside it in the store) go beside its copy
    /// (`export.raw`); false: the photos alone.
    public var raw: Bool

    /// The file systems a stick may have unless told otherwise: FAT and exFAT, what cameras and phones read.
    public static let defaultFileSystems: Set<String> = ["vfat", "exfat"]

    /// Options; by default only FAT and exFAT sticks are accepted.
    public init(
        folder: String = "HeyLook", allowedFileSystems: Set<String> = defaultFileSystems, unmount: Bool = true,
        recordEvery: Int = 16, operations: any FileOperations = SystemFileOperations(),
        unmounter: any StickUnmounter = KernelUnmounter(), owners: OwnerSticks? = nil, joinCard: String? = nil,
        raw: Bool = false
    ) {
        self.raw = raw
        self.owners = owners
        self.joinCard = joinCard
        self.folder = folder
        self.allowedFileSystems = allowedFileSystems
        self.unmount = unmount
        self.unmounter = unmounter
        self.recordEvery = max(1, recordEvery)
        self.operations = operations
    }
}
