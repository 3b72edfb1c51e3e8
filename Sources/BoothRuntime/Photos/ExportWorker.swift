// ExportWorker: exports to sticks on its own thread, so the booth keeps capturing during an export.
import BoothCore
import BoothSystem
import BoothTime
import PhotoStore
import Synchronization
import USBSticks

/// The export worker: when a stick is mounted below the media root and accepted (its mount and file system, and with
/// `export.sticks = "owner"` its owner, checked), first lets the booth's `StickSounds` take the sounds it offers
/// (what the booth does with a stick's sounds is that type's), then copies every kept photo not yet
/// on it (`StickExporter`: verified, resumable, never following links), then flushes it and has systemd
/// unmount it (`SystemdUnmounter`). A mount of another file system is refused and left mounted.
/// Runs on a `Worker` of its own — not the save worker's — so a capture during an export is saved at
/// once; reports come back to the loop, to the handler it was made with.
package final class ExportWorker {
    /// What the worker reports (on the loop thread, to the handler it was made with).
    package enum Report: Sendable {
        /// A stick was accepted (its mount, file system and owner checked) and its export is starting.
        case started(mountPoint: String)
        /// `done` of `total` photos are on the stick (for `LEDPattern.exportProgress`).
        case progress(mountPoint: String, done: Int, total: Int)
        /// Every kept photo is on the stick; if `summary.unmounted`, it is safe to remove
        /// (`LEDPattern.safeToRemove`), else `summary.unmountError` says why not.
        case finished(mountPoint: String, summary: ExportSummary)
        /// The export stopped; `fault` says why (`.gone`: the stick was pulled out) and tells the person at the booth
        /// what to do. What was copied is complete and verified, and the next insert resumes.
        case failed(mountPoint: String, fault: DeviceFault, unmounted: Bool)
        /// A stick's mount went away while no export was running on it (pulled, or unmounted by hand).
        case removed(mountPoint: String)
        /// The stick is not one of the owner's (`export.sticks = "owner"`): nothing was written, it stays mounted,
        /// and `claim()` makes it the owner's and exports to it.
        case unknownStick(mountPoint: String, message: String)
        /// `claim()` made the stick the owner's: its id is on it and recorded; its export goes on (`started`).
        case claimed(mountPoint: String)
        /// `StickSounds` took sounds from the stick (decoded, ready to play), or says why not, one message each.
        case soundsImported(mountPoint: String, StickSounds.Imported)
    }

    private let worker: Worker<Report>
    private let loop: EventLoop
    /// Gets every report on the loop's thread.
    private let report: (Report) -> Void
    private let exporter: StickExporter
    /// What the booth does with a stick's sounds, before its photos.
    private let sounds: StickSounds
    private let watcher: StickWatcher
    /// Which mount going away means a stick is gone (the booth's own unmount does not).
    private var presence = StickPresence()
    /// The block device ("major:minor") of each stick mounted now or last, by mount point.
    private var devices: [String: String] = [:]
    /// The stick refused last as not the owner's, while it is in (the one `claim()` makes the owner's).
    private var unknown: String?
    /// The poll of `presence.awaitingPull`, while armed.
    private var pullPoll: EventLoop.TimerToken?
    /// How often an unmounted stick's block device is looked for (a pull shows within this).
    static let pullPollInterval: Duration = .milliseconds(250)
    /// Set by `finish()`: a running export stops before its next file (read on the worker thread).
    private let stopping = StopRequest()

    /// A flag the loop thread sets and the worker thread reads.
    private final class StopRequest: Sendable {
        let requested = Atomic<Bool>(false)
    }

    /// A worker exporting `store` (the same instance the save worker uses: they share its index) to
    /// sticks mounted below `settings.mediaRoot`, into `settings.exportFolder`; only to `owners` when given; a
    /// stick's sounds go to `sounds` first. It
    /// watches for sticks on `loop` (one already mounted is exported at the loop's first turn); `report` runs on the
    /// loop thread for every progress step, end and failure. Tests give the calls made on a stick (`operations`) and
    /// the unmount; the booth's are the system's and systemd's.
    package init(
        store: PhotoStore, settings: BoothSettings, owners: OwnerSticks? = nil,
        allowedFileSystems: Set<String> = ExportOptions.defaultFileSystems, sounds: StickSounds, loop: EventLoop,
        operations: any FileOperations = SystemFileOperations(), unmounter: any StickUnmounter = SystemdUnmounter(),
        report: @escaping (Report) -> Void
    ) throws(SystemError) {
        exporter = StickExporter(
            store: store,
            options: ExportOptions(
                folder: settings.exportFolder, allowedFileSystems: allowedFileSystems, operations: operations,
                unmounter: unmounter, owners: owners, joinCard: settings.joinCardFile, raw: settings.exportRaw))
        self.sounds = sounds
        self.loop = loop
        self.report = report
        worker = try Worker(label: "heylook.export", loop: loop)
        watcher = try StickWatcher(mediaRoot: settings.mediaRoot)
        try watcher.watch(on: loop) { [unowned self] change in changed(change) }
    }

    /// On the loop: a message of the export running on the worker thread.
    private func received(_ message: Report) {
        switch message {
        case .finished(let point, let summary):
            presence.exportEnded(at: point, unmountedDevice: summary.unmounted ? devices[point] : nil)
        case .failed(let point, let fault, let unmounted):
            presence.exportEnded(at: point, unmountedDevice: unmounted && fault.kind != .gone ? devices[point] : nil)
        case .unknownStick(let point, _):
            presence.exportEnded(at: point, unmountedDevice: nil)
            unknown = point
        default: break
        }
        report(message)
        pollForPulls()
    }

    /// On the loop: a stick was mounted or its mount went away.
    private func changed(_ change: StickChange) {
        switch change {
        case .inserted(let mount):
            devices[mount.mountPoint] = mount.device
            export(to: mount.mountPoint, device: mount.device)
        case .removed(let point):
            if unknown == point { unknown = nil }
            // During an export this is the worker's own unmount (its `.finished` follows) or a
            // pulled stick (its `.failed` follows); after the booth's own unmount, the poll says.
            if presence.mountGone(at: point) { report(.removed(mountPoint: point)) }
        }
    }

    /// While a stick the booth unmounted is still plugged in, looks for its block device every
    /// `pullPollInterval` and reports it removed once the device is gone (the LEDs leave "safe to
    /// remove"). Nothing is polled otherwise.
    private func pollForPulls() {
        guard pullPoll == nil, !presence.awaitingPull.isEmpty else { return }
        let deadline = loop.now() + Self.pullPollInterval
        pullPoll = loop.schedule(at: deadline) { [unowned self] in
            self.pullPoll = nil
            for point in self.presence.poll(present: { FileAccess.exists("/sys/dev/block/\($0)") }) {
                self.report(.removed(mountPoint: point))
            }
            self.pollForPulls()
        }
    }

    /// Makes the stick last refused as not the owner's (still in) the owner's, and exports to it; false when
    /// there is none.
    @discardableResult func claim() -> Bool {
        guard let point = unknown, let device = devices[point] else { return false }
        unknown = nil
        export(to: point, device: device, claim: true)
        return true
    }

    /// Exports to `mountPoint` on the worker thread (ignored while an export there is running), only if the file
    /// system there is still `device`, the one mountinfo showed; `claim` makes the stick the owner's first.
    func export(to mountPoint: String, device: String, claim: Bool = false) {
        guard presence.exportStarting(at: mountPoint) else { return }
        let job: @Sendable (_ post: (Report) -> Void) -> Void = { [exporter, stopping, sounds] post in
            // Once the stick is accepted (with export.sticks = "owner": one of the owner's), its sounds first.
            let accepted = {
                if claim { post(.claimed(mountPoint: mountPoint)) }
                if let imported = sounds.importSounds(from: mountPoint, device: device) {
                    post(.soundsImported(mountPoint: mountPoint, imported))
                }
                post(.started(mountPoint: mountPoint))
            }
            do throws(ExportError) {
                let summary = try exporter.export(
                    to: mountPoint, device: device, claim: claim,
                    progress: { done, total in
                        post(.progress(mountPoint: mountPoint, done: done, total: total))
                    },
                    started: accepted,
                    shouldStop: { stopping.requested.load(ordering: .relaxed) })
                post(.finished(mountPoint: mountPoint, summary: summary))
            } catch let error where error.isUnknownStick {
                post(.unknownStick(mountPoint: mountPoint, message: error.description))
            } catch {
                post(.failed(mountPoint: mountPoint, fault: DeviceFault(stick: error), unmounted: error.unmounted))
            }
        }
        worker.run(job) { [unowned self] in received($0) }
    }

    /// Shutdown: a running export stops before the next file it would read back or copy, writes the manifest,
    /// flushes and unmounts the stick (the file being read or copied finishes: a few seconds at most, within the
    /// unit's stop timeout); returns when it has, with the reports the loop has not handled. Exports queued behind
    /// it do nothing.
    @discardableResult package func finish() -> [Report] {
        stopping.requested.store(true, ordering: .relaxed)
        return worker.finish()
    }
}
