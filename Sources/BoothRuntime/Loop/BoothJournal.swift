// BoothJournal: what the booth writes down of what happens: the events log's records and the log's lines.
import BoothCore
import BoothTime
import Printing
import USBSticks

/// The one owner of the events log's schema (docs/reference/events.md) and of the log's lines about the booth's
/// inputs, actions and workers. The controller hands it each event, action and worker report as it handles it, and
/// decides nothing from what is written here: it only dispatches. Used on the loop's thread.
struct BoothJournal {
    /// Where the records go (flushed by the loop after each batch).
    let log: EventsLog

    // MARK: The booth's life

    /// The booth is ready: its choices, devices and clock.
    func ready(at time: Instant, choices: RuntimeChoices, soundDevice: String, camera: String, clock: String) {
        log.record(
            "ready", at: time,
            [
                ("sound", .string(choices.sound)), ("delay", .string(String(choices.delaySeconds))),
                ("visualCountdown", .bool(choices.visualCountdown)), ("volume", .int(Int64(choices.volumePercent))),
                ("soundDevice", .string(soundDevice)), ("camera", .string(camera)), ("clock", .string(clock)),
            ])
    }

    /// A signal the booth was sent.
    func signal(_ signal: Int32, at time: Instant) {
        log.record("signal", at: time, [("signal", .int(Int64(signal)))])
    }

    /// A guest asked for a print of `photo` from the gallery.
    func printAsked(_ photo: String, at time: Instant) {
        log.record("printAsked", at: time, [("path", .string(photo)), ("from", .string("gallery"))])
        Log.info("print: a guest asked for \(photo) from the gallery")
    }

    // MARK: Events, as the machine is about to get them

    /// `event`, which happened at `time` and is handled at `handled` (read for an input only), from `source` (a remote's
    /// name) where there may be several; `playback` is the sound device's report on the sound that just finished,
    /// asked for only then.
    func event(
        _ event: BoothEvent, at time: Instant, handled: @autoclosure () -> Instant, from source: String?,
        playback: @autoclosure () -> PlaybackReport
    ) {
        func input(_ name: String, _ extra: [(String, EventsLog.Value)]) {
            var fields: [(String, EventsLog.Value)] = [("input", .string(name))] + extra
            fields.append(("handled_us", .int(handled().microseconds)))
            if let source { fields.append(("from", .string(source))) }
            log.record("input", at: time, fields)
        }
        switch event {
        case .buttonPressed: input("buttonPressed", [])
        case .buttonReleased: input("buttonReleased", [])
        case .buttonLongPressed: input("buttonLongPressed", [])
        case .knobPressed: input("knobPressed", [])
        case .knobLongPressed: input("knobLongPressed", [])
        case .cancelPressed: input("cancelPressed", [])
        case .printPressed: input("printPressed", [])
        case .knobTurned(let steps): input("knobTurned", [("steps", .int(Int64(steps)))])
        case .soundFinished(let purpose):
            let playback = playback()
            var fields: [(String, EventsLog.Value)] = [("purpose", .string(purpose.rawValue))]
            if let progress = playback.firstProgress {
                fields.append(("first_progress_us", .int(progress.microseconds)))
            }
            if let underruns = playback.underruns { fields.append(("underruns", .int(Int64(underruns)))) }
            if let wait = playback.longestWait { fields.append(("longest_wait_us", .int(wait.inMicroseconds))) }
            log.record("soundFinished", at: time, fields)
        case .healthMeasured(let reading):
            var fields: [(String, EventsLog.Value)] = []
            if let temperature = reading.temperature { fields.append(("millidegrees", .int(temperature))) }
            if let flags = reading.throttled { fields.append(("throttled", .string("0x" + String(flags, radix: 16)))) }
            log.record("temperature", at: time, fields)
        case .lightMeasured(let lux):
            log.record("light", at: time, [("lux", lux.map { .int(Int64($0.rounded())) } ?? .string("unknown"))])
        case .soundFailed(let purpose, let fault):
            log.record(
                "soundFailed", at: time,
                [("purpose", .string(purpose.rawValue)), ("reason", .string(fault.message))] + Self.details(of: fault))
        case .captureFailed(let id, let fault):
            log.record(
                "captureFailed", at: time,
                [("capture", .string(id.description)), ("reason", .string(fault.message))] + Self.details(of: fault))
        case .photoSaveFailed(let id, let fault):
            log.record(
                "photoSaveFailed", at: time,
                [("capture", .string(id.description)), ("reason", .string(fault.message))] + Self.details(of: fault))
        default:
            break
        }
    }

    /// The camera delivered capture `id`'s frame at `time`; `trigger` is the moment it was asked for.
    func frame(_ id: CaptureID, _ frame: any PhotoFrame, trigger: Instant?, at time: Instant) {
        var fields: [(String, EventsLog.Value)] = [
            ("capture", .string(id.description)), ("sensor_us", .int(frame.sensorTime.microseconds)),
            ("trigger_us", .int(trigger?.microseconds ?? 0)),
        ]
        // A camera over USB: when its trigger went out (sensor_us is when the camera acknowledged it).
        if let sent = frame.triggerSent { fields.append(("sent_us", .int(sent.microseconds))) }
        log.record("capture", at: time, fields)
    }

    // MARK: Actions, as they are carried out

    /// `action`, just carried out for `time`, for the actions the log keeps (a sound's start is `soundStarted`).
    func action(_ action: BoothAction, at time: Instant) {
        switch action {
        case .enterPhase(let phase, let from):
            log.record("state", at: time, [("from", .string(from.rawValue)), ("to", .string(phase.rawValue))])
        case .stopSound:
            log.record("soundStopped", at: time)
        case .setButtonLED(let on):
            log.record("buttonLED", at: time, [("on", .bool(on))])
        case .setFlash(let on):
            log.record("flash", at: time, [("on", .bool(on))])
        case .setHaptic(let on):
            log.record("haptic", at: time, [("on", .bool(on))])
        case .capturePhoto(let id, let trigger):
            log.record(
                "captureRequested", at: time,
                [("capture", .string(id.description)), ("trigger_us", .int(trigger.microseconds))])
        case .reportSetting(let name, let value):
            log.record("setting", at: time, [("name", .string(name)), ("value", .string(value))])
        case .reportError(let message):
            log.record("error", at: time, [("message", .string(message))])
            Log.error(message)
        case .reportIgnored(let message):
            log.record("ignored", at: time, [("reason", .string(message))])
        default:
            break
        }
    }

    /// `sound` started for `purpose`: asked for at `time`, `play` returned at `returned`; `timing` says when its
    /// first samples reached the device (or, silent or simulated, none: the moment play returned).
    func soundStarted(
        _ sound: String, purpose: SoundPurpose, at time: Instant, returned: Instant, timing: PlaybackReport
    ) {
        var fields: [(String, EventsLog.Value)] = [
            ("sound", .string(sound)), ("purpose", .string(purpose.rawValue)),
            ("event_us", .int(time.microseconds)), ("returned_us", .int(returned.microseconds)),
        ]
        if let start = timing.deviceStart { fields.append(("device_start_us", .int(start.microseconds))) }
        log.record("soundStarted", at: timing.handedOver ?? returned, fields)
    }

    // MARK: Workers' reports

    /// What the printer reported.
    func print(_ report: PhotoPrinter.Report, at now: Instant) {
        switch report {
        case .sent(let photo, let job, let queue):
            log.record(
                "printSent", at: now,
                [
                    ("path", .string(photo)), ("job", .int(Int64(job))),
                    ("queue", .string(queue.isEmpty ? "default" : queue)),
                ])
        case .refused(let photo, let reason):
            log.record("printFailed", at: now, [("path", .string(photo)), ("reason", .string(reason))])
            Log.error("print: \(photo) not printed: \(reason)")
        case .waiting(let photo, let reason, _):
            log.record("printWaiting", at: now, [("path", .string(photo)), ("reason", .string(reason))])
            Log.warning("print: \(photo) waits for CUPS, sent once it answers: \(reason)")
        case .kept(let photo):
            Log.info("print: \(photo) still waits for CUPS: kept, and sent once CUPS answers after the booth starts")
        case .limited(let photo, let refusal):
            log.record("printRefused", at: now, [("path", .string(photo)), ("reason", .string(refusal.description))])
            Log.warning("print: \(photo) not printed: \(refusal)")
        case .ended(let photo, let job, .completed):
            log.record("printed", at: now, [("path", .string(photo)), ("job", .int(Int64(job)))])
        case .ended(let photo, let job, let state):
            let reason =
                "CUPS ended job \(job) \(state) (`lpstat -W completed -o` lists it; the printer's page says why)"
            log.record(
                "printFailed", at: now,
                [("path", .string(photo)), ("job", .int(Int64(job))), ("reason", .string(reason))])
            Log.error("print: \(photo) not printed: \(reason)")
        case .lost(let photo, let job, let reason):
            log.record(
                "printFailed", at: now,
                [("path", .string(photo)), ("job", .int(Int64(job))), ("reason", .string(reason))])
            Log.error("print: job \(job) of \(photo) no longer followed: \(reason)")
        case .looked, .handedOver, .restored:
            break
        case .resumed(let photo, let job):
            Log.info("print: following job \(job) of \(photo), sent before the booth started")
        case .queue(let attention, _):
            log.record("printer", at: now, [("attention", .string(attention ?? "none"))])
            if let attention {
                Log.warning("print: the printer needs attention: \(attention); prints wait or fail until then")
            } else {
                Log.info("print: the printer is ready")
            }
        }
    }

    /// What the export worker reported.
    func export(_ report: ExportWorker.Report, at now: Instant) {
        switch report {
        case .started(let point):
            log.record("exportStarted", at: now, [("stick", .string(point))])
            Log.info("export: stick at \(point)")
        case .progress(let point, let done, let total):
            log.record(
                "exportProgress", at: now,
                [("stick", .string(point)), ("done", .int(Int64(done))), ("total", .int(Int64(total)))])
        case .finished(let point, let summary):
            log.record(
                "exportFinished", at: now,
                [
                    ("stick", .string(point)), ("copied", .int(Int64(summary.copied))),
                    ("unmounted", .bool(summary.unmounted)),
                    ("bytes", .int(summary.bytes)),
                    ("photos", .int(Int64(summary.copied + summary.adopted + summary.alreadyThere))),
                    ("layouts", .int(Int64(summary.layouts))),
                    ("raw", .int(Int64(summary.raw))),
                ])
            for skip in summary.skipped { Log.warning("export: \(point): skipped \(skip.source): \(skip.reason)") }
            if let error = summary.unmountError {
                Log.error("export: \(point) not unmounted: \(error); do not pull it yet")
            } else if summary.unmounted {
                Log.info("export: \(summary.copied) photo(s) copied to \(point); unmounted: safe to remove")
            }
        case .failed(let point, let fault, let unmounted):
            log.record(
                "exportFailed", at: now,
                [
                    ("stick", .string(point)), ("message", .string(fault.message)),
                    ("stickRemoved", .bool(fault.kind == .gone)), ("unmounted", .bool(unmounted)),
                ] + Self.details(of: fault))
            // What was copied is verified and flushed; said apart so the person knows the stick may go.
            if unmounted { Log.info("export: \(point) unmounted: safe to remove") }
        case .removed(let point):
            log.record("stickRemoved", at: now, [("stick", .string(point))])
        case .unknownStick(let point, let message):
            log.record("stickUnknown", at: now, [("stick", .string(point))])
            Log.warning("export: \(message)")
        case .claimed(let point):
            log.record("stickClaimed", at: now, [("stick", .string(point))])
            Log.info("export: \(point) is now one of this booth's own sticks; exporting")
        case .soundsImported(let point, let imported):
            for sound in imported.sounds {
                log.record("soundImported", at: now, [("stick", .string(point)), ("sound", .string(sound.name))])
                Log.info("sound: \(sound.name) imported from \(point)")
            }
            for rejection in imported.rejections {
                log.record("error", at: now, [("message", .string("sound from \(point): \(rejection)"))])
                Log.warning("sound from \(point): \(rejection)")
            }
        }
    }

    /// What the photo saver reported (a failed save is recorded as the `photoSaveFailed` event it becomes).
    func save(_ result: PhotoSaver.Result, at now: Instant) {
        switch result {
        case .saved(let id, let path, let bytes):
            log.record(
                "photoSaved", at: now,
                [("capture", .string(id.description)), ("path", .string(path)), ("bytes", .int(Int64(bytes)))])
        case .discarded(let path):
            log.record("photoDiscarded", at: now, [("path", .string(path))])
        case .error(let message):
            log.record("error", at: now, [("message", .string(message))])
            Log.error(message)
        case .failed, .storage:
            break
        }
    }

    /// What the events say of a failure besides its words: `kind`, and `code` and `operation` when it has them.
    static func details(of fault: DeviceFault) -> [(String, EventsLog.Value)] {
        var fields: [(String, EventsLog.Value)] = [("kind", .string(fault.kind.rawValue))]
        if let code = fault.codeName { fields.append(("code", .string(code))) }
        if let operation = fault.operation { fields.append(("operation", .string(operation))) }
        return fields
    }
}
