// CameraHolders: which other processes hold camera device nodes open (a camera libcamera cannot list may be busy).
import BoothSystem
import Glibc

/// A process with a /dev/media* or /dev/video* node open.
public struct CameraHolder: Sendable, Hashable, CustomStringConvertible {
    /// Its process id.
    public var pid: Int32
    /// Its command name (/proc/PID/comm).
    public var command: String
    /// The device node it holds, e.g. "/dev/media0" (the one on its lowest descriptor).
    public var device: String

    /// A holder as found in /proc.
    public init(pid: Int32, command: String, device: String) {
        self.pid = pid
        self.command = command
        self.device = device
    }

    public var description: String { "\(command) (pid \(pid)) has \(device) open" }

    /// Other processes with camera nodes open (`node` says which paths are: by default libcamera's media, video and
    /// subdevice nodes; a camera over USB is its /dev/bus/usb node), by scanning `proc`/PID/fd links (processes whose
    /// descriptors we may not read are skipped). Some pipelines (vimc, for one) cannot even be listed while another
    /// process streams, so this is how the booth tells "busy" from "missing".
    public static func find(
        proc: String = "/proc", excluding me: Int32 = getpid(), node: (String) -> Bool = isCameraNode
    ) -> [CameraHolder] {
        var holders: [CameraHolder] = []
        for entry in names(in: proc) {
            guard let pid = Int32(entry), pid != me else { continue }
            let fds = "\(proc)/\(entry)/fd"
            let device = names(in: fds).lazy.compactMap { link(at: "\(fds)/\($0)") }.first(where: node)
            guard let device else { continue }
            var command = firstLine(of: "\(proc)/\(entry)/comm") ?? "?"
            if command.isEmpty { command = "?" }
            holders.append(CameraHolder(pid: pid, command: command, device: device))
        }
        return holders.sorted { $0.pid < $1.pid }
    }

    /// The /dev/bus/usb node of the USB device libgphoto2 names by `port` ("usb:001,005" → /dev/bus/usb/001/005);
    /// nil for another kind of port.
    public static func usbNode(port: String) -> String? {
        guard port.hasPrefix("usb:") else { return nil }
        let parts = port.dropFirst(4).split(separator: ",")
        guard parts.count == 2, parts.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isNumber) }) else { return nil }
        return "/dev/bus/usb/\(parts[0])/\(parts[1])"
    }

    /// Whether `path` is a node libcamera's cameras are reached through.
    public static func isCameraNode(_ path: String) -> Bool {
        path.hasPrefix("/dev/media") || path.hasPrefix("/dev/video") || path.hasPrefix("/dev/v4l-subdev")
    }

    /// The names in `directory`, numbers first in order (a folder that cannot be read has none).
    private static func names(in directory: String) -> [String] {
        let names = (try? FileReading.names(in: directory)) ?? nil
        return (names ?? []).sorted { (Int($0) ?? Int.max, $0) < (Int($1) ?? Int.max, $1) }
    }

    private static func link(at path: String) -> String? {
        SymbolicLink.target(at: path)
    }

    /// The first line of the file at `path` (at most 256 bytes read), without its newline.
    private static func firstLine(of path: String) -> String? {
        guard let text = try? FileReading.text(of: path, limit: 256), !text.isEmpty else { return nil }
        return String(text.prefix { $0 != "\n" })
    }
}
