// PixelFrame: an owned, Sendable image in one of the `PixelFormat` layouts.

/// One plane of an owned frame: rows of `stride` bytes, of which the first ones carry pixels.
public struct PixelPlane: Sendable, Equatable {
    /// The plane's bytes, row after row.
    public var bytes: [UInt8]
    /// Bytes from the start of one row to the next; may exceed the row's payload.
    public var stride: Int

    /// A plane over `bytes` with rows `stride` bytes apart.
    public init(bytes: [UInt8], stride: Int) {
        self.bytes = bytes
        self.stride = stride
    }
}

/// An owned image whose planes live in Swift arrays; safe to send across threads.
public struct PixelFrame: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Memory layout of `planes`.
    public var format: PixelFormat
    /// Planes in the order `format` defines (Y, U, V / Y, UV / RGB).
    public var planes: [PixelPlane]

    /// A frame from its parts; checked when encoded, not here.
    public init(width: Int, height: Int, format: PixelFormat, planes: [PixelPlane]) {
        self.width = width
        self.height = height
        self.format = format
        self.planes = planes
    }

    /// Calls `body` with a borrowed view of this frame's planes, without copying them.
    public func withBorrowedFrame<R, E: Error>(
        _ body: (BorrowedPixelFrame) throws(E) -> R
    ) throws(E) -> R {
        try Self.borrow(planes[...], into: [], width: width, height: height, format: format, body)
    }

    /// Pins each plane's array in turn, then calls `body` with all of them pinned.
    private static func borrow<R, E: Error>(
        _ remaining: ArraySlice<PixelPlane>,
        into pinned: [BorrowedPixelPlane],
        width: Int, height: Int, format: PixelFormat,
        _ body: (BorrowedPixelFrame) throws(E) -> R
    ) throws(E) -> R {
        guard let plane = remaining.first else {
            return try body(BorrowedPixelFrame(width: width, height: height, format: format, planes: pinned))
        }
        let result: Result<R, E> = plane.bytes.withUnsafeBytes { buffer in
            let next = pinned + [BorrowedPixelPlane(bytes: buffer, stride: plane.stride)]
            do throws(E) {
                return .success(
                    try borrow(remaining.dropFirst(), into: next, width: width, height: height, format: format, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
