// SimulateCommandTests: `booth simulate` as a user runs it, with a camera over USB (libgphoto2's virtual camera).
import BoothTestSupport
import Foundation
import Testing

/// The real binary's `booth simulate --camera gphoto2`: the booth's sequence from a script, photos from the camera
/// the config names, and the options that cannot go with it refused with the fix.
@Suite(
    .timeLimit(.minutes(3)), .serialized, .offCooperativePool,
    .enabled(if: VirtualCamera.isSelected, "needs Tests/VirtualCamera/prepare's environment"))
struct SimulateCommandTests {
    /// Runs `booth simulate ARGUMENTS` with `script` on standard input; its exit status and standard error.
    private func simulate(_ arguments: [String], script: String) throws -> (status: Int32, errors: String) {
        try runBoothSimulate(arguments, script: script)
    }

    private func config(in folder: String) throws -> String {
        let path = folder + "/booth.toml"
        try """
        [booth]
        state_file = "\(folder)/state.toml"
        review_window = 0.0
        [sound]
        favourites = ["Pop"]
        default = "Pop"
        [countdown]
        default_delay = 0.5
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aPressTakesThePhotoWithTheCameraOverUSB() throws {
        try VirtualCamera.exclusively {
            let photo = try VirtualCamera.photo()
            let folder = temporaryDirectory()
            let events = folder + "/events.jsonl"
            let run = try simulate(
                [
                    "--camera", "gphoto2", "--config", try config(in: folder), "--photos", folder + "/photos",
                    "--events-json", events,
                ], script: "press\nwait 3\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.errors.contains("camera gphoto2:Nikon DSC D750 (usb:001,001)"))
            let lines = String(decoding: readFile(events) ?? [], as: UTF8.self).split(separator: "\n")
            let saved = lines.filter { $0.contains("\"type\":\"photoSaved\"") }
            #expect(saved.count == 1)
            let capture = try #require(lines.first { $0.contains("\"type\":\"capture\"") })
            #expect(capture.contains("\"sent_us\":"))
            let names = try folderNames(folder + "/photos").filter { $0.hasSuffix(".jpg") }
            #expect(names.count == 1)
            #expect(readFile(folder + "/photos/" + (names.first ?? "")) == photo)
        }
    }

    @Test func virtualTimeAndAStalledCameraAreRefusedWithTheFix() throws {
        let folder = temporaryDirectory()
        let config = try config(in: folder)
        let fast = try simulate(["--camera", "gphoto2", "--fast", "--config", config], script: "press\nquit\n")
        #expect(fast.status != 0)
        #expect(fast.errors.contains("a camera over USB takes real time: drop --fast"))
        let stalled = try simulate(
            ["--camera", "gphoto2", "--camera-stall", "--config", config], script: "press\nquit\n")
        #expect(stalled.status != 0)
        #expect(stalled.errors.contains("--camera-stall stalls the simulated camera"))
        // Refused before anything started: no events, no photos, no state.
        #expect(try folderNames(folder) == ["booth.toml"])
    }
}
