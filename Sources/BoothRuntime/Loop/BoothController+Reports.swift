// BoothController+Reports: events, frames and the workers' reports, recorded by the journal, then turned into events.
import BoothCore
import BoothTime
import Printing
import USBSticks

extension BoothController {
    /// Feeds `event` to the machine, recorded first; `source` names the input it came from where there may be several.
    func handle(_ event: BoothEvent, at time: Instant, from source: String?) {
        journal.event(
            event, at: time, handled: loop.now(), from: source, playback: devices.sound.playbackReport)
        perform(machine.handle(event, at: time), at: time)
    }

    /// The camera delivered capture `id`'s frame (through the `EventInbox`).
    func frameArrived(_ id: CaptureID, _ frame: any PhotoFrame) {
        let now = loop.now()
        journal.frame(id, frame, trigger: captureTriggers.removeValue(forKey: id), at: now)
        frames[id] = frame
        dispatch(.captureCompleted(id), at: now)
    }

    func printReport(_ report: PhotoPrinter.Report) {
        let now = loop.now()
        journal.print(report, at: now)
        switch report {
        case .limited: dispatch(.printRefused, at: now)
        case .queue(let attention, _):
            dispatch(.deviceWarning(.printerNeedsAttention, active: attention != nil), at: now)
        default: break
        }
    }

    func exportReport(_ report: ExportWorker.Report) {
        let now = loop.now()
        journal.export(report, at: now)
        switch report {
        case .progress(_, let done, let total):
            dispatch(.exportProgressed(done: done, total: total), at: now)
        case .finished(_, let summary):
            dispatch(.exportFinished(safeToRemove: summary.unmounted), at: now)
        case .failed(let point, var fault, _):
            let removed = fault.kind == .gone
            fault.message = "\(point): \(fault.message)"
            dispatch(.exportFailed(fault), at: now)
            if removed { dispatch(.stickRemoved, at: now) }
        case .removed:
            dispatch(.stickRemoved, at: now)
        case .unknownStick:
            dispatch(.stickUnknown, at: now)
        case .soundsImported(_, let imported):
            devices.sound.add(imported.sounds)
            let lengths = Dictionary(imported.sounds.map { ($0.name, $0.buffer.duration) }) { _, new in new }
            if !lengths.isEmpty { dispatch(.soundsAdded(lengths), at: now) }
        case .started, .claimed:
            break
        }
    }

    func saveResult(_ result: PhotoSaver.Result) {
        let now = loop.now()
        journal.save(result, at: now)
        switch result {
        case .saved(let id, let path, _): dispatch(.photoSaved(id, path: path), at: now)
        case .failed(let id, let fault): dispatch(.photoSaveFailed(id, fault), at: now)
        case .storage(let hasRoom): dispatch(.storageChecked(hasRoom: hasRoom), at: now)
        case .discarded, .error: break
        }
    }
}
