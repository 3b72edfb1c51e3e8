// StickPresence: which disappearance of a stick's mount means the stick itself is gone.

/// Decides when a stick counts as removed (the LEDs leave "safe to remove", "copying" or the export
/// error). A mount that goes away by itself is a pulled stick (or one unmounted by hand). But once the
/// booth has unmounted a stick after an export, mountinfo says nothing more about it, and its own
/// unmount may reach mountinfo before or after the export's end is reported: then the stick is gone
/// only when its block device is (`/sys/dev/block/MAJ:MIN`), which the shell polls while
/// `awaitingPull` is not empty.
public struct StickPresence: Hashable, Sendable {
    private enum Phase: Hashable, Sendable {
        /// An export is running there; its own unmount or a pull is reported by the export's end.
        case exporting
        /// The booth unmounted it; the stick is gone when its block device is.
        case unmountedByBooth(device: String)
    }

    private var phases: [String: Phase] = [:]

    /// Nothing exporting, nothing awaiting a pull.
    public init() {}

    /// The block devices ("major:minor") of sticks the booth unmounted and that are still plugged in,
    /// as far as it knows, by mount point.
    public var awaitingPull: [String: String] {
        phases.compactMapValues { if case .unmountedByBooth(let device) = $0 { device } else { nil } }
    }

    /// A stick was mounted at `point`: an export starts unless one is running there already (returns
    /// whether to start one). A stick seen again at a point awaiting a pull is a new insertion.
    public mutating func exportStarting(at point: String) -> Bool {
        if phases[point] == .exporting { return false }
        phases[point] = .exporting
        return true
    }

    /// The export at `point` ended. `unmountedDevice` is the stick's block device when the booth
    /// unmounted it (the stick stays until that device goes away); nil when it is still mounted (it
    /// goes with its mount) or was pulled (the export's end already says so).
    public mutating func exportEnded(at point: String, unmountedDevice: String?) {
        if let device = unmountedDevice, !device.isEmpty {
            phases[point] = .unmountedByBooth(device: device)
        } else {
            phases[point] = nil
        }
    }

    /// The mount at `point` went away; returns whether that means the stick was removed. During an
    /// export, and after the booth's own unmount, it does not.
    public func mountGone(at point: String) -> Bool {
        phases[point] == nil
    }

    /// A poll of the devices awaiting a pull: `present` says whether a block device still exists.
    /// Returns the mount points whose stick is gone (each reported once).
    public mutating func poll(present: (String) -> Bool) -> [String] {
        let gone = awaitingPull.filter { !present($0.value) }.keys.sorted()
        for point in gone { phases[point] = nil }
        return gone
    }
}
