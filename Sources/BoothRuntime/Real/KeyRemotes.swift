// KeyRemotes: remotes, keypads and pedals (Linux input devices) as the booth's button and knob.
import BoothCore
import BoothSystem
import BoothTime
import KeyInput

/// Remotes, keypads and pedals as the booth's button and knob: every input device under /dev/input that
/// `remote.devices` names is taken for the booth alone (EVIOCGRAB) as it appears, and each of its configured keys
/// becomes the control it stands for (`RemoteKeyRole`), at the kernel's time for the key. Devices come and go as the
/// kernel makes and removes their nodes (inotify on /dev/input, no polling); one that goes while its button key is
/// down lets the button go. Devices nobody named are closed again at once, and never taken.
package final class KeyRemotes: InputDevice {
    package let name = "remotes"
    /// The folder event nodes appear in.
    static let inputFolder = "/dev/input"

    private let selectors: [RemoteSelector]
    private let roles: [KeyCode: RemoteKeyRole]
    private let folder: String
    private let loop: EventLoop
    private let report: (BoothEvent, Instant, String) -> Void
    /// Watches the folder, or while it does not exist yet, its parent for it.
    private var watch: DirectoryWatch?
    private var watchingParent = false
    /// The remotes open now, by event node.
    private var open: [String: Remote] = [:]
    /// Nodes that are no remote of the booth's (named by nobody), or that it may not open: not opened again until the
    /// kernel or udev changes them (another device on the node, a new owner or mode).
    private var others: Set<String> = []

    /// One remote open.
    private final class Remote {
        let device: KeyDevice
        let label: String
        /// Its keys that hold the button down now.
        var held: Set<UInt16> = []
        init(device: KeyDevice, label: String) {
            self.device = device
            self.label = label
        }
    }

    /// Takes the remotes `settings.devices` names that are there now, and watches `folder` for more.
    package init(settings: BoothSettings.Remote, context: DeviceContext, folder: String = KeyRemotes.inputFolder) throws
    {
        selectors = settings.devices
        roles = settings.roles
        self.folder = folder
        loop = context.loop
        report = context.reportFrom
        startWatching()
        look()
        if open.isEmpty {
            Log.info(
                "remote: none of \(selectors.map(\.description).joined(separator: ", ")) is connected; "
                    + "each is taken when it appears")
        }
    }

    // MARK: Finding devices

    private func startWatching() {
        if let watch { loop.unregister(watch.descriptor) }
        watch = nil
        do {
            let folderWatch = try DirectoryWatch(folder, attributes: true)
            try loop.register(readable: folderWatch.descriptor) { [unowned self] in self.folderChanged() }
            watch = folderWatch
            watchingParent = false
        } catch {
            // No input device yet (the folder is made with the first): watch its parent for it.
            do {
                let parentWatch = try DirectoryWatch(FilePath(folder).folder)
                try loop.register(readable: parentWatch.descriptor) { [unowned self] in self.folderChanged() }
                watch = parentWatch
                watchingParent = true
            } catch {
                Log.error("remote: cannot watch \(folder) for remotes (\(error)); only those there at start work")
            }
        }
    }

    private func folderChanged() {
        guard let watch else { return }
        let changes: (names: [String], overflowed: Bool)
        do {
            changes = try watch.changes()
        } catch {
            Log.error("remote: \(error)")
            return
        }
        if watchingParent {
            let base = FilePath(folder).name
            guard changes.overflowed || changes.names.contains(where: { $0 == base }) else { return }
            startWatching()
            look()
            return
        }
        // A node made again may be another device, and one udev gave the booth may open now: ask again. After an
        // overflow (events lost), ask every node again.
        if changes.overflowed { others.removeAll() }
        for name in changes.names where name.hasPrefix("event") {
            others.remove("\(folder)/\(name)")
        }
        look()
    }

    /// Opens every event node not open yet and takes those that are remotes.
    private func look() {
        guard let names = try? FileReading.names(in: folder) else { return }
        for name in names.sorted() where name.hasPrefix("event") {
            let path = "\(folder)/\(name)"
            guard open[path] == nil, !others.contains(path) else { continue }
            take(path)
        }
    }

    private func take(_ path: String) {
        let device: KeyDevice
        do {
            device = try KeyDevice(path: path)
        } catch {
            // Not readable by the booth (every device but its remotes, under the udev rule), or gone again: not ours
            // until the node changes. Anything else is said once.
            if !error.isGone { others.insert(path) }
            if !error.isGone, !error.code.meansNotAllowed { Log.warning("remote: \(error)") }
            return
        }
        guard
            selectors.contains(where: { $0.matches(name: device.name, vendor: device.vendor, product: device.product) })
        else {
            others.insert(path)
            return
        }
        let label = "\(device.name) (\(RemoteSelector.ids(vendor: device.vendor, product: device.product)))"
        let sends = roles.keys.filter { (try? device.canSend($0.code)) == true }
        guard !sends.isEmpty else {
            Log.warning(
                "remote: \(label) at \(path) sends none of the configured keys "
                    + "(\(roles.keys.sorted().map(\.name).joined(separator: ", "))); `booth remote keys` shows what it sends"
            )
            others.insert(path)
            return
        }
        do {
            try device.grab()
        } catch {
            Log.warning("remote: \(label): \(error); its keys reach that program too")
        }
        let remote = Remote(device: device, label: label)
        do {
            try loop.register(readable: device.fileDescriptor) { [unowned self] in self.read(remote) }
        } catch {
            Log.error("remote: \(label): \(error)")
            return
        }
        open[path] = remote
        Log.info(
            "remote: \(label) at \(path) taken; keys "
                + sends.sorted().map { "\($0.name) → \(roles[$0]!.rawValue)" }.joined(separator: ", "))
        // A key already down when the remote appeared (the press that woke it, still held) is that press.
        for key in sends.sorted() where (try? device.isDown(key.code)) == true {
            guard let role = roles[key], role == .press || role == .retake else { continue }
            remote.held.insert(key.code)
            for event in role.events(.down) { report(event, loop.now(), device.name) }
        }
    }

    // MARK: Keys

    private func read(_ remote: Remote) {
        let events: [KeyEvent]
        do {
            events = try remote.device.read()
        } catch {
            drop(remote, error.isGone ? "went away" : "\(error)")
            return
        }
        for event in events {
            guard let role = roles[KeyCode(code: event.code)] else { continue }
            let change: RemoteKeyRole.Change
            switch event.action {
            case .pressed:
                change = .down
                if role == .press || role == .retake { remote.held.insert(event.code) }
            case .released:
                change = .up
                // An up without its down (the device taken with the key held) is not the button's.
                guard role != .press && role != .retake || remote.held.remove(event.code) != nil else { continue }
            case .repeated: change = .repeating
            }
            for booth in role.events(change) { report(booth, event.time, remote.device.name) }
        }
    }

    /// Forgets a remote that went away; a button it held down is let go.
    private func drop(_ remote: Remote, _ why: String) {
        loop.unregister(remote.device.fileDescriptor)
        open[remote.device.path] = nil
        if !remote.held.isEmpty {
            remote.held.removeAll()
            report(.buttonReleased, loop.now(), remote.device.name)
        }
        Log.info("remote: \(remote.label) \(why); it is taken again when it returns")
        // Its node may already be another device's (the kernel reuses numbers), seen while this one was still open.
        look()
    }
}
