// DeviceFaultTests: each library's failure reaches the state machine as a fault of the right kind, with its words.
import BoothCore
import BoothSystem
import BoothTestSupport
import BoothTime
import CameraCapture
import GPhotoCapture
import Glibc
import SoundOutput
import Synchronization
import Testing
import USBSticks

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct DeviceFaultTests {
    /// errno read into kinds once: a device that answers ENODEV while open went away, while being opened it is not
    /// there; EIO is a device gone either way.
    @Test(arguments: [
        (ENODEV, true, DeviceFault.Kind.gone), (ENODEV, false, .missing), (ENXIO, true, .gone),
        (ENOENT, true, .missing), (EIO, false, .gone), (ESHUTDOWN, true, .gone), (EACCES, true, .notAllowed),
        (EPERM, false, .notAllowed), (EBUSY, false, .busy), (ENOSPC, true, .full), (EDQUOT, true, .full),
        (ETIMEDOUT, true, .timedOut),
        (EINVAL, true, .failed),
    ])
    func errnoIsReadIntoOneKind(code: Int32, inUse: Bool, kind: DeviceFault.Kind) {
        #expect(DeviceFault.Kind(errno: code, inUse: inUse) == kind)
    }

    @Test func eachLibrarysErrorKeepsItsWordsAndGetsItsKind() {
        let camera = CameraError.failed(camera: "imx708", operation: "queueRequest", errno: ENODEV, detail: "")
        #expect(
            DeviceFault(camera: camera)
                == DeviceFault(.camera, .gone, code: .system(ENODEV), operation: "queueRequest", camera.description))
        #expect(DeviceFault(camera: CameraError.timeout(camera: "imx708", cookie: 3)).kind == .timedOut)
        #expect(DeviceFault(camera: CameraError.busy(camera: "imx708")).kind == .busy)
        #expect(DeviceFault(camera: GPhotoError.cardFull(camera: "EOS")).kind == .full)
        #expect(DeviceFault(camera: GPhotoError.noPhoto(camera: "EOS", within: .seconds(10))).kind == .timedOut)
        let gphoto = GPhotoError.failed(camera: "EOS", operation: "gp_camera_trigger_capture", code: -7, detail: "")
        #expect(DeviceFault(camera: gphoto).code == .library("libgphoto2", -7))
        #expect(DeviceFault(camera: gphoto).operation == "gp_camera_trigger_capture")
        #expect(DeviceFault(camera: gphoto).codeName == "libgphoto2 -7")
        let sound = SoundDeviceError(operation: "snd_pcm_writei", device: "hw:0", errno: -ENODEV)
        #expect(
            DeviceFault(sound: sound)
                == DeviceFault(.sound, .gone, code: .system(ENODEV), operation: "snd_pcm_writei", sound.description))
        #expect(DeviceFault(sound: sound).codeName == "errno \(ENODEV)")
        let pulled = ExportError(.failed(SystemError("write", "/media/stick/HeyLook", errno: EIO)), done: 1, total: 3)
        #expect(DeviceFault(stick: pulled).kind == .gone)
        let stickFull = ExportError(
            .failed(SystemError("write", "/media/stick/HeyLook", errno: ENOSPC)), done: 1, total: 3)
        #expect(
            DeviceFault(stick: stickFull)
                == DeviceFault(.stick, .full, code: .system(ENOSPC), operation: "write", "\(stickFull)"))
        // A copy that read back wrong is a failing stick, not a pulled one, whatever errno the check gave.
        let differed = ExportError(.failed(SystemError("verify", "/media/stick/a.jpg", errno: EIO)), done: 1, total: 3)
        #expect(DeviceFault(stick: differed).kind == .failed)
        let stopped = DeviceFault(stick: ExportError(.stopped, done: 0, total: 3))
        #expect(stopped.kind == .failed && stopped.codeName == nil && stopped.operation == nil)
        let full = SystemError("save", "/var/lib/heylook/photos", errno: ENOSPC)
        #expect(
            DeviceFault(.store, full, inUse: false)
                == DeviceFault(.store, .full, code: .system(ENOSPC), operation: "save", "\(full)"))
    }

    /// A camera over USB unplugged at the shutter: the state machine is told the capture failed because the camera
    /// went away, with libgphoto2's words, not a string it would have to read.
    @Test func aCameraUnpluggedAtTheShutterReportsACameraGone() throws {
        let loop = try EventLoop()
        let failures = Mutex<[DeviceFault]>([])
        let context = DeviceContext(loop: loop) { event, _ in
            if case .captureFailed(_, let fault) = event {
                failures.withLock { $0.append(fault) }
                loop.stop()
            }
        }
        let found = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)
        let unplugged = ScriptedCamera(triggerError: .gone(camera: "Canon EOS 2000D (usb:001,005)"))
        let session = GPhotoSession(
            selector: "auto", keepOnCard: true, find: { [found] in [found] }, open: { _ in unplugged })
        let camera = try GPhotoDevice(context, session: session)
        camera.capture(CaptureID(sequence: 1, shot: 0), trigger: loop.now())
        loop.schedule(at: loop.now().advanced(by: .seconds(30))) { loop.stop() }
        try withExtendedLifetime(camera) { try loop.run() }
        camera.stop()
        let fault = try #require(failures.withLock { $0.first })
        #expect(fault.source == .camera && fault.kind == .gone)
        #expect(fault.message.contains("went away (unplugged"), "\(fault.message)")
    }
}
