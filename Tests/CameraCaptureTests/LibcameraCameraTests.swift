// LibcameraCameraTests: real libcamera on a machine without cameras.
import BoothTestSupport
import Testing

@testable import CameraCapture

/// On a machine without cameras (CI, this container): real libcamera, no mocks.
/// Capture itself is exercised in the QEMU rig with vimc.
@Suite(.timeLimit(.minutes(3)), .serialized, .offCooperativePool) struct LibcameraCameraTests {
    @Test func listWithoutCamerasIsEmpty() {
        #expect(LibcameraCamera.list().isEmpty)
        // The process-wide CameraManager is refcounted: listing twice starts it twice.
        #expect(LibcameraCamera.list().isEmpty)
    }

    @Test(arguments: ["0", "3", "/base/soc/i2c0mux/i2c@1/imx708@1a"])
    func openingAMissingCameraSaysSoAndHowToFixIt(selector: String) {
        #expect(throws: CameraError.noCamera(selector: selector, available: [])) {
            _ = try LibcameraCamera(selector: selector, width: 1920, height: 1080)
        }
        let message = CameraError.noCamera(selector: selector, available: []).description
        #expect(message.contains("\"\(selector)\"") && message.contains("ribbon cable"))
    }
}
