// CUPSClient: the booth's one way into CUPS (libcups through CCUPSShim): send a photo, ask a job's and a queue's state.
import CCUPSShim

/// The booth's calls into CUPS, each blocking on the server (a socket away): a worker thread's, never the loop's.
/// libcups is loaded the first time one is made and used (a booth that does not print never maps it).
public struct CUPSClient: Sendable {
    /// A job's state, as IPP names it (job-state).
    public enum JobState: Int32, Sendable {
        case pending = 3, held, processing, stopped, canceled, aborted, completed

        /// Whether the job will change no more.
        public var isFinal: Bool { self == .canceled || self == .aborted || self == .completed }
    }

    /// A queue's state: its name (the default queue's, when none was asked for), printer-state and
    /// printer-state-reasons (empty when it has none).
    public struct QueueState: Sendable, Equatable {
        public var name: String
        /// IPP's printer-state: 3 idle, 4 processing, 5 stopped.
        public var state: Int32
        public var reasons: [String]

        public init(name: String, state: Int32, reasons: [String]) {
            self.name = name
            self.state = state
            self.reasons = reasons
        }

        public var isStopped: Bool { state == 5 }

        /// What the printer needs before it prints: each reason that stops it (out of paper, a jam, a door open, ink
        /// or ribbon out, offline) with its words. A reason CUPS marks `-report` is information only.
        public var needs: [(reason: String, words: String)] {
            reasons.compactMap { reason in
                guard !reason.hasSuffix("-report") else { return nil }
                let base = ["-error", "-warning"].reduce(reason) { text, suffix in
                    text.hasSuffix(suffix) ? String(text.dropLast(suffix.count)) : text
                }
                return Self.needed[base].map { (reason, $0) }
            }
        }

        /// The reasons that stop a printer, in words; `booth doctor` shows the others as they are.
        public static let needed: [String: String] = [
            "media-empty": "out of paper", "media-needed": "out of paper", "media-jam": "a paper jam",
            "door-open": "a door or cover open", "cover-open": "a door or cover open",
            "marker-supply-empty": "out of ink, toner or ribbon", "toner-empty": "out of toner",
            "offline": "offline (off, or unplugged)", "input-tray-missing": "its paper tray missing",
        ]

        /// What keeps the queue from printing, in words (stopped, and what the printer needs), nil when nothing does.
        public var attention: String? {
            let all = (isStopped ? ["the queue \(name) is stopped"] : []) + needs.map { "\($0.words) (\($0.reason))" }
            return all.isEmpty ? nil : all.joined(separator: "; ")
        }
    }

    /// The server (a socket path or host[:port]); nil: libcups's own choice (CUPS_SERVER, else the local socket).
    public let server: String?
    /// The queue; "" is the server's default queue.
    public let queue: String

    public init(server: String? = nil, queue: String = "") {
        self.server = server
        self.queue = queue
    }

    /// Sends the file at `path` as `copies` copies titled `title`; the job's id. A CUPS out of reach is an
    /// error that `isUnreachable`.
    public func print(path: String, title: String, copies: Int) throws(PrintError) -> Int32 {
        var message = Message()
        let job = message.call { booth_cups_print_file(server, queue, path, title, Int32(clamping: copies), $0) }
        guard job > 0 else { throw PrintError(message.text, unreachable: job == BOOTH_CUPS_UNREACHABLE) }
        return job
    }

    /// Job `job`'s state.
    public func state(ofJob job: Int32) throws(PrintError) -> JobState {
        var message = Message()
        var raw: Int32 = 0
        let status = message.call { booth_cups_job_state(server, queue, job, &raw, $0) }
        guard status == 0 else { throw PrintError(message.text, unreachable: status == BOOTH_CUPS_UNREACHABLE) }
        guard let state = JobState(rawValue: raw) else {
            throw PrintError("CUPS gave job \(job) an unknown state \(raw)")
        }
        return state
    }

    /// The queue's state.
    public func queueState() throws(PrintError) -> QueueState {
        var message = Message()
        var name = [CChar](repeating: 0, count: Int(BOOTH_CUPS_MESSAGE_MAX))
        var reasons = [CChar](repeating: 0, count: Int(BOOTH_CUPS_MESSAGE_MAX))
        var state: Int32 = 0
        let status = name.withUnsafeMutableBufferPointer { namePointer in
            reasons.withUnsafeMutableBufferPointer { reasonsPointer in
                message.call {
                    booth_cups_queue_state(
                        server, queue, namePointer.baseAddress, &state, reasonsPointer.baseAddress, $0)
                }
            }
        }
        guard status == 0 else { throw PrintError(message.text, unreachable: status == BOOTH_CUPS_UNREACHABLE) }
        let list = Self.string(reasons).split(separator: ",").map(String.init).filter { $0 != "none" }
        return QueueState(name: Self.string(name), state: state, reasons: list)
    }

    /// A supply of the queue's printer (ink, toner, a ribbon), as the printer reports it to CUPS (`marker-names`,
    /// `marker-levels`, `marker-types`).
    public struct Supply: Sendable, Equatable {
        public var name: String
        /// Percent full, 0…100; nil when the printer cannot tell (IPP's -1, -2), -3 when it says only "some left".
        public var level: Int?
        public var type: String

        public init(name: String, level: Int?, type: String) {
            (self.name, self.level, self.type) = (name, level, type)
        }
    }

    /// The supplies of the queue's printer; none until the printer has told CUPS (CUPS hears it while it prints).
    public func supplies() throws(PrintError) -> [Supply] {
        let names = try attribute("marker-names")
        let levels = try attribute("marker-levels")
        let types = try attribute("marker-types")
        return names.enumerated().map { index, name in
            let level = index < levels.count ? Int(levels[index]) : nil
            return Supply(
                name: name, level: level.flatMap { $0 >= 0 || $0 == -3 ? $0 : nil },
                type: index < types.count ? types[index] : "")
        }
    }

    /// The values of one of the queue's attributes as CUPS lists them (none when the queue has none).
    private func attribute(_ name: String) throws(PrintError) -> [String] {
        var message = Message()
        var value = [CChar](repeating: 0, count: Int(BOOTH_CUPS_MESSAGE_MAX))
        let status = value.withUnsafeMutableBufferPointer { pointer in
            message.call { booth_cups_queue_attribute(server, queue, name, pointer.baseAddress, $0) }
        }
        guard status == 0 else { throw PrintError(message.text, unreachable: status == BOOTH_CUPS_UNREACHABLE) }
        let text = Self.string(value)
        return text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The shim's message buffer.
    private struct Message {
        private var buffer = [CChar](repeating: 0, count: Int(BOOTH_CUPS_MESSAGE_MAX))

        mutating func call<T>(_ body: (UnsafeMutablePointer<CChar>?) -> T) -> T {
            buffer.withUnsafeMutableBufferPointer { body($0.baseAddress) }
        }

        var text: String { CUPSClient.string(buffer) }
    }
}
