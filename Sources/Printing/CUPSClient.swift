// CUPSClient: the booth's one way into CUPS (libcups through CCUPSShim): send a photo, ask a job's and a queue's state.
import CCUPSShim

/// The booth's calls into CUPS, each blocking on the server (a socket away): a worker thread's, never the loop's.
/// libcups is loaded the first time one is made and used (a booth that does not print never maps it).
public struct CUPSClient: Sendable {
    /// A job's state, as IPP names it (job-state).
    public enum JobState: Int32, Sendable, CustomStringConvertible {
        case pending = 3, held, processing, stopped, canceled, aborted, completed

        /// Whether the job will change no more.
        public var isFinal: Bool { self == .canceled || self == .aborted || self == .completed }

        public var description: String {
            switch self {
            case .pending: "pending"
            case .held: "held"
            case .processing: "processing"
            case .stopped: "stopped"
            case .canceled: "canceled"
            case .aborted: "aborted"
            case .completed: "completed"
            }
        }
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
    }

    /// The server (a socket path or host[:port]); nil: libcups's own choice (CUPS_SERVER, else the local socket).
    public let server: String?
    /// The queue; "" is the server's default queue.
    public let queue: String

    public init(server: String? = nil, queue: String = "") {
        self.server = server
        self.queue = queue
    }

    /// Sends the file at `path` as `copies` copies titled `title`; the job's id.
    public func print(path: String, title: String, copies: Int) throws(PrintError) -> Int32 {
        var message = Message()
        let job = message.call { booth_cups_print_file(server, queue, path, title, Int32(clamping: copies), $0) }
        guard job > 0 else { throw PrintError(message.text) }
        return job
    }

    /// Job `job`'s state.
    public func state(ofJob job: Int32) throws(PrintError) -> JobState {
        var message = Message()
        var raw: Int32 = 0
        let status = message.call { booth_cups_job_state(server, queue, job, &raw, $0) }
        guard status == 0 else { throw PrintError(message.text) }
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
        guard status == 0 else { throw PrintError(message.text) }
        let list = Self.string(reasons).split(separator: ",").map(String.init).filter { $0 != "none" }
        return QueueState(name: Self.string(name), state: state, reasons: list)
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
