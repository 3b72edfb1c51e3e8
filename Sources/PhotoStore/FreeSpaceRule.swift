// FreeSpaceRule: when the photo store has room, and how much the cleanup of exported photos frees; the one owner of
// the store's free-space thresholds (the save, the storage report and `booth doctor` ask it).

/// The free space the booth keeps on the photo store's file system: `reserve` stays free whatever is saved.
public struct FreeSpaceRule: Sendable, Equatable {
    /// What one typical photo takes: the store "has room" while one more fits above the reserve.
    public static let typicalPhotoBytes: Int64 = 8 * 1024 * 1024
    /// What the cleanup frees beyond the reserve, so it does not run again at the next photo.
    public static let cleanupMarginBytes: Int64 = 64 * 1024 * 1024

    /// Bytes that stay free (`booth.free_space_reserve_mb`).
    public let reserve: Int64

    public init(reserve: Int64) { self.reserve = reserve }

    /// Whether `bytes` more fit with `free` bytes free and the reserve left over.
    public func fits(_ bytes: Int64, free: Int64) -> Bool { free - bytes >= reserve }

    /// Whether a typical photo still fits with `free` bytes free.
    public func hasRoom(free: Int64) -> Bool { fits(Self.typicalPhotoBytes, free: free) }

    /// The free space the cleanup of exported photos removes them until.
    public var cleanupTarget: Int64 { reserve + Self.cleanupMarginBytes }
}
