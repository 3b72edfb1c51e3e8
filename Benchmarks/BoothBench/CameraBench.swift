// CameraBench: `booth-bench --camera N`, the shutter with a camera over USB beside the simulated camera module's path.
import Foundation
import PhotoEncoding

/// The booth's shutter with a camera over USB (libgphoto2's virtual camera, `Tests/VirtualCamera/prepare`'s
/// environment) measured beside the simulated camera module's path, in one run: the two alternate, `shots` presses
/// each. Per shot, from the booth's own events: the countdown's end → the trigger sent (the camera module: → the
/// exposure's start), the trigger → the camera's acknowledgement, and the countdown's end → the photo durable in the
/// store. Then a peer's way on the same camera: `gphoto2 --capture-image-and-download` spawned per shot (Debian's
/// `gphoto2`). Last, resident memory 3 s after start: the simulated camera, and libgphoto2 loaded and searching
/// with Debian's libraries (the wheel's, which the virtual camera needs, load more).
enum CameraBench {
    /// One shot as the booth's events tell it, in microseconds on the loop's clock.
    struct Shot {
        var countdownEnd = 0
        var sent: Int?
        var sensor = 0
        var durable = 0
    }

    static func rows(booth: String, shots: Int, work: URL) throws -> [(String, String)] {
        var environment = ProcessInfo.processInfo.environment
        guard let iolibs = environment["IOLIBS"], iolibs.contains("vusb") else {
            fatalError(
                "booth-bench --camera: run it in the virtual camera's environment: eval \"$(Tests/VirtualCamera/prepare)\""
            )
        }
        // A camera's JPEG of a photographer's size: 24 megapixels, with grain (a flat pattern compresses to nothing).
        let folder = work.appendingPathComponent("vcamera")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = try grainyJPEG(width: 6000, height: 4000)
        try Data(photo).write(to: folder.appendingPathComponent("photo.jpg"))
        environment["VCAMERADIR"] = folder.path
        setenv("VCAMERADIR", folder.path, 1)  // gphoto2, the peer
        let config = try BoothBench.writeConfig(in: work, name: "camera")

        var module: [Shot] = []
        var usb: [Shot] = []
        let half = max(1, shots / 2)
        for round in 0..<2 {
            let script = String(repeating: "press\nwait 2\n", count: half) + "quit\n"
            module += try shoot(
                booth, camera: "simulated", config: config.path, script: script,
                photos: work.appendingPathComponent("module-\(round)").path, environment: environment)
            usb += try shoot(
                booth, camera: "gphoto2", config: config.path, script: script,
                photos: work.appendingPathComponent("usb-\(round)").path, environment: environment)
        }
        let peer = try peerShots(half * 2, folder: work.appendingPathComponent("peer"), photo: photo)
        let peerTrigger = try peerShots(
            half * 2, folder: work.appendingPathComponent("peer-trigger"), photo: nil, arguments: ["--trigger-capture"])

        // Debian's libgphoto2: the wheel's folders off the library path, no virtual camera (none is found).
        var debian = environment
        debian["LD_LIBRARY_PATH"] = nil
        debian["IOLIBS"] = nil
        debian["CAMLIBS"] = nil
        let idle = "wait 3.5\nquit\n"
        let moduleRSS = try rss(
            booth, camera: "simulated", config: config.path, script: idle,
            photos: work.appendingPathComponent("rss-module").path, environment: environment)
        let usbRSS = try rss(
            booth, camera: "gphoto2", config: config.path, script: idle,
            photos: work.appendingPathComponent("rss-usb").path, environment: debian)

        func ms(_ values: [Int]) -> String {
            let sorted = values.map { Double($0) / 1000 }.sorted()
            return
                "\(BoothBench.fmt(BoothBench.median(sorted))) / \(BoothBench.fmt(BoothBench.percentile(sorted, 0.99)))"
        }
        let moduleDurable = module.map { $0.durable - $0.countdownEnd }
        let usbDurable = usb.map { $0.durable - $0.countdownEnd }
        return [
            ("camera's JPEG (bytes, 6000×4000)", "\(photo.count)"),
            ("shots: camera module (simulated) / over USB (virtual camera)", "\(module.count) / \(usb.count)"),
            (
                "module: countdown end → exposure start (ms, median / p99)",
                ms(module.map { $0.sensor - $0.countdownEnd })
            ),
            ("USB: countdown end → trigger sent (ms, median / p99)", ms(usb.map { ($0.sent ?? 0) - $0.countdownEnd })),
            ("USB: trigger sent → camera acknowledged (ms, median / p99)", ms(usb.map { $0.sensor - ($0.sent ?? 0) })),
            ("module: countdown end → photo durable (ms, median / p99)", ms(moduleDurable)),
            ("USB: countdown end → photo durable (ms, median / p99)", ms(usbDurable)),
            (
                "USB / module, countdown end → durable (median ratio)",
                String(
                    format: "%.2f",
                    BoothBench.median(usbDurable.map(Double.init))
                        / max(1, BoothBench.median(moduleDurable.map(Double.init))))
            ),
            (
                "peer: gphoto2 --trigger-capture spawned, to its exit (ms, median / p99)",
                peerTrigger.isEmpty ? "gphoto2 not installed (apt-get install gphoto2)" : ms(peerTrigger)
            ),
            (
                "peer: gphoto2 --capture-image-and-download spawned, to its exit (ms, median / p99)",
                peer.isEmpty ? "gphoto2 not installed (apt-get install gphoto2)" : ms(peer)
            ),
            ("RSS 3 s after start, simulated camera (KiB)", "\(moduleRSS)"),
            ("RSS 3 s after start, libgphoto2 loaded and searching, Debian's (KiB)", "\(usbRSS)"),
        ]
    }

    /// Runs `booth simulate --camera CAMERA` on `script` and reads every completed shot from its events.
    static func shoot(
        _ booth: String, camera: String, config: String, script: String, photos: String, environment: [String: String]
    ) throws -> [Shot] {
        var shots: [String: Shot] = [:]
        var done: [Shot] = []
        try simulate(booth, camera: camera, config: config, script: script, photos: photos, environment: environment) {
            object, _ in
            guard let type = object["type"] as? String, let id = object["capture"] as? String else { return }
            switch type {
            case "capture":
                shots[id] = Shot(
                    countdownEnd: object["trigger_us"] as? Int ?? 0, sent: object["sent_us"] as? Int,
                    sensor: object["sensor_us"] as? Int ?? 0)
            case "photoSaved":
                if var shot = shots.removeValue(forKey: id), let t = object["t_us"] as? Int {
                    shot.durable = t
                    done.append(shot)
                }
            default: break
            }
        }
        let wanted = script.components(separatedBy: "press").count - 1
        guard done.count == wanted else {
            fatalError("booth-bench --camera: \(camera) saved \(done.count) of \(wanted) photos")
        }
        return done
    }

    /// The booth's resident memory (KiB) once it has run 3 s.
    static func rss(
        _ booth: String, camera: String, config: String, script: String, photos: String, environment: [String: String]
    ) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: booth)
        process.arguments = [
            "simulate", "--camera", camera, "--config", config, "--photos", photos, "--script", "-",
            "--events-json", photos + ".events",
        ]
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        Thread.sleep(forTimeInterval: 3)
        let sampled = BoothRun.rss(process.processIdentifier)
        process.waitUntilExit()
        return sampled
    }

    /// `booth simulate` with its events on standard output, each handed to `event` with the booth's pid.
    static func simulate(
        _ booth: String, camera: String, config: String, script: String, photos: String,
        environment: [String: String], event: ([String: Any], Int32) -> Void
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: booth)
        process.arguments = [
            "simulate", "--camera", camera, "--config", config, "--photos", photos, "--script", "-", "--events-json",
            "-",
        ]
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        for object in EventLines(output.fileHandleForReading) { event(object, process.processIdentifier) }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            fatalError("booth-bench --camera: booth simulate --camera \(camera) exited \(process.terminationStatus)")
        }
    }

    /// `gphoto2 ARGUMENTS` (by default `--capture-image-and-download`, whose file is checked against `photo`) spawned
    /// `count` times on the virtual camera: spawn → its exit; empty when Debian's gphoto2 is not installed.
    static func peerShots(
        _ count: Int, folder: URL, photo: [UInt8]?, arguments: [String] = ["--capture-image-and-download"]
    ) throws -> [Int] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gphoto2") else { return [] }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var times: [Int] = []
        for i in 0..<count {
            let file = folder.appendingPathComponent("shot-\(i).jpg")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gphoto2")
            process.arguments = arguments + (photo == nil ? [] : ["--filename", file.path])
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let started = DispatchTime.now()
            try process.run()
            process.waitUntilExit()
            times.append(Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1000))
            guard process.terminationStatus == 0, photo.map({ (try? Data(contentsOf: file)) == Data($0) }) ?? true
            else {
                fatalError("booth-bench --camera: gphoto2 \(arguments.joined(separator: " ")) failed (shot \(i))")
            }
        }
        return times
    }

    /// A JPEG of `width`×`height` with the test pattern and a fixed grain, at the booth's quality.
    static func grainyJPEG(width: Int, height: Int) throws -> [UInt8] {
        var frame = TestPattern.render(width: width, height: height, text: "vusb")
        var state: UInt32 = 2_463_534_242
        for plane in frame.planes.indices {
            frame.planes[plane].bytes.withUnsafeMutableBufferPointer { bytes in
                for i in stride(from: 0, to: bytes.count, by: 16) {
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    bytes[i] = bytes[i] &+ UInt8(state & 3) &- 2
                }
            }
        }
        return try JPEGEncoder.encode(frame)
    }
}
