// VirtualCamera: the gphoto2 wheel's vusb camera (Tests/VirtualCamera/prepare), loaded with a photo of the test's own.
import Foundation
import GPhotoCapture
import PhotoEncoding
import Synchronization

/// The virtual camera libgphoto2's `vusb` driver emulates (a "Nikon DSC D750" on usb:001,001): each photo it takes
/// is the JPEG in `$VCAMERADIR`, byte for byte. Present when the tests run with `Tests/VirtualCamera/prepare`'s
/// environment (scripts/test sets it; `HEYLOOK_VCAMERA=1` then makes its absence a failure, not a skip).
public enum VirtualCamera {
    public static let model = "Nikon DSC D750"
    public static let port = "usb:001,001"

    /// Whether the environment selects the virtual camera.
    public static var isSelected: Bool { ProcessInfo.processInfo.environment["HEYLOOK_VCAMERA"] == "1" }

    /// One folder of photos for the whole process (the driver reads `VCAMERADIR` once): a JPEG made here.
    private static let folder = Mutex<(path: String, photo: [UInt8])?>(nil)

    /// The JPEG every photo of the virtual camera is, its folder set up on first use.
    public static func photo() throws -> [UInt8] {
        try folder.withLock { folder throws in
            if let folder { return folder.photo }
            let path = NSTemporaryDirectory() + "heylook-vcamera-\(getpid())"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let photo = try JPEGEncoder.encode(TestPattern.render(width: 64, height: 48, text: "vusb"))
            try Data(photo).write(to: URL(fileURLWithPath: path + "/photo.jpg"))
            setenv("VCAMERADIR", path, 1)
            folder = (path, photo)
            return photo
        }
    }

    /// One test at a time uses the camera (its settings are the process's): suites in other files run alongside.
    private static let turn = NSLock()

    /// Runs `body` while no other test uses the virtual camera.
    public static func exclusively<T>(_ body: () throws -> T) throws -> T {
        turn.lock()
        defer { turn.unlock() }
        return try body()
    }

    /// The virtual camera as `GPhotoCamera.find()` lists it.
    public static var found: GPhotoCamera.Found { GPhotoCamera.Found(model: model, port: port, canCapture: true) }
}
