// DoctorCommand+System: what doctor says of the photo store, the Pi's heat and power, and the clock.
import BoothRuntime
import BoothSystem
import PhotoModel
import PhotoStore

extension DoctorCommand {
    /// What the photo store holds, read only: doctor is often run as root, and a file it created
    /// there (index, booth id, lock, `discarded/`) would belong to root and stop the booth writing it.
    /// Store files owned by someone else than the folder's owner are problems, with the fix.
    static func storageReport(directory: String, reserve: Int64) -> (lines: [String], problems: [String]) {
        let folderOwner: UInt32
        do {
            folderOwner = try FileOwner.userID(of: directory)
        } catch {
            let reason = ErrnoText.describe(error.errno)
            return ([], ["\(directory): \(reason): the booth creates it at start (as its own user)"])
        }
        var problems: [String] = []
        let owner = userName(folderOwner)
        let entries: [PhotoIndex.Entry]
        do {
            entries = try PhotoStore.inspect(directory: directory)
        } catch {
            return (["\(directory) (owner \(owner))"], ["\(error)"])
        }
        let free = PhotoStore.freeBytes(at: directory)
        let kept = entries.filter { $0.state == .kept }.count
        let lines = [
            "\(directory) (owner \(owner)): \(kept) photos, \(entries.count - kept) discarded, "
                + (free.map { "\($0 / 1_048_576) MiB free" } ?? "free space unknown")
        ]
        if let free, !FreeSpaceRule(reserve: reserve).hasRoom(free: free) {
            problems.append("below the free-space reserve: export and remove photos")
        }
        for name in ["discarded", PhotoStore.indexName, PhotoStore.boothIDName, PhotoStore.lockName] {
            guard let uid = try? FileOwner.userID(of: "\(directory)/\(name)", followingLinks: false),
                uid != folderOwner
            else { continue }
            problems.append(
                "\(directory)/\(name) belongs to \(userName(uid)), not \(owner): the booth cannot write it;"
                    + " fix: sudo chown -R \(owner): \(directory)")
        }
        return (lines, problems)
    }

    /// The SoC temperature and the Pi firmware's power flags, as the booth reads them; too hot or too low
    /// a supply now is a problem, one that has occurred since boot a note.
    static func healthReport(sysRoot: String, hotLimit: Int64) -> (lines: [String], problems: [String]) {
        let sources = HealthMonitor.sources(sysRoot: sysRoot)
        let reading = HealthMonitor.read(sources)
        var lines: [String] = []
        var problems: [String] = []
        if let temperature = reading.temperature, let path = sources.temperature {
            lines.append("SoC \(celsius(temperature)) (\(path); warns from \(celsius(hotLimit)))")
        } else {
            lines.append("no thermal zone: the temperature is not watched")
        }
        if let flags = reading.throttled {
            let words = reading.flagWords.isEmpty ? "none" : reading.flagWords.joined(separator: ", ")
            lines.append("firmware flags 0x\(String(flags, radix: 16)): \(words)")
        } else {
            lines.append("no firmware power flags (not a Raspberry Pi): under-voltage is not watched")
        }
        if reading.overheating(limit: hotLimit) {
            problems.append("too hot: give the Pi a heatsink or a fan, and the box air")
        }
        if reading.underVoltage {
            problems.append(
                "under-voltage now: use the official power supply (5.1 V: 2.5 A for a Pi 3 or Zero 2 W, 3 A for a Pi 4, 5 A for a Pi 5) and a short cable"
            )
        }
        return (lines, problems)
    }

    /// Whether photos get dates: a clock not synchronised (no network time yet) is a note, not a
    /// problem (a booth without network is fine; its photos are undated); one whose status cannot be
    /// read is a problem.
    static func clockReport(
        status: WallClock.Status, trusted: Bool, phone: ClockMark? = nil
    ) -> (lines: [String], problems: [String]) {
        if status != .synchronised, !trusted, let phone {
            return (
                [
                    "✓ set from a phone (\(phone.phone)) by the gallery this boot, \(phone.setTo - phone.was) s "
                        + "forward: photos are dated"
                ], []
            )
        }
        switch (status, trusted) {
        case (.synchronised, _):
            return (["✓ synchronised: photos are dated"], [])
        case (_, true):
            return (["✓ trusted (booth.trust_clock = true): photos are dated with whatever the clock says"], [])
        case (.unsynchronised, false):
            return (
                [
                    "! not synchronised (no network time yet): photos are undated, named by number, and go to the "
                        + "stick's \(PhotoName.undated) folder; connect the booth to a network, or with a battery-backed "
                        + "clock set booth.trust_clock = true"
                ], []
            )
        case (.unknown(let text), false):
            return (
                [], ["clock status unreadable (\(text)): photos are undated; the service needs the adjtimex read"]
            )
        }
    }

    private static func celsius(_ millidegrees: Int64) -> String {
        let tenths = millidegrees.magnitude / 100
        return "\(millidegrees < 0 ? "-" : "")\(tenths / 10).\(tenths % 10) °C"
    }

    private static func userName(_ uid: UInt32) -> String {
        FileOwner.userName(uid) ?? "uid \(uid)"
    }
}
