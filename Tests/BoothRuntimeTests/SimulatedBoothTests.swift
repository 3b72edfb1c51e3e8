// SimulatedBoothTests: the real controller and loop with simulated devices, driven by scripts.
import BoothCore
import BoothSystem
import BoothTestSupport
import BoothTime
import CBoothSys
import CameraCapture
import Glibc
import LEDCountdown
import PhotoEncoding
import PhotoModel
import PhotoStore
import SoundOutput
import Testing

@testable import BoothRuntime

/// The real controller and loop with simulated devices, driven by scripts: what `booth simulate` runs.
@Suite(.timeLimit(.minutes(3)), .serialized, .offCooperativePool) struct SimulatedBoothTests {
    struct Record {
        var type: String
        var fields: [String: String]
    }

    /// Runs `script` to its end (with `fast`, in virtual time); returns the events and the photos directory.
    func run(
        _ script: String, settings: BoothSettings = BoothSettings(), stateFile: String? = nil,
        cameraStalled: Bool = false, fast: Bool = false, sound: ((DeviceContext) -> any SoundDevice)? = nil,
        camera: ((DeviceContext) -> any CameraDevice)? = nil, stopAfter: Duration? = nil, eventsFile: String? = nil,
        clock: WallClock.Trust = .always, wallClock: WallClock? = nil, photos: String? = nil, exitCode: Int32 = 0,
        beforeController: (EventInbox) -> Void = { _ in }
    ) throws -> (events: [Record], photos: String) {
        var settings = settings
        let dir = temporaryDirectory()
        settings.photosDirectory = photos ?? "\(dir)/photos"
        settings.stateFile = stateFile ?? "\(dir)/state.toml"
        let log = try eventsFile.map { try EventsLog(rotating: $0, limit: 1 << 20) } ?? EventsLog(path: nil)
        var records: [Record] = []
        log.observers.append { type, time, fields in
            var map: [String: String] = ["t_us": String(time.microseconds)]
            for (key, value) in fields {
                switch value {
                case .string(let s): map[key] = s
                case .int(let i): map[key] = String(i)
                case .bool(let b): map[key] = String(b)
                }
            }
            records.append(Record(type: type, fields: map))
        }
        let lights = SimulatedLights(ledCount: settings.gpio.leds.count)
        let loop = try EventLoop(clock: LoopClock(virtual: fast))
        let inbox = EventInbox()
        let context = DeviceContext(loop: loop, inbox: inbox)
        let devices = BoothController.Devices(
            inputs: [
                ScriptInput(
                    context, script: try SimulationScript(parsing: script), longPress: settings.gpio.longPress,
                    remoteKeys: settings.remote.roles)
            ],
            sound: sound?(context) ?? SilentSound.builtIn(context),
            camera: camera?(context) ?? SimulatedCamera(context, width: 320, height: 240, stalled: cameraStalled),
            lights: lights)
        beforeController(inbox)
        let (choices, _) = ConfigLoader.choices(settings: settings)
        let controller = try BoothController(
            settings: settings, choices: choices, devices: devices, loop: loop, inbox: inbox, log: log,
            wallClock: wallClock ?? WallClock(trust: clock))
        if let stopAfter {
            // A booth stuck in a state would never end the script: stop it as SIGTERM would.
            controller.loop.schedule(at: controller.loop.now().advanced(by: stopAfter)) {
                controller.dispatch(.shutdownRequested(.abortSequence), at: controller.loop.now())
            }
        }
        #expect(try controller.run() == exitCode)
        #expect(lights.row == .dark)
        #expect(lights.buttonLED == false)
        return (records, settings.photosDirectory)
    }

    @Test func aPressTakesOnePhotoThatDecodesWithTheRatioAndExif() throws {
        let (events, photos) = try run("press\nwait 3\nquit\n")
        let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
        #expect(states == ["playingSound", "countingDown", "capturing", "processing", "idle"])
        let saved = events.filter { $0.type == "photoSaved" }
        #expect(saved.count == 1)
        let path = try #require(saved.first?.fields["path"])
        #expect(path.hasPrefix(photos))
        let bytes = try #require(readFile(path))
        let info = try JPEGInspector.inspect(bytes)
        #expect(info.width * 3 == info.height * 4)
        #expect(info.exif?.cameraModel == "HeyLook simulated camera")
        // The frame was exposed at or after the countdown's end.
        let capture = try #require(events.first { $0.type == "capture" })
        #expect(Int(capture.fields["sensor_us"]!)! >= Int(capture.fields["trigger_us"]!)!)
    }

    /// What a device and the workers report before the controller is made waits in the inbox and reaches the
    /// controller, in order, as it is made.
    @Test func reportsMadeBeforeTheControllerReachItInOrder() throws {
        let (events, _) = try run(
            "wait 0.1\nquit\n", fast: true,
            beforeController: { inbox in
                inbox.saved(.error("an early save report"))
                inbox.exported(.started(mountPoint: "/media/early"))
                inbox.saved(.error("a later save report"))
            })
        let early = events.filter { ["error", "exportStarted", "ready"].contains($0.type) }
            .map { $0.fields["message"] ?? $0.fields["stick"] ?? $0.type }
        #expect(early == ["an early save report", "/media/early", "a later save report", "ready"])
    }

    /// The controller carries the machine's pace to the camera: idle at start, full rate from the press,
    /// idle again after the photo; and its request for focus.
    @Test func theCameraIsPacedIdleFullIdle() throws {
        var camera: SimulatedCamera?
        _ = try run(
            "press\nwait 3\nquit\n", fast: true,
            camera: {
                camera = SimulatedCamera($0, width: 320, height: 240, stalled: false)
                return camera!
            })
        #expect(camera?.paces == [true, false, true])
        // The countdown's start asks the camera to focus, once per press.
        #expect(camera?.focusRequests == 1)
    }

    /// The EXIF the booth writes, read back by an independent reader (Debian's exiv2, not our libexif
    /// codec): the pixel dimensions after the crop, orientation 3 for `rotation = 180`, the camera and date.
    @Test func exiv2ReadsTheCropTheOrientationAndTheDate() throws {
        var settings = BoothSettings()
        settings.rotation = 180
        settings.ratio = .square
        let (events, _) = try run("press\nwait 3\nquit\n", settings: settings, fast: true)
        let path = try #require(events.first { $0.type == "photoSaved" }?.fields["path"])
        let tags = try exiv2Tags(path)
        #expect(tags["Exif.Image.Orientation"] == "3")
        #expect(tags["Exif.Photo.PixelXDimension"] == "240")
        #expect(tags["Exif.Photo.PixelYDimension"] == "240")
        #expect(tags["Exif.Image.Model"] == "HeyLook simulated camera")
        let date = try #require(tags["Exif.Photo.DateTimeOriginal"])
        // The photo's name carries the same local date and time as its EXIF (YYYY:MM:DD HH:MM:SS).
        let name = String(path.split(separator: "/").last!)
        let parts = name.split(separator: "_")
        #expect(
            date == parts[1].split(separator: "-").joined(separator: ":") + " "
                + parts[2].split(separator: "-").joined(separator: ":"))
        let summary = try exiv2Output([path])
        #expect(summary.contains { $0.hasPrefix("Image size") && $0.hasSuffix("240 x 240") })
    }

    /// A clock that is not synchronised (a Pi before network time) dates nothing: the photo is named by
    /// its number alone and its EXIF (read by exiv2) has every field but a date; the next photo, once
    /// the clock is trusted, is dated again and numbered after it.
    @Test func anUnsynchronisedClockLeavesThePhotoUndated() throws {
        let (events, photos) = try run("press\nwait 3\nquit\n", fast: true, clock: .never)
        #expect(events.first { $0.type == "ready" }?.fields["clock"] == "unsynchronised")
        let path = try #require(events.first { $0.type == "photoSaved" }?.fields["path"])
        #expect(path == "\(photos)/HeyLook_undated_000001.jpg")
        let tags = try exiv2Tags(path)
        #expect(tags["Exif.Image.Model"] == "HeyLook simulated camera")
        #expect(tags["Exif.Photo.PixelXDimension"] == "320")
        #expect(tags.keys.filter { $0.contains("DateTime") }.isEmpty, "dates written: \(tags)")
        let inspected = try JPEGInspector.inspect(try #require(readFile(path)))
        #expect(inspected.exif?.dateTime == nil)
        #expect(inspected.exif?.cameraModel == "HeyLook simulated camera")

        let store = try PhotoStore(directory: photos, reserve: 0)
        let dated = try store.save(try #require(readFile(path)), takenAt: WallClock.now())
        let name = try #require(PhotoName(fileName: String(dated.split(separator: "/").last!)))
        #expect(name.dateTime != nil && name.sequence == 2)
    }

    /// A photo saved undated records its moment (this boot, the frame's time); once the gallery's mark is there
    /// the next photo is dated, and with that save the earlier one gets its date in the index, from the monotonic
    /// time between it and the mark's moment.
    @Test func aPhoneMarkDatesTheNextPhotoAndTheUndatedOneBeforeIt() throws {
        let boot = "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70"
        let markPath = "\(temporaryDirectory())/clock"
        let wallClock = WallClock(
            trust: .kernel, markPath: markPath, kernelStatus: { .unsynchronised }, boot: boot)
        let photos = "\(temporaryDirectory())/photos"
        let (first, _) = try run("press\nwait 3\nquit\n", wallClock: wallClock, photos: photos)
        let undated = try #require(first.first { $0.type == "photoSaved" }?.fields["path"])
        #expect(undated.hasSuffix("/HeyLook_undated_000001.jpg"))
        let name = String(undated.split(separator: "/").last!)
        let taken = try #require(PhotoStore(directory: photos, reserve: 0).records().first { $0.name == name }?.taken)
        #expect(taken.boot == boot && taken.instant <= KernelClock().now())

        let now = WallTime.nowMicroseconds() / 1_000_000
        let at = try #require(BootInstant(boot: boot, instant: KernelClock().now()))
        let mark = ClockMark(setTo: now, was: now - 3600, phone: "::1", at: at)
        try DurableFile().write(Array(mark.text.utf8), path: markPath)
        let (second, _) = try run("press\nwait 3\nquit\n", wallClock: wallClock, photos: photos)
        let dated = try #require(second.first { $0.type == "photoSaved" }?.fields["path"])
        #expect(PhotoName(fileName: String(dated.split(separator: "/").last!))?.dateTime != nil)
        let entry = try #require(PhotoStore(directory: photos, reserve: 0).records().first { $0.name == name })
        #expect(entry.dated == mark.seconds(of: taken))
        #expect(try #require(entry.dated) <= now && entry.dated! > now - 60)
    }

    /// exiv2's `-Pkv` listing of `path`'s EXIF: key → value.
    private func exiv2Tags(_ path: String) throws -> [String: String] {
        var tags: [String: String] = [:]
        for line in try exiv2Output(["-q", "-Pkv", "-g", "Exif.", path]) {
            guard let space = line.firstIndex(of: " ") else { continue }
            tags[String(line[..<space])] = String(line[space...].drop { $0 == " " })
        }
        return tags
    }

    /// The lines `exiv2 ARGS` prints (Debian's exiv2; `scripts/install-deps --test` installs it).
    private func exiv2Output(_ arguments: [String]) throws -> [String] {
        let command = (["exiv2"] + arguments).map { "'\($0)'" }.joined(separator: " ") + " 2>&1"
        let pipe = try #require(popen(command, "r"), "cannot run exiv2")
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n == 0 { break }
            text += buffer[..<n]
        }
        let status = pclose(pipe)
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(status != 127 << 8, "exiv2 is not installed: scripts/install-deps --test installs it")
        return lines
    }

    @Test func theCountdownStartsWhenTheSoundHasPlayedAndLastsTheDelay() throws {
        let (events, _) = try run("press\nwait 3\n")
        func time(_ record: Record?) -> Int64 { Int64(record?.fields["t_us"] ?? "") ?? -1 }
        let press = events.first { $0.type == "input" && $0.fields["input"] == "buttonPressed" }
        let started = try #require(events.first { $0.type == "soundStarted" && $0.fields["purpose"] == "attention" })
        #expect(started.fields["sound"] == "Duck")
        let finished = events.first { $0.type == "soundFinished" && $0.fields["purpose"] == "attention" }
        let countdown = events.first { $0.type == "state" && $0.fields["to"] == "countingDown" }
        let requested = try #require(events.first { $0.type == "captureRequested" })
        // The Duck is 0.56 s; the countdown starts when it ends and lasts exactly the default 1.0 s.
        #expect(abs(time(finished) - time(press) - 560_000) < 2_000)
        #expect(time(countdown) == time(finished))
        #expect(Int64(requested.fields["trigger_us"]!)! == time(finished) + 1_000_000)
        #expect(events.contains { $0.type == "leds" && $0.fields["leds"] == "●●○○" })
    }

    @Test func inputEventsCarryWhenTheLoopHandledThem() throws {
        let (events, _) = try run("press\nwait 3\n")
        let press = try #require(events.first { $0.type == "input" && $0.fields["input"] == "buttonPressed" })
        let handled = try #require(Int64(press.fields["handled_us"] ?? ""))
        #expect(handled >= Int64(press.fields["t_us"] ?? "")!)
    }

    @Test func pressesDuringASequenceTakeNoSecondPhoto() throws {
        // Presses follow each other (80 ms each): 15 of them end while the first sequence still runs.
        let script = String(repeating: "press\n", count: 15) + "wait 2\nquit\n"
        let (events, photos) = try run(script, fast: true)
        #expect(events.filter { $0.type == "photoSaved" }.count == 1)
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.count == 1)
    }

    @Test func aStalledCameraAbortsAndTheBoothRecovers() throws {
        var settings = BoothSettings()
        settings.captureTimeout = .milliseconds(300)
        let (events, _) = try run("press\nwait 4.5\nquit\n", settings: settings, cameraStalled: true)
        let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
        #expect(states == ["playingSound", "countingDown", "capturing", "aborted", "idle"])
        #expect(events.contains { $0.type == "error" && $0.fields["message"]!.contains("no frame within 300 ms") })
    }

    @Test func aLongPressInTheReviewWindowDiscardsThePreviousPhoto() throws {
        let (events, photos) = try run("press\nwait 2.5\nlong-press\nwait 3\nquit\n", fast: true)
        #expect(events.filter { $0.type == "photoSaved" }.count == 2)
        #expect(events.filter { $0.type == "photoDiscarded" }.count == 1)
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.count == 1)
        #expect(try PhotoStore.fileNames(in: "\(photos)/discarded").count == 1)
    }

    /// A remote's keys are the button in every respect: its press key takes a photo, its retake key in the review
    /// window discards that photo as a long press would (a remote cannot hold), a key no role lists does nothing, and
    /// every input record names the remote.
    @Test func aRemotesPressAndRetakeKeysAreTheButtonsPressAndHold() throws {
        var settings = BoothSettings()
        settings.remote.devices = [.name("AB Shutter3")]
        let (events, photos) = try run(
            "key KEY_VOLUMEUP\nwait 2.5\nkey KEY_VOLUMEDOWN\nwait 3\nkey KEY_A\nwait 1\nquit\n", settings: settings,
            fast: true)
        #expect(events.filter { $0.type == "photoSaved" }.count == 2)
        #expect(events.filter { $0.type == "photoDiscarded" }.count == 1)
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.count == 1)
        let inputs = events.filter { $0.type == "input" }
        #expect(
            inputs.map { $0.fields["input"]! } == [
                "buttonPressed", "buttonReleased", "buttonPressed", "buttonLongPressed", "buttonReleased",
            ])
        #expect(inputs.allSatisfy { $0.fields["from"] == "script remote" })
    }

    /// The knob's keys, where the config gives some, turn the knob a detent a key, named by the remote.
    @Test func aRemotesKnobKeysTurnTheKnob() throws {
        var settings = BoothSettings()
        settings.remote.devices = [.ids(vendor: 0x248a, product: 0x8266)]
        settings.remote.knobRightKeys = [KeyCode(name: "KEY_RIGHT")!]
        settings.remote.knobLeftKeys = [KeyCode(name: "KEY_LEFT")!]
        let (events, _) = try run(
            "key KEY_RIGHT\nkey KEY_RIGHT\nkey KEY_LEFT\nwait 1\nquit\n", settings: settings, fast: true)
        let turns = events.filter { $0.type == "input" && $0.fields["input"] == "knobTurned" }
        #expect(turns.map { $0.fields["steps"]! } == ["1", "1", "-1"])
        #expect(turns.allSatisfy { $0.fields["from"] == "script remote" })
    }

    /// A retake of a burst moves every shot of it to `discarded/`, and only those: the retake's own burst is kept.
    @Test func aLongPressInTheReviewWindowDiscardsEveryShotOfTheBurst() throws {
        var settings = BoothSettings()
        settings.burstCount = 3
        let (events, photos) = try run("press\nwait 3\nlong-press\nwait 4\nquit\n", settings: settings, fast: true)
        let saved = events.filter { $0.type == "photoSaved" }.compactMap { $0.fields["path"] }
        #expect(saved.count == 6)
        let discarded = try PhotoStore.fileNames(in: "\(photos)/discarded").sorted()
        #expect(discarded == saved.prefix(3).map { String($0.split(separator: "/").last!) }.sorted())
        #expect(events.filter { $0.type == "photoDiscarded" }.count == 3)
        let kept = try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.sorted()
        #expect(kept == saved.suffix(3).map { String($0.split(separator: "/").last!) }.sorted())
    }

    /// A sound device whose descriptor epoll refuses (ALSA's null plugins hand out /dev/null: EPERM)
    /// never reports a sound's end; the sequence still completes and the photo is saved.
    @Test func aSoundDeviceThatNeverReportsAnEndStillTakesThePhoto() throws {
        var sound: UnpollableSound?
        let (events, _) = try run(
            "press\nwait 20\nquit\n", fast: true,
            sound: {
                sound = UnpollableSound($0)
                return sound!
            }, stopAfter: .seconds(60))
        #expect(sound?.refusals ?? 0 > 0)
        let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
        #expect(states == ["playingSound", "countingDown", "capturing", "processing", "idle"])
        #expect(events.filter { $0.type == "photoSaved" }.count == 1)
        #expect(events.contains { $0.type == "error" && $0.fields["message"]!.contains("Duck") })
    }

    /// A device that reports while the controller carries out a batch of actions (a camera that fails
    /// inside `capture`) is heard after the batch: the capture request is logged before the abort, and
    /// nothing of the aborted sequence happens after it.
    @Test func aDeviceFailingInsideAnActionIsHandledAfterTheBatch() throws {
        var camera: CameraFailingAtOnce?
        let (events, _) = try run(
            "press\nwait 5\nquit\n", fast: true,
            camera: {
                camera = CameraFailingAtOnce($0)
                return camera!
            }, stopAfter: .seconds(30))
        #expect(camera?.requests == 1)
        let order = events.map { $0.type == "state" ? "state:\($0.fields["to"]!)" : $0.type }
            .filter { ["captureRequested", "state:capturing", "state:aborted", "state:idle", "ignored"].contains($0) }
        #expect(order == ["state:capturing", "captureRequested", "state:aborted", "state:idle"])
        #expect(events.contains { $0.type == "error" && $0.fields["message"]!.contains("lens cap") })
        // The events keep the fault as the camera gave it: its kind, code and call, beside its words.
        let failed = try #require(events.first { $0.type == "captureFailed" })
        #expect(failed.fields["kind"] == "gone" && failed.fields["code"] == "errno \(ENODEV)")
        #expect(failed.fields["operation"] == "queueRequest" && failed.fields["capture"] == "1.0")
        #expect(failed.fields["reason"]?.contains("lens cap") == true)
    }

    /// A camera that libcamera cannot open again in this process (ESTALE) while the booth is being made: the booth
    /// hears it once it is made, refuses the press and exits to be restarted (75, for systemd's Restart=always).
    @Test func aStaleCameraAtStartRestartsTheBooth() throws {
        let (events, photos) = try run(
            "press\nwait 3\nquit\n", fast: true,
            camera: {
                LibcameraDevice($0, selector: "imx708", width: 0, height: 0, idleFPS: 0) {
                    selector, _, _ throws(CameraError) in
                    throw .failed(camera: selector, operation: "acquire", errno: ESTALE, detail: "stale")
                }
            }, stopAfter: .seconds(30), exitCode: 75)
        #expect(!events.contains { $0.type == "state" && $0.fields["to"] == "countingDown" })
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.isEmpty)
    }

    /// A store below its reserve: the press asks for a fresh measurement (the saver's statvfs), which
    /// still finds no room, so the press is refused and nothing is written.
    @Test func aPressOnAFullStoreIsMeasuredAgainThenRefused() throws {
        var settings = BoothSettings()
        settings.freeSpaceReserve = Int64.max / 4
        let (events, photos) = try run("wait 0.5\npress\nwait 3\nquit\n", settings: settings, fast: true)
        #expect(
            events.contains {
                $0.type == "setting" && $0.fields["name"] == "storageFull" && $0.fields["value"] == "true"
            })
        let refused = try #require(
            events.firstIndex { $0.type == "error" && $0.fields["message"]!.hasSuffix("photo refused") })
        let press = try #require(events.firstIndex { $0.type == "input" && $0.fields["input"] == "buttonPressed" })
        #expect(press < refused)
        let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
        #expect(states == ["aborted", "idle"])
        #expect(!events.contains { $0.type == "soundStarted" && $0.fields["purpose"] == "attention" })
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.isEmpty)
    }

    /// Flash auto through the controller: the simulated camera's light level, read as the countdown
    /// starts, decides; only in the dark is the flash line on, from the countdown until after the exposure.
    @Test(arguments: [(Double?.some(5), true), (400, false), (nil, true)])
    func flashAutoFollowsTheCamerasLightLevel(lux: Double?, flash: Bool) throws {
        var settings = BoothSettings()
        settings.flash = .auto
        settings.flashAutoLux = 50
        let (events, _) = try run(
            "press\nwait 3\nquit\n", settings: settings, fast: true,
            camera: { SimulatedCamera($0, width: 320, height: 240, lightLevel: lux) })
        let light = try #require(events.first { $0.type == "light" })
        #expect(light.fields["lux"] == lux.map { String(Int($0)) } ?? "unknown")
        let switched = events.filter { $0.type == "flash" }.map { $0.fields["on"]! }
        #expect(switched == (flash ? ["true", "false"] : []))
        if flash {
            let on = try #require(events.firstIndex { $0.type == "flash" && $0.fields["on"] == "true" })
            let shutter = try #require(events.firstIndex { $0.type == "state" && $0.fields["to"] == "capturing" })
            #expect(on < shutter, "the light is on during the countdown, before the shutter")
        }
        #expect(events.filter { $0.type == "photoSaved" }.count == 1)
    }

    /// The events a run keeps, read back by `booth stats`: photos, sounds, aborts and timings.
    @Test func aRunsEventsFileGivesItsStats() throws {
        let file = "\(temporaryDirectory())/events.jsonl"
        let script = "press\nwait 3\npress\nwait 0.2\ncancel\nwait 3\nknob +1\npress\nwait 3\nquit\n"
        _ = try run(script, fast: true, eventsFile: file)
        var stats = EventStats()
        #expect(try EventsLog.readLines(file, into: &stats))
        #expect(stats.unreadable == 0)
        #expect(stats.starts == 1)
        #expect(stats.photosPerDay.values.reduce(0, +) == 2)
        #expect(stats.soundsUsed == ["Duck": 2, "Cow": 1])
        #expect(stats.aborts == ["cancelled with the cancel button": 1])
        #expect(stats.pressToSound.count == 3)
        #expect(stats.shutterLag.count == 2)
        #expect(stats.shutterLag.allSatisfy { $0 >= 0 })
    }

    /// The photographer's haptic cue: one 150 ms pulse as the countdown starts, ended before the photo.
    @Test func oneHapticPulseAsTheCountdownStarts() throws {
        let (events, _) = try run("press\nwait 3\nquit\n", fast: true)
        let pulses = events.filter { $0.type == "haptic" }
        #expect(pulses.map { $0.fields["on"]! } == ["true", "false"])
        let countdown = try #require(events.first { $0.type == "state" && $0.fields["to"] == "countingDown" })
        #expect(pulses.first?.fields["t_us"] == countdown.fields["t_us"])
        let length = Int(pulses[1].fields["t_us"]!)! - Int(pulses[0].fields["t_us"]!)!
        #expect(length == 150_000)
    }

    @Test func aBurstOfTenSavesTenPhotos() throws {
        var settings = BoothSettings()
        settings.burstCount = 10
        let (events, photos) = try run("press\nwait 10\nquit\n", settings: settings, fast: true)
        let saved = events.filter { $0.type == "photoSaved" }.compactMap { $0.fields["path"] }
        #expect(saved.count == 10)
        #expect(Set(saved).count == 10)
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.count == 10)
        let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
        #expect(states == ["playingSound", "countingDown", "capturing", "processing", "idle"])
    }

    /// What the device knows about a sound goes into its events: when the stream started, when it was first
    /// seen playing, how many underruns (gaps heard) and the longest wait of the loop; nothing when it knows nothing.
    @Test func soundEventsCarryWhatTheDeviceReports() throws {
        let report = PlaybackReport(
            handedOver: Instant(nanoseconds: 5_000), deviceStart: Instant(nanoseconds: 7_000),
            firstProgress: Instant(nanoseconds: 9_000), underruns: 2, longestWait: .milliseconds(180))
        let (events, _) = try run("knob +1\nwait 2\nquit\n", fast: true) { ReportingSound($0, report) }
        let started = try #require(events.first { $0.type == "soundStarted" })
        #expect(started.fields["t_us"] == "5" && started.fields["device_start_us"] == "7")
        let finished = try #require(events.first { $0.type == "soundFinished" })
        #expect(finished.fields["first_progress_us"] == "9")
        #expect(finished.fields["underruns"] == "2")
        #expect(finished.fields["longest_wait_us"] == "180000")

        let (plain, _) = try run("knob +1\nwait 2\nquit\n", fast: true)
        let quiet = try #require(plain.first { $0.type == "soundFinished" })
        #expect(quiet.fields["underruns"] == nil && quiet.fields["longest_wait_us"] == nil)
    }

    /// Script commands run one after another: every detent of a `knob +N` lands before the next command.
    @Test(arguments: [false, true])
    func aScriptsCommandsRunOneAfterAnother(fast: Bool) throws {
        let (events, _) = try run(
            "knob +3\nknob-press\nknob +2\nknob-press\nknob -1\nknob-press\nknob -1\nquit\n", fast: fast)
        let changes = events.filter { $0.type == "setting" }.map { "\($0.fields["name"]!)=\($0.fields["value"]!)" }
        #expect(
            changes == [
                "sound=Cow", "sound=Dog", "sound=Boing", "knobMode=delay", "delay=1.5", "delay=2.0",
                "knobMode=volume", "volume=90", "knobMode=sound", "sound=Dog",
            ])
    }

    @Test func knobChoicesPersistAcrossRuns() throws {
        let stateFile = "\(temporaryDirectory())/state.toml"
        let script =
            "knob +2\nwait 0.2\nknob-press\nknob +1\nwait 0.1\nknob-press\nknob -2\nwait 0.1\nknob-long-press\nwait 1.2\nquit\n"
        let (events, _) = try run(script, stateFile: stateFile)
        let changes = events.filter { $0.type == "setting" }.map { "\($0.fields["name"]!)=\($0.fields["value"]!)" }
        #expect(
            changes == [
                "sound=Cow", "sound=Dog", "knobMode=delay", "delay=1.5", "knobMode=volume", "volume=90", "volume=80",
                "knobMode=sound", "visualCountdown=false",
            ])
        var sound: SilentSound?
        let (again, _) = try run("quit\n", stateFile: stateFile) {
            sound = SilentSound.builtIn($0)
            return sound!
        }
        let ready = try #require(again.first { $0.type == "ready" })
        #expect(ready.fields["sound"] == "Dog")
        #expect(ready.fields["delay"] == "1.5")
        #expect(ready.fields["visualCountdown"] == "false")
        #expect(ready.fields["volume"] == "80")
        #expect(sound?.volumePercent == 80, "the sound device plays at the kept volume from the start")
    }
}

/// The simulated sound, with what a real device would report about how each sound went.
private final class ReportingSound: SoundDevice {
    let inner: SilentSound
    let playbackReport: PlaybackReport
    init(_ context: DeviceContext, _ report: PlaybackReport) {
        inner = SilentSound.builtIn(context)
        playbackReport = report
    }
    var name: String { "reporting" }
    var soundDurations: [String: Duration] { inner.soundDurations }
    func play(_ sound: String, purpose: SoundPurpose) { inner.play(sound, purpose: purpose) }
    func stop() { inner.stop() }
    func setVolume(percent: Int) { inner.setVolume(percent: percent) }
    func add(_ sounds: [CustomSound]) { inner.add(sounds) }
}

/// A sound device that takes every sound but whose descriptor the loop refuses, as epoll refuses the
/// /dev/null descriptor ALSA's null plugins hand out: it never reports a sound's end.
private final class UnpollableSound: SoundDevice {
    let name = "unpollable"
    let soundDurations: [String: Duration]
    /// How often the loop refused the descriptor.
    private(set) var refusals = 0
    private let loop: EventLoop
    private let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)

    init(_ context: DeviceContext) {
        loop = context.loop
        soundDurations = SilentSound.builtIn(context).soundDurations
    }

    deinit { close(devNull) }

    func add(_ sounds: [CustomSound]) {}

    func play(_ sound: String, purpose: SoundPurpose) {
        do {
            try loop.register(readable: FileDescriptor(rawValue: devNull)) {}
        } catch {
            refusals += 1
        }
    }

    func stop() {}

    func setVolume(percent: Int) {}
}

/// A camera that fails every capture at once, from inside `capture` (as a lost camera does).
private final class CameraFailingAtOnce: CameraDevice {
    let name = "failing"
    let model = "failing"
    let lightLevel: Double? = nil
    /// How many captures were asked for.
    private(set) var requests = 0
    private let report: DeviceReport

    init(_ context: DeviceContext) { report = context.report }

    func capture(_ id: CaptureID, trigger: Instant) {
        requests += 1
        let fault = DeviceFault(.camera, .gone, code: .system(ENODEV), operation: "queueRequest", "lens cap on")
        report(.captureFailed(id, fault), trigger)
    }

    func expire(_ id: CaptureID) {}

    func setIdle(_ idle: Bool) {}

    func focus() {}

    func stop() {}
}
