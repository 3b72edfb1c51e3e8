// BoothController+Journal: each event the booth handles, recorded in the events log before the machine gets it.
import BoothCore
import BoothTime

extension BoothController {
    func handle(_ event: BoothEvent, at time: Instant, from source: String?) {
        switch event {
        case .buttonPressed: recordInput("buttonPressed", at: time, from: source)
        case .buttonReleased: recordInput("buttonReleased", at: time, from: source)
        case .buttonLongPressed: recordInput("buttonLongPressed", at: time, from: source)
        case .knobPressed: recordInput("knobPressed", at: time, from: source)
        case .knobLongPressed: recordInput("knobLongPressed", at: time, from: source)
        case .cancelPressed: recordInput("cancelPressed", at: time, from: source)
        case .printPressed: recordInput("printPressed", at: time, from: source)
        case .knobTurned(let steps):
            recordInput("knobTurned", at: time, from: source, [("steps", .int(Int64(steps)))])
        case .soundFinished(let purpose):
            var fields: [(String, EventsLog.Value)] = [("purpose", .string(purpose.rawValue))]
            let report = devices.sound.playbackReport
            if let progress = report.firstProgress { fields.append(("first_progress_us", .int(progress.microseconds))) }
            if let underruns = report.underruns { fields.append(("underruns", .int(Int64(underruns)))) }
            if let wait = report.longestWaitNanoseconds { fields.append(("longest_wait_us", .int(wait / 1000))) }
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
        perform(machine.handle(event, at: time), at: time)
    }

    /// What the events say of a failure besides its words: `kind`, and `code` and `operation` when it has them.
    static func details(of fault: DeviceFault) -> [(String, EventsLog.Value)] {
        var fields: [(String, EventsLog.Value)] = [("kind", .string(fault.kind.rawValue))]
        if let code = fault.codeName { fields.append(("code", .string(code))) }
        if let operation = fault.operation { fields.append(("operation", .string(operation))) }
        return fields
    }

    /// An `input` record: which input, what else it says, when it was handled, and the device it came from when one
    /// of several can send it (a remote's name; the booth's own GPIO controls name none).
    private func recordInput(
        _ name: String, at time: Instant, from source: String?, _ extra: [(String, EventsLog.Value)] = []
    ) {
        var fields: [(String, EventsLog.Value)] = [("input", .string(name))] + extra
        fields.append(("handled_us", .int(loop.now().microseconds)))
        if let source { fields.append(("from", .string(source))) }
        log.record("input", at: time, fields)
    }

    /// The camera delivered capture `id`'s frame (through the `EventInbox`).
    func frameArrived(_ id: CaptureID, _ frame: any PhotoFrame) {
        let now = loop.now()
        let trigger = captureTriggers.removeValue(forKey: id)
        var fields: [(String, EventsLog.Value)] = [
            ("capture", .string(id.description)), ("sensor_us", .int(frame.sensorTime.microseconds)),
            ("trigger_us", .int(trigger?.microseconds ?? 0)),
        ]
        // A camera over USB: when its trigger went out (sensor_us is when the camera acknowledged it).
        if let sent = frame.triggerSent { fields.append(("sent_us", .int(sent.microseconds))) }
        log.record("capture", at: now, fields)
        frames[id] = frame
        dispatch(.captureCompleted(id), at: now)
    }
}
