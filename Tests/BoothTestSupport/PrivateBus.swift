// PrivateBus: a dbus-daemon of a test's own, on a socket in a temporary folder.
import Glibc
import Testing

/// A dbus-daemon of its own on a socket in a temporary folder, stopped when the last reference goes.
public final class PrivateBus: @unchecked Sendable {
    /// The bus's D-Bus address ("unix:path=…").
    public let address: String
    public let pid: pid_t
    let folder: String

    public init() throws {
        var template = Array("/tmp/system-bus-XXXXXX".utf8CString)
        try #require(mkdtemp(&template) != nil)
        folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let command =
            "dbus-daemon --session --fork --print-address=1 --print-pid=1 --address=unix:path=\(folder)/bus"
        let pipe = try #require(popen(command, "r"), "cannot run dbus-daemon")
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while case let count = fread(&buffer, 1, buffer.count, pipe), count > 0 { output += buffer[..<count] }
        let status = pclose(pipe)
        try #require(status == 0, "dbus-daemon did not start (Debian's dbus-daemon, a dependency of dbus)")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "dbus-daemon printed \(lines)")
        address = lines[0]
        pid = try #require(pid_t(lines[1]))
    }

    deinit {
        kill(pid, SIGTERM)
        unlink("\(folder)/bus")
        rmdir(folder)
    }
}
