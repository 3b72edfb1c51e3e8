// FrameLayout: where a frame's color planes lie in its buffers, as the shim works it out.
import LibcameraShim
import PhotoEncoding

/// Where a frame's color planes lie in its mapped buffers, as the shim works it out for every camera
/// buffer it maps (`booth_camera_layout`): one buffer plane per color plane, or one holding them all
/// back to back (a Pi camera's YUV420). Public so tests can feed it the buffers a Pi delivers, which
/// vimc (RGB only) never does.
public enum FrameLayout {
    /// One buffer plane: the dmabuf's mapped memory, where in it the plane starts and how long it is.
    public struct BufferPlane {
        public var base: UnsafeRawPointer
        public var offset: Int
        public var length: Int

        public init(base: UnsafeRawPointer, offset: Int, length: Int) {
            self.base = base
            self.offset = offset
            self.length = length
        }
    }

    /// Why the planes do not fit the format.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The color planes of a `format` frame, `stride` bytes a luma (or RGB) row, in `buffers`.
    public static func planes(
        format: PixelFormat, width: Int, height: Int, stride: Int, buffers: [BufferPlane]
    ) throws(Problem) -> [BorrowedPixelPlane] {
        let described = buffers.map {
            booth_buffer_plane(base: $0.base.assumingMemoryBound(to: UInt8.self), offset: $0.offset, length: $0.length)
        }
        var out = (booth_frame_plane(), booth_frame_plane(), booth_frame_plane())
        var problem: UnsafePointer<CChar>?
        let count = withUnsafeMutablePointer(to: &out) { tuple in
            tuple.withMemoryRebound(to: booth_frame_plane.self, capacity: 3) { planes in
                booth_camera_layout(
                    Int32(bitPattern: shimFormat(format)), UInt32(width), UInt32(height), UInt32(stride), described,
                    described.count, planes, &problem)
            }
        }
        guard count >= 0 else {
            throw Problem(description: problem.map { String(cString: $0) } ?? "camera buffer does not fit its format")
        }
        return [out.0, out.1, out.2].prefix(Int(count)).map {
            BorrowedPixelPlane(bytes: UnsafeRawBufferPointer(start: $0.data, count: $0.length), stride: $0.stride)
        }
    }

    private static func shimFormat(_ format: PixelFormat) -> UInt32 {
        switch format {
        case .yuv420: BOOTH_PIXEL_FORMAT_YUV420.rawValue
        case .nv12: BOOTH_PIXEL_FORMAT_NV12.rawValue
        case .rgb24: BOOTH_PIXEL_FORMAT_RGB24.rawValue
        case .bgr24: BOOTH_PIXEL_FORMAT_BGR24.rawValue
        case .yuyv: BOOTH_PIXEL_FORMAT_YUYV.rawValue
        case .mjpeg: BOOTH_PIXEL_FORMAT_MJPEG.rawValue
        }
    }
}
