// DeviceFault: why the camera, the sound, the store or a stick failed, as a value the state machine can tell apart.

/// Why the camera, the sound, the photo store or a stick failed: which part, the kind of failure whatever the library,
/// the library's own code, and the words a person reads (what failed, and the fix where there is one). Devices and
/// workers report failures to the state machine as this value, never as bare text, so the machine and the events
/// can tell a camera that went away from one that timed out, or a full store from a broken one.
public struct DeviceFault: Error, Hashable, Sendable, CustomStringConvertible {
    /// The part that failed.
    public enum Source: String, Hashable, Sendable {
        case camera, sound, encoder, store, stick
    }

    /// The kind of failure, the same for every library.
    public enum Kind: String, Hashable, Sendable {
        /// Not there: never found, or not open now.
        case missing
        /// Went away while in use: unplugged, pulled out, switched off.
        case gone
        /// No answer within its time.
        case timedOut
        /// Held by another program.
        case busy
        /// The booth may not use it (permissions, a privilege it lacks).
        case notAllowed
        /// No room left (the store, a stick, a camera's card).
        case full
        /// Anything else: the message says what.
        case failed
    }

    /// The library's own code for the failure, when it gave one.
    public enum Code: Hashable, Sendable {
        /// None given.
        case none
        /// A Linux call's errno (positive).
        case system(Int32)
        /// A library's own code (e.g. libgphoto2's `GP_ERROR_*`), named by the library.
        case library(String, Int32)
    }

    /// The part that failed.
    public var source: Source
    /// The kind of failure.
    public var kind: Kind
    /// The library's own code.
    public var code: Code
    /// The call or step that failed (`snd_pcm_writei`, `write`, `gp_camera_capture`), when one call did.
    public var operation: String?
    /// What failed and the fix, as a person reads it (the log, the events).
    public var message: String

    /// A fault of `source`, of `kind`, with `code`, in `operation`, described by `message`.
    public init(_ source: Source, _ kind: Kind, code: Code = .none, operation: String? = nil, _ message: String) {
        self.source = source
        self.kind = kind
        self.code = code
        self.operation = operation
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The code as the events say it: `errno 28`, `libgphoto2 -7`, nil when there is none.
    public var codeName: String? {
        switch code {
        case .none: return nil
        case .system(let number): return "errno \(number)"
        case .library(let library, let number): return "\(library) \(number)"
        }
    }
}
