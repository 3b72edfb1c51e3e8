// BoothController+Reports: the print, export and save workers' reports, recorded and turned into events.
import BoothCore
import Printing
import USBSticks

extension BoothController {
    func printReport(_ report: PhotoPrinter.Report) {
        let now = loop.now()
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
            dispatch(.printRefused, at: now)
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
            dispatch(.deviceWarning(.printerNeedsAttention, active: attention != nil), at: now)
        }
    }

    func exportReport(_ report: ExportWorker.Report) {
        let now = loop.now()
        switch report {
        case .started(let point):
            log.record("exportStarted", at: now, [("stick", .string(point))])
            Log.info("export: stick at \(point)")
        case .progress(let point, let done, let total):
            log.record(
                "exportProgress", at: now,
                [("stick", .string(point)), ("done", .int(Int64(done))), ("total", .int(Int64(total)))])
            dispatch(.exportProgressed(done: done, total: total), at: now)
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
            dispatch(.exportFinished(safeToRemove: summary.unmounted), at: now)
        case .failed(let point, var fault, let unmounted):
            let removed = fault.kind == .gone
            log.record(
                "exportFailed", at: now,
                [
                    ("stick", .string(point)), ("message", .string(fault.message)), ("stickRemoved", .bool(removed)),
                    ("unmounted", .bool(unmounted)),
                ] + Self.details(of: fault))
            fault.message = "\(point): \(fault.message)"
            dispatch(.exportFailed(fault), at: now)
            // What was copied is verified and flushed; said apart so the person knows the stick may go.
            if unmounted { Log.info("export: \(point) unmounted: safe to remove") }
            if removed { dispatch(.stickRemoved, at: now) }
        case .removed(let point):
            log.record("stickRemoved", at: now, [("stick", .string(point))])
            dispatch(.stickRemoved, at: now)
        case .unknownStick(let point, let message):
            log.record("stickUnknown", at: now, [("stick", .string(point))])
            Log.warning("export: \(message)")
            dispatch(.stickUnknown, at: now)
        case .claimed(let point):
            log.record("stickClaimed", at: now, [("stick", .string(point))])
            Log.info("export: \(point) is now one of this booth's own sticks; exporting")
        case .soundsImported(let point, let imported):
            let sounds = imported.sounds
            for sound in sounds {
                log.record("soundImported", at: now, [("stick", .string(point)), ("sound", .string(sound.name))])
                Log.info("sound: \(sound.name) imported from \(point)")
            }
            for rejection in imported.rejections {
                log.record("error", at: now, [("message", .string("sound from \(point): \(rejection)"))])
                Log.warning("sound from \(point): \(rejection)")
            }
            devices.sound.add(sounds)
            let lengths = Dictionary(sounds.map { ($0.name, $0.buffer.durationNanoseconds) }) { _, new in new }
            if !lengths.isEmpty { dispatch(.soundsAdded(lengths), at: now) }
        }
    }

    func saveResult(_ result: PhotoSaver.Result) {
        let now = loop.now()
        switch result {
        case .saved(let id, let path, let bytes):
            log.record(
                "photoSaved", at: now,
                [("capture", .string(id.description)), ("path", .string(path)), ("bytes", .int(Int64(bytes)))])
            dispatch(.photoSaved(id, path: path), at: now)
        case .failed(let id, let fault):
            dispatch(.photoSaveFailed(id, fault), at: now)
        case .discarded(let path):
            log.record("photoDiscarded", at: now, [("path", .string(path))])
        case .storage(let hasRoom):
            dispatch(.storageChecked(hasRoom: hasRoom), at: now)
        case .error(let message):
            log.record("error", at: now, [("message", .string(message))])
            Log.error(message)
        }
    }
}
