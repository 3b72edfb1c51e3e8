// PhotoSaver: the save worker.
import BoothCore
import BoothSystem
import PhotoEncoding
import PhotoModel
import PhotoStore
import USBSticks

/// The save worker: JPEG encoding and durable writes run on one serial background thread (a `Worker`), so the
/// event loop (LEDs, knob, sound) never waits for them. Results come back to the loop, to the handler it was made with.
final class PhotoSaver {
    /// What the worker reports.
    enum Result: Sendable {
        /// A photo is durable at `path`.
        case saved(CaptureID, path: String, bytes: Int)
        /// A photo could not be saved, and why; nothing is left of it.
        case failed(CaptureID, DeviceFault)
        /// A retake was moved aside.
        case discarded(path: String)
        /// Free space was measured: after a save, or because `checkStorage` asked.
        case storage(hasRoom: Bool)
        /// A background step failed (discard, choices).
        case error(String)
    }

    private let worker: Worker<Result>
    /// Gets every result on the loop's thread.
    private let handle: (Result) -> Void
    private let store: PhotoStore
    private let options: JPEGOptions
    private let orientation: Int
    private let cleanupExported: Bool
    /// The owner's sticks, the only ones whose copies count for the cleanup (nil: every stick's count).
    private let owners: OwnerSticks?

    /// A saver into `store`; `orientation` is the EXIF orientation (1 upright, 3 rotated 180°); with
    /// `cleanupExported`, photos already verified on a stick (one of `owners`, when given) are deleted when space
    /// runs low. `handle` gets every result on `loop`'s thread, in order.
    init(
        store: PhotoStore, options: JPEGOptions, orientation: Int, cleanupExported: Bool, owners: OwnerSticks? = nil,
        loop: EventLoop, handle: @escaping (Result) -> Void
    ) throws(SystemError) {
        self.store = store
        self.cleanupExported = cleanupExported
        self.owners = owners
        self.options = options
        self.orientation = orientation
        self.handle = handle
        worker = try Worker(label: "heylook.save", loop: loop)
    }

    /// Encodes `frame` and saves it, dated `dateTime` (nil: undated, no date in the name or EXIF, and `moment`
    /// recorded in the index instead); releases the frame's buffer as soon as it is encoded. When the gallery's
    /// mark is at `markPath` (a phone set the clock), the photos saved undated earlier in the boot are dated in the
    /// index too.
    func save(
        _ id: CaptureID, frame: any PhotoFrame, takenAt dateTime: PhotoName.DateTime?, moment: BootInstant?,
        markPath: String?, model: String
    ) {
        var options = options
        options.exif = ExifFields(
            dateTime: dateTime?.exifString, cameraModel: model, orientation: orientation,
            exposureTime: frame.exposureTime,
            analogueGain: frame.analogueGain)
        let companions = frame.companions
        onWorker { [store, options, cleanup = cleanupExported, owners] post in
            let jpeg: [UInt8]
            do {
                jpeg = try frame.encodeJPEG(options)
                frame.release()
            } catch {
                frame.release()
                post(.failed(id, DeviceFault(.encoder, .failed, "encoding: \(error)")))
                return
            }
            do throws(SystemError) {
                let path = try store.save(jpeg, takenAt: dateTime, moment: moment, companions: companions)
                post(.saved(id, path: path, bytes: jpeg.count))
                Self.postIndexFailure(store, post, "the photo is saved")
                if let mark = markPath.flatMap(WallClock.phoneMark) { Self.date(store, by: mark, post) }
            } catch {
                post(.failed(id, DeviceFault(.store, error, inUse: false)))
            }
            Self.postStorage(store, post, cleanupExported: cleanup, owners: owners)
        }
    }

    /// On the worker: dates the photos saved undated before a phone set the clock (`mark`), once each.
    private static func date(_ store: PhotoStore, by mark: ClockMark, _ post: (Result) -> Void) {
        do {
            let count = try store.date(by: mark)
            if count > 0 { Log.info("clock: \(count) photo(s) saved undated are dated from the phone's time") }
        } catch {
            post(.error("dating the undated photos: \(error)"))
        }
    }

    /// On the worker: measures free space, first making room from exported photos if allowed.
    private static func postStorage(
        _ store: PhotoStore, _ post: (Result) -> Void, cleanupExported: Bool, owners: OwnerSticks?
    ) {
        if cleanupExported, !store.hasRoom() {
            do {
                let removed = try store.removeExportedPhotos(
                    untilFree: store.room.cleanupTarget, countingOnly: owners?.all)
                if !removed.isEmpty { Log.info("storage: removed \(removed.count) photo(s) already on a stick") }
            } catch {
                post(.error("cleanup: \(error)"))
            }
        }
        post(.storage(hasRoom: store.hasRoom()))
    }

    /// Moves a retaken photo aside.
    func discard(_ path: String) {
        onWorker { [store] post in
            do {
                try store.discard(path)
                post(.discarded(path: path))
                Self.postIndexFailure(store, post, "the retake is set aside")
            } catch {
                post(.error("retake: \(error)"))
            }
        }
    }

    /// After a save or a retake that went through: an error when the photo index could not be written with it.
    private static func postIndexFailure(_ store: PhotoStore, _ post: (Result) -> Void, _ what: String) {
        guard let failure = store.indexFailure else { return }
        post(
            .error(
                "\(what), but the photo index could not be written (\(failure)): the next start lists the photos "
                    + "again from the files, without the checksums they were saved with"))
    }

    /// Measures free space; the result comes as `.storage`.
    func checkStorage() {
        onWorker { [store, cleanupExported, owners] post in
            Self.postStorage(store, post, cleanupExported: cleanupExported, owners: owners)
        }
    }

    /// Writes the knob's choices atomically (temp, fsync, rename, fsync directory).
    func persist(_ choices: RuntimeChoices, to path: String) {
        onWorker { post in
            let file = FilePath(path)
            let (directory, name) = (file.folder, file.name)
            do {
                try PhotoStore.makeDirectories(directory)
                try DurableFile().write(
                    Array(ChoicesFile.encode(choices).utf8), directory: directory, name: name,
                    temporaryName: ".\(name).partial", replacing: true)
            } catch {
                post(.error("saving choices: \(error)"))
            }
        }
    }

    /// Runs `job` on the worker; its results go to the handler the saver was made with.
    private func onWorker(_ job: @escaping @Sendable (_ post: (Result) -> Void) -> Void) {
        worker.run(job, then: handle)
    }

    /// Waits for every queued job (shutdown); returns the results the loop has not handled.
    @discardableResult func finish() -> [Result] {
        worker.finish()
    }
}
