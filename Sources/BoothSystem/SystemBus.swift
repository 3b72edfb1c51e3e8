// SystemBus: a connection to D-Bus's system bus and calls of text arguments on it (sd-bus, through CSystemdBus).
import BoothTime
import CSystemdBus
import Glibc

/// A connection to the system bus for calls whose arguments are basic values (given as text) and whose reply's first
/// value is read as text: NetworkManager's and systemd's services. Owned by one thread at a time.
public final class SystemBus {
    /// A call that failed: which, the errno the C shim chose (ENXIO `.noSuchAddressOrDevice`: nobody owns the
    /// service; EACCES `.permissionDenied`: not allowed) and the D-Bus error's name and text.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let call: String
        public let code: Errno
        public let detail: String
        public init(call: String, code: Int32, detail: String) {
            self.call = call
            self.code = Errno(rawValue: code)
            self.detail = detail
        }
        public var description: String {
            "\(call): "
                + (detail.isEmpty
                    ? ErrnoText.describe(code.rawValue) : "\(detail) (\(ErrnoText.name(code.rawValue)))")
        }
    }

    private let bus: OpaquePointer

    /// Connects to the system bus; throws where there is none (no D-Bus, a container).
    public init() throws(Failure) {
        guard let bus = booth_bus_open_system() else {
            throw Failure(call: "connecting to the system bus", code: errno, detail: "")
        }
        self.bus = bus
    }

    /// Connects to the bus at `address` (a private bus, in tests).
    public init(address: String) throws(Failure) {
        guard let bus = booth_bus_open_address(address) else {
            throw Failure(call: "connecting to \(address)", code: errno, detail: "")
        }
        self.bus = bus
    }

    deinit { booth_bus_close(bus) }

    /// Calls `interface.method` on `path` of `destination` with `arguments` typed by `signature` (s, o, b, y, u, i,
    /// t, x, or v: a variant of one of those, written "b:true"); returns the reply's first value as text (an array one
    /// value per line, "" for none).
    @discardableResult
    public func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, signature: String = "",
        _ arguments: [String] = []
    ) throws(Failure) -> String {
        precondition(signature.utf8.count == arguments.count, "one argument per type in the signature")
        var reply = [CChar](repeating: 0, count: 65_536)
        var message = [CChar](repeating: 0, count: Int(BOOTH_BUS_MESSAGE_MAX))
        var copies: [UnsafePointer<CChar>?] = arguments.map { UnsafePointer(strdup($0)) }
        defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
        let result = copies.withUnsafeMutableBufferPointer { pointers in
            booth_bus_call(
                bus, destination, path, interface, method, signature, pointers.baseAddress, &reply, reply.count,
                &message, message.count)
        }
        guard result == 0 else {
            throw Failure(call: "\(interface).\(method)", code: errno, detail: Self.text(message))
        }
        return Self.text(reply)
    }

    /// Stops systemd's unit `unit` (StopUnit, mode "replace") and waits at most `timeoutMicroseconds` for its job to
    /// end. The failure's code says why (ENOENT: systemd knows no such unit; ENXIO: no systemd on this bus; EACCES:
    /// polkit refused; ETIMEDOUT; EBUSY: the job failed), its detail what systemd said.
    public func stopUnit(_ unit: String, timeout: Duration) throws(Failure) {
        var message = [CChar](repeating: 0, count: Int(BOOTH_BUS_MESSAGE_MAX))
        guard booth_bus_stop_unit(bus, unit, UInt64(clamping: timeout.inMicroseconds), &message, message.count) != 0
        else { return }
        throw Failure(call: "stop \(unit)", code: errno, detail: Self.text(message))
    }

    /// The property `name` of `interface` on `path` of `destination`, as text.
    public func property(
        _ destination: String, _ path: String, _ interface: String, _ name: String
    )
        throws(Failure) -> String
    {
        try call(destination, path, "org.freedesktop.DBus.Properties", "Get", signature: "ss", [interface, name])
    }

    /// Sets the property `name` of `interface` on `path` of `destination` to `value`, a variant written as its type
    /// and text ("b:true").
    public func setProperty(
        _ destination: String, _ path: String, _ interface: String, _ name: String, to value: String
    ) throws(Failure) {
        try call(
            destination, path, "org.freedesktop.DBus.Properties", "Set", signature: "ssv", [interface, name, value])
    }

    /// The objects an object manager at `path` of `destination` has (GetManagedObjects): object path → interface →
    /// property → value as text (an array of basic values joined by commas; properties of other types left out).
    public func managedObjects(
        _ destination: String, _ path: String = "/"
    ) throws(Failure)
        -> [String: [String: [String: String]]]
    {
        var size = 65_536
        var message = [CChar](repeating: 0, count: Int(BOOTH_BUS_MESSAGE_MAX))
        while true {
            var out = [CChar](repeating: 0, count: size)
            guard booth_bus_managed_objects(bus, destination, path, &out, out.count, &message, message.count) == 0
            else {
                let code = errno
                if code == ERANGE && size < 1 << 24 {
                    size *= 4
                    continue
                }
                throw Failure(call: "\(destination) GetManagedObjects", code: code, detail: Self.text(message))
            }
            var objects: [String: [String: [String: String]]] = [:]
            for line in Self.text(out).split(separator: "\n") {
                let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count == 4 else { continue }
                objects[String(fields[0]), default: [:]][String(fields[1]), default: [:]][String(fields[2])] =
                    String(fields[3])
            }
            return objects
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
