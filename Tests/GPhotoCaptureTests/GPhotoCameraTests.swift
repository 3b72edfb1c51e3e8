// GPhotoCameraTests: libgphoto2 wrapped once, against the virtual camera of libgphoto2's vusb driver.
import BoothTestSupport
import Testing

@testable import GPhotoCapture

@Suite(
    .serialized, .offCooperativePool,
    .enabled(if: VirtualCamera.isSelected, "needs Tests/VirtualCamera/prepare's environment"))
struct GPhotoCameraTests {
    @Test func findsTheVirtualCameraAsOneThatCanTakePhotos() throws {
        try VirtualCamera.exclusively {
            _ = try VirtualCamera.photo()
            let found = GPhotoCamera.find()
            #expect(found == [VirtualCamera.found], "libgphoto2 found \(found)")
        }
    }

    @Test func aTriggeredPhotoArrivesAsAFileAndDownloadsByteForByte() throws {
        try VirtualCamera.exclusively {
            let photo = try VirtualCamera.photo()
            let camera = try GPhotoCamera(VirtualCamera.found)
            #expect(camera.name == "Nikon DSC D750 (usb:001,001)")
            // Its driver (ptp2) lists generic capture among its operations.
            #expect(camera.canTakePhotos)
            try camera.triggerCapture()
            var added: (folder: String, name: String)?
            for _ in 0..<20 where added == nil {
                if case .fileAdded(let folder, let name) = try camera.waitForEvent(within: .milliseconds(1000)) {
                    added = (folder, name)
                }
            }
            let file = try #require(added, "no file added after the trigger")
            #expect(file.name.hasSuffix(".JPG"))
            #expect(try camera.download(folder: file.folder, name: file.name) == photo)
            try camera.delete(folder: file.folder, name: file.name)
            #expect(throws: GPhotoError.self) { try camera.download(folder: file.folder, name: file.name) }
        }
    }

    @Test func theFreeSpaceOnItsCardIsRead() throws {
        try VirtualCamera.exclusively {
            _ = try VirtualCamera.photo()
            // vusb's one storage: 542792 KB free, its access "read-only with delete" (the computer's right to write:
            // the camera's own photos still go there, so the space counts).
            #expect(try GPhotoCamera(VirtualCamera.found).freeBytes() == 542_792 * 1024)
        }
    }

    @Test func settingsReadAndWriteAsText() throws {
        try VirtualCamera.exclusively {
            _ = try VirtualCamera.photo()
            let camera = try GPhotoCamera(VirtualCamera.found)
            #expect(camera.choices("capturetarget") == ["Internal RAM", "Memory card"])
            let before = try #require(camera.setting("capturetarget"))
            let other = before == "Memory card" ? "Internal RAM" : "Memory card"
            try camera.set("capturetarget", to: other)
            #expect(camera.setting("capturetarget") == other)
            try camera.set("capturetarget", to: before)
            #expect(camera.setting("batterylevel") == "50%")
            #expect(camera.setting("nosuchsetting") == nil)
            #expect(camera.choices("nosuchsetting") == [])
            #expect(throws: GPhotoError.self) { try camera.set("nosuchsetting", to: "1") }
        }
    }

    @Test func libgphoto2sErrorsBecomeWhatTheyMeanWithTheFix() throws {
        let camera = "Canon EOS 2000D (usb:001,005)"
        func error(_ code: Int32) -> GPhotoError {
            GPhotoCamera.error(code, camera: camera, operation: "trigger", detail: nil)
        }
        // Could not claim the USB device: another program holds it.
        #expect(error(-53) == .busy(camera: camera))
        #expect(error(-53).description.contains("gvfs-gphoto2-volume-monitor"))
        // The device is not found, or its I/O failed: unplugged or switched off.
        for code: Int32 in [-52, -7, -34, -35] { #expect(error(code) == .gone(camera: camera)) }
        #expect(error(-115) == .cardFull(camera: camera))
        #expect(error(-115).description.contains("keep_on_card = false"))
        // Anything else in libgphoto2's own words, with its code.
        #expect(error(-110) == .failed(camera: camera, operation: "trigger", code: -110, detail: "I/O in progress"))
        #expect(
            GPhotoCamera.error(-1, camera: camera, operation: "trigger", detail: "PTP Device Busy")
                == .failed(camera: camera, operation: "trigger", code: -1, detail: "PTP Device Busy"))
    }
}
