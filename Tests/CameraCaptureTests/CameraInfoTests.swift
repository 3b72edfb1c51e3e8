// CameraInfoTests: which of a camera's offered modes the booth streams (booth_camera_pick_mode).
import CameraCapture
import Testing

@Suite struct CameraInfoTests {
    static func camera(_ modes: [(String, Int, Int)]) -> CameraInfo {
        CameraInfo(
            index: 0, id: "test", model: "",
            modes: modes.map { CameraMode(pixelFormat: $0.0, width: $0.1, height: $0.2) })
    }

    /// A webcam streams YUYV only up to 1280x720 but MJPEG at 1920x1080: the larger picture wins.
    @Test func aWebcamsLargestPictureWinsOverItsUncompressedFormat() {
        let webcam = Self.camera([
            ("YUYV", 640, 480), ("YUYV", 1280, 720), ("MJPEG", 640, 480), ("MJPEG", 1920, 1080), ("MJPEG", 1280, 720),
        ])
        #expect(webcam.streamedMode == CameraMode(pixelFormat: "MJPEG", width: 1920, height: 1080))
    }

    /// Of equal sizes, the format needing least work: uncompressed before MJPEG, YUV420 before all.
    @Test func ofEqualSizesTheFormatNeedingLeastWorkWins() {
        #expect(
            Self.camera([("MJPEG", 1280, 720), ("YUYV", 1280, 720)]).streamedMode
                == CameraMode(pixelFormat: "YUYV", width: 1280, height: 720))
        let module = Self.camera([
            ("BGR888", 4608, 2592), ("RGB888", 4608, 2592), ("NV12", 4608, 2592), ("YUV420", 4608, 2592),
            ("YUV420", 2304, 1296),
        ])
        #expect(module.streamedMode == CameraMode(pixelFormat: "YUV420", width: 4608, height: 2592))
    }

    /// Formats the booth cannot encode (a sensor's raw Bayer) are passed over however large; none at all is nil.
    @Test func formatsTheBoothCannotEncodeArePassedOver() {
        #expect(
            Self.camera([("SRGGB10_CSI2P", 4608, 2592), ("NV12", 1920, 1080)]).streamedMode
                == CameraMode(pixelFormat: "NV12", width: 1920, height: 1080))
        #expect(Self.camera([("SRGGB10_CSI2P", 4608, 2592), ("H264", 1920, 1080)]).streamedMode == nil)
        #expect(Self.camera([]).streamedMode == nil)
    }
}
