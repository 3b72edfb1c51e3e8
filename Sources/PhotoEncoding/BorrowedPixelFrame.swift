// BorrowedPixelFrame: a frame whose planes are borrowed memory (a Swift array or a camera's mmap'd buffer).

/// One borrowed plane: valid only while the memory's owner keeps it alive.
public struct BorrowedPixelPlane {
    /// The plane's bytes, row after row.
    public var bytes: UnsafeRawBufferPointer
    /// Bytes from the start of one row to the next.
    public var stride: Int

    /// A plane over `bytes` with rows `stride` bytes apart.
    public init(bytes: UnsafeRawBufferPointer, stride: Int) {
        self.bytes = bytes
        self.stride = stride
    }
}

/// A frame over borrowed memory; use it only inside the closure that handed it to you.
///
/// It is deliberately not `Sendable`: the memory belongs to someone else (an array being
/// pinned, or a libcamera buffer that returns to the camera when released).
public struct BorrowedPixelFrame {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Memory layout of `planes`.
    public var format: PixelFormat
    /// Planes in the order `format` defines.
    public var planes: [BorrowedPixelPlane]

    /// A borrowed frame from its parts; checked by `validate()` and by the encoder.
    public init(width: Int, height: Int, format: PixelFormat, planes: [BorrowedPixelPlane]) {
        self.width = width
        self.height = height
        self.format = format
        self.planes = planes
    }

    /// Throws unless every plane exists and holds the bytes its format and size require.
    public func validate() throws(PhotoEncodingError) {
        guard width > 0, height > 0, width <= 65500, height <= 65500 else {
            throw .invalidDimensions(width: width, height: height)
        }
        guard planes.count == format.planeCount else {
            throw .wrongPlaneCount(format: format, expected: format.planeCount, actual: planes.count)
        }
        for (index, plane) in planes.enumerated() {
            let (rowBytes, rows) = format.planeGeometry(index, width: width, height: height)
            guard plane.stride >= rowBytes else {
                throw .strideTooSmall(plane: index, stride: plane.stride, minimum: rowBytes)
            }
            let required = plane.stride * (rows - 1) + rowBytes
            guard plane.bytes.count >= required, plane.bytes.baseAddress != nil else {
                throw .planeTooSmall(plane: index, byteCount: plane.bytes.count, required: required)
            }
        }
    }

    /// Copies the pixels into an owned frame with the same strides.
    public func copied() -> PixelFrame {
        PixelFrame(
            width: width, height: height, format: format,
            planes: planes.map { PixelPlane(bytes: Array($0.bytes), stride: $0.stride) })
    }
}
