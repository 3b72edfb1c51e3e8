// CUPSFixture: a real cupsd and a real IPP printer (ippeveprinter) started by a test, on its own sockets and folders.
import Foundation
import Synchronization
import Testing

/// A CUPS of the test's own: `cupsd` (Debian's cups-daemon) listening only on a socket in the fixture's folder, with
/// the queue `booth` (made by `lpadmin -m everywhere`, the default queue) on `ippeveprinter` (cups-ipp-utils), a
/// real IPP Everywhere printer on localhost that keeps every document it is sent and can run out of paper, jam or
/// have a door open (`trouble`). ippeveprinter needs DNS-SD, so the fixture starts its own `dbus-daemon` (a private
/// system bus) and an `avahi-daemon` on it bound to `lo`. Point libcups at `socket` (CUPS_SERVER) to print to it. `stop()` ends every
/// process and removes the folder.
public final class CUPSFixture: @unchecked Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case missing(String)
        case notReady(String)

        public var description: String {
            switch self {
            case .missing(let text), .notReady(let text): text
            }
        }
    }

    /// The queue the fixture sets up (CUPS's default queue).
    public static let queue = "booth"
    /// The programs it runs.
    private static let programs = [
        "/usr/bin/dbus-daemon", "/usr/sbin/avahi-daemon", "/usr/sbin/ippeveprinter", "/usr/sbin/cupsd",
        "/usr/sbin/lpadmin", "/usr/bin/lpstat",
    ]

    /// Whether every program is installed (scripts/install-deps --test installs them).
    public static var isAvailable: Bool { programs.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// How many fixtures run at once. Each has its own folder, sockets and printer port; only avahi-daemon's pid
    /// file is one per machine, so where it cannot get a /run of its own (`ownRun`) the fixtures take turns. The
    /// tests spend most of their time waiting for the booth's looks at the queue, so four side by side end in about
    /// a quarter of the time one after another took (the unit tests' longest chain).
    private static let width = ownRunWorks ? 4 : 1
    private static let turns = DispatchSemaphore(value: width)

    /// Runs `body` with a fixture no other test shares (up to `width` such tests run at once); it is stopped after.
    /// `started: false` gives one whose daemons are not started yet (CUPS out of reach at `socket` until `start()`).
    public static func exclusively<T>(started: Bool = true, _ body: (CUPSFixture) throws -> T) throws -> T {
        turns.wait()
        defer { turns.signal() }
        let fixture = try CUPSFixture(started: started)
        defer { fixture.stop() }
        return try body(fixture)
    }

    /// The fixture's folder.
    public let folder: String
    /// cupsd's socket: what CUPS_SERVER (or `CUPSClient(server:)`) names.
    public let socket: String
    /// Where ippeveprinter keeps the documents it received.
    public let received: String
    /// The printer's IPP address.
    public let printerURI: String
    /// The daemons started, in order, and whether each has been waited for.
    private var processes: [(program: String, pid: pid_t)] = []
    private var ended: [pid_t: Int32] = [:]
    private let environment: [String: String]
    /// The printer's port.
    private let port: Int

    private init(started: Bool) throws {
        for program in Self.programs where !FileManager.default.isExecutableFile(atPath: program) {
            throw Failure.missing("\(program) is not installed: run scripts/install-deps --test")
        }
        folder = temporaryDirectory()
        // cupsd's filters and backends run as lp, and read what it spools below this folder.
        chmod(folder, 0o755)
        socket = folder + "/cups.sock"
        received = folder + "/received"
        port = try Self.reservePort()
        printerURI = "ipp://localhost:\(port)/ipp/print"
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(folder)/bus"
        environment["CUPS_SERVER"] = socket
        self.environment = environment
        if started { try start() }
    }

    /// Starts the daemons (stopped again if one fails): CUPS answers at `socket` with the printer's queue.
    public func start() throws {
        do {
            try start(port: port)
        } catch {
            stop()
            throw error
        }
    }

    private func start(port: Int) throws {
        let cups = folder + "/cups"
        for sub in ["", "/spool", "/cache", "/state", "/log", "/tmp", "/ppd", "/ssl"] {
            try FileManager.default.createDirectory(atPath: cups + sub, withIntermediateDirectories: true)
            chmod(cups + sub, 0o755)
        }
        try FileManager.default.createDirectory(atPath: received, withIntermediateDirectories: true)
        try write(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(folder)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_type="method_call"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """, to: folder + "/bus.conf")
        try write(
            """
            [server]
            use-ipv4=yes
            use-ipv6=no
            allow-interfaces=lo
            enable-dbus=yes
            [publish]
            publish-hinfo=no
            publish-workstation=no
            """, to: folder + "/avahi.conf")
        try write(
            """
            Listen \(socket)
            Browsing No
            LogLevel warn
            DefaultAuthType None
            WebInterface No
            <Location />
              Order allow,deny
              Allow all
            </Location>
            <Policy default>
              <Limit All>
                Order deny,allow
              </Limit>
            </Policy>
            """, to: cups + "/cupsd.conf")
        try write(
            """
            ServerRoot \(cups)
            RequestRoot \(cups)/spool
            CacheDir \(cups)/cache
            StateDir \(cups)/state
            TempDir \(cups)/tmp
            ErrorLog \(cups)/log/error_log
            AccessLog \(cups)/log/access_log
            PageLog \(cups)/log/page_log
            ServerBin /usr/lib/cups
            DataDir /usr/share/cups
            User lp
            Group lp
            Sandboxing Relaxed
            """, to: cups + "/cups-files.conf")

        // The printer prints at once, unless it is in trouble (`trouble`): then it says so in its IPP state (the
        // printer-state-reasons the file names, as a printer does) and the job waits until the trouble is over. While
        // it prints it reports its supplies (`supplies`), as ATTR: lines ippeveprinter takes into its attributes.
        try write(
            """
            #!/bin/sh
            if [ -e \(folder)/supplies ]; then
                echo "ATTR: $(cat \(folder)/supplies)" >&2
            fi
            if [ -e \(folder)/trouble ]; then
                reasons=$(cat \(folder)/trouble)
                echo "STATE: +$reasons" >&2
                while [ -e \(folder)/trouble ]; do sleep 0.1; done
                echo "STATE: -$reasons" >&2
            fi
            exit 0
            """, toProgram: folder + "/print-command")
        try launch("/usr/bin/dbus-daemon", ["--config-file=\(folder)/bus.conf", "--nofork", "--nopidfile"])
        try wait("the private D-Bus") { FileManager.default.fileExists(atPath: self.folder + "/bus") }
        let avahi = [
            "/usr/sbin/avahi-daemon", "-f", folder + "/avahi.conf", "--no-drop-root", "--no-chroot", "--no-rlimits",
            "--no-proc-title",
        ]
        if Self.ownRunWorks {
            try launch("/usr/bin/unshare", Self.ownRun + avahi, log: "avahi.log")
        } else {
            try launch(avahi[0], Array(avahi.dropFirst()), log: "avahi.log")
        }
        try wait("avahi-daemon") { self.log("avahi.log").contains("Server startup complete") }
        try launch(
            "/usr/sbin/ippeveprinter",
            [
                // localhost: it listens on each of the name's addresses (127.0.0.1 and ::1), loopback only.
                // -c: the printer's print command (see `trouble`); without one a job "prints" for 5 to 15 s.
                // -vvv: each request's attributes in its log (the copies asked for, say).
                "-vvv", "-p", String(port), "-n", "localhost", "-d", received, "-k", "-c", folder + "/print-command",
                // A printer that takes JPEG (as photo printers do): CUPS hands it the photo as it is, with the job's
                // copies and colour mode.
                "-f", "image/jpeg",
                "-m", "HeyLook Test Printer", "HeyLook Test Printer",
            ], log: "ippeveprinter.log")
        try wait("ippeveprinter on port \(port)") { Self.accepts(port: port) }
        try launch(
            "/usr/sbin/cupsd", ["-f", "-c", cups + "/cupsd.conf", "-s", cups + "/cups-files.conf"], log: "cupsd.log")
        // The socket's file is there from cupsd's bind, before it listens: lpadmin connecting then fails ("Unable to
        // connect to server: Bad file descriptor"), so the wait is for cupsd to answer (`lpstat -r`).
        try wait("cupsd's socket") { (try? self.run("/usr/bin/lpstat", ["-h", self.socket, "-r"])) != nil }
        // Just started on a busy machine, cupsd can still refuse a connection now and then after answering one:
        // lpadmin then says "Unable to connect to server: Bad file descriptor". It is asked again, up to 60 s.
        try retrying { () throws in
            try run("/usr/sbin/lpadmin", ["-h", socket, "-p", Self.queue, "-E", "-v", printerURI, "-m", "everywhere"])
        }
        try retrying { () throws in try run("/usr/sbin/lpadmin", ["-h", socket, "-d", Self.queue]) }
    }

    /// What the printer needs, as the printer-state-reasons it reports while a job waits (e.g. `media-empty,media-needed`
    /// out of paper, `media-jam`, `door-open`); nil: nothing, it prints at once. Set while a job waits, the job prints
    /// once it is nil again.
    public var trouble: String? {
        get { setting("trouble") }
        set { set("trouble", newValue) }
    }

    /// The supplies the printer reports from its next job on, as IPP attributes (e.g. `marker-names=Ribbon
    /// marker-levels=5 marker-types=ink-ribbon`); nil: none.
    public var supplies: String? {
        get { setting("supplies") }
        set { set("supplies", newValue) }
    }

    /// A setting the print command reads: the text of file `name` in the fixture's folder, nil when there is none.
    private func setting(_ name: String) -> String? {
        try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    /// Writes setting `name` (nil removes it).
    private func set(_ name: String, _ value: String?) {
        if let value {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(value.utf8))
        } else {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Stops every process (the last started first) and removes the folder.
    public func stop() {
        for process in processes.reversed() where isRunning(process.pid) {
            kill(process.pid, SIGTERM)
            // A daemon that ignores SIGTERM for 5 s is killed.
            for _ in 0..<100 where isRunning(process.pid) { Thread.sleep(forTimeInterval: 0.05) }
            if isRunning(process.pid) {
                kill(process.pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(process.pid, &status, 0)
            }
        }
        processes = []
        try? FileManager.default.removeItem(atPath: folder)
        Self.ports.withLock { _ = $0.remove(port) }
    }

    /// The documents the printer received, oldest first (ippeveprinter names each `JOB-NAME.EXT`), once `count` of
    /// them are there and none grew for 0.5 s, waiting up to `timeout` seconds; what there is then.
    public func documents(count: Int, timeout: Double = 30) -> [String] {
        let end = Date().addingTimeInterval(timeout)
        var last: [String: Int] = [:]
        var steadySince = Date()
        while true {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: received)) ?? [])
                // NAME.prn is the print command's output, not a document.
                .filter { $0.first?.isNumber == true && !$0.hasSuffix(".prn") }
                .sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }
            var sizes: [String: Int] = [:]
            for name in names {
                sizes[name] = (try? FileManager.default.attributesOfItem(atPath: received + "/" + name))?[.size] as? Int
            }
            if sizes != last { (last, steadySince) = (sizes, Date()) }
            let steady = Date().timeIntervalSince(steadySince) >= 0.5
            if (names.count >= count && steady) || Date() > end { return names.map { received + "/" + $0 } }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// The text a process wrote to its log in the fixture's folder.
    public func log(_ name: String) -> String {
        (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
    }

    /// The environment that points libcups at the fixture (CUPS_SERVER), for a booth the test starts.
    public var clientEnvironment: [String: String] { ["CUPS_SERVER": socket] }

    private func write(_ text: String, to path: String) throws {
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
    }

    /// Writes a program ippeveprinter runs, through a descriptor closed on exec. Foundation's writes leave theirs open
    /// across a fork: a process another test started meanwhile (fixtures run side by side) kept the file open for
    /// writing, and running it failed with ETXTBSY (the printer aborted the job, "exited with status 26").
    private func write(_ text: String, toProgram path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw Failure.notReady("cannot write \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = Array((text + "\n").utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure.notReady("cannot write \(path): errno \(errno)")
        }
    }

    /// Starts a daemon with the fixture's environment, its output to `log` in the folder (else /dev/null).
    private func launch(_ program: String, _ arguments: [String], log: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let output = log.map { folder + "/" + $0 } ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        // The test's thread may block signals (Dispatch's threads do), which a child inherits: the daemon gets an
        // empty mask and default handlers, so SIGTERM stops it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure.notReady("cannot start \(program): error \(result)") }
        processes.append((program, pid))
    }

    /// Whether daemon `pid` still runs (one that ended is waited for, once).
    private func isRunning(_ pid: pid_t) -> Bool {
        if ended[pid] != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        ended[pid] = status
        return false
    }

    /// Runs one of CUPS's admin tools against the fixture (`cupsdisable`, `cupsenable`, `lpadmin`...; -h is added).
    public func admin(_ tool: String, _ arguments: [String]) throws {
        try run("/usr/sbin/" + tool, ["-h", socket] + arguments)
    }

    /// Runs `program` to its end; throws with its output when it fails.
    private func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.notReady("\(program) \(arguments.joined(separator: " ")) failed: \(text)\n" + logs)
        }
    }

    /// Runs `body` until it succeeds, again every 0.2 s while it fails with "Unable to connect to server", up to 60 s
    /// (a busy machine's clean-clone run saw cupsd refuse lpadmin for more than 20 s).
    private func retrying(_ body: () throws -> Void) throws {
        let end = Date().addingTimeInterval(60)
        while true {
            do {
                return try body()
            } catch let error as Failure where "\(error)".contains("Unable to connect to server") && Date() < end {
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Waits up to 20 s for `ready`; throws naming `what` with the processes' logs.
    private func wait(_ what: String, _ ready: () -> Bool) throws {
        let end = Date().addingTimeInterval(20)
        while !ready() {
            if let gone = processes.first(where: { !isRunning($0.pid) }) {
                throw Failure.notReady("\(gone.program) ended before \(what) was ready: " + logs)
            }
            guard Date() < end else { throw Failure.notReady("\(what) not ready within 20 s: " + logs) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private var logs: String {
        ["avahi.log", "ippeveprinter.log", "cupsd.log", "cups/log/error_log"].map { "\($0): \(log($0))" }
            .joined(separator: "\n")
    }

    /// avahi-daemon keeps its pid file in /run/avahi-daemon, one per machine: as root the fixture gives it a folder of
    /// its own (`unshare` these arguments: a mount namespace of its own), so the machine's own avahi-daemon, another
    /// fixture's or another test run's does not stop it.
    private static let ownRun = [
        "--mount", "--propagation", "private", "/bin/sh", "-c",
        "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && exec \"$0\" \"$@\"",
    ]

    /// Whether `ownRun` works here. Where it cannot (not root, a container without the right), avahi-daemon runs as
    /// it is and the fixtures take turns.
    private static let ownRunWorks: Bool = {
        guard geteuid() == 0 else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ownRun + ["/bin/true"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The printer ports of the fixtures alive in this process.
    private static let ports = Mutex<Set<Int>>([])

    /// A free port no other fixture of this process holds: a fixture made before another's printer listens would
    /// otherwise be given the same port by the kernel.
    private static func reservePort() throws -> Int {
        while true {
            let port = try freePort()
            if ports.withLock({ $0.insert(port).inserted }) { return port }
        }
    }

    /// A TCP port on 127.0.0.1 nobody listens on now.
    private static func freePort() throws -> Int {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.notReady("no socket for a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure.notReady("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    private static func accepts(port: Int) -> Bool {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where `CUPSFixture` can start (its programs installed), saying what to install otherwise.
    public static var needsCUPSFixture: Self {
        .enabled(
            if: CUPSFixture.isAvailable, "needs cupsd, ippeveprinter and avahi-daemon: scripts/install-deps --test")
    }
}
