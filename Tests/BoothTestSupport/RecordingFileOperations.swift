// RecordingFileOperations: real file operations, recorded by name and followed by a DurabilityModel.
import BoothSystem
import Glibc
import PhotoStore
import Synchronization

/// Real calls, each recorded: `calls` lists the fsyncs, renames ("rename A B" never replaces,
/// "replace A B" does) and, when asked, the closes, by the last part of the path each descriptor was
/// opened under; `model` follows every call's effect on what a power cut would keep.
public final class RecordingFileOperations: FileOperations {
    private let real = SystemFileOperations()
    private let paths = Mutex<[FileDescriptor: String]>([:])
    private let state = Mutex<(calls: [String], model: DurabilityModel)>(([], DurabilityModel()))
    /// Whether closes are in `calls` too.
    public let recordsCloses: Bool

    /// Records fsyncs and renames (and closes, with `recordsCloses`).
    public init(recordsCloses: Bool = false) { self.recordsCloses = recordsCloses }

    /// The recorded calls so far.
    public var calls: [String] { state.withLock { $0.calls } }
    /// What a power cut would keep now.
    public var model: DurabilityModel { state.withLock { $0.model } }

    /// Names `fd`, opened elsewhere (a folder a test opened itself), by `path`.
    public func name(_ fd: FileDescriptor, _ path: String) {
        paths.withLock { $0[fd] = path }
        state.withLock { $0.model.opened(path, creating: false) }
    }

    private func path(_ fd: FileDescriptor) -> String { paths.withLock { $0[fd] ?? "?fd\(fd)" } }
    private func path(in directory: FileDescriptor, _ name: String) -> String { "\(path(directory))/\(name)" }
    private static func last(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    private func record(_ call: String, _ change: (inout DurabilityModel) -> Void = { _ in }) {
        state.withLock {
            $0.calls.append(call)
            change(&$0.model)
        }
    }

    private func opened(_ fd: FileDescriptor?, _ path: String, _ flags: Int32) -> FileDescriptor? {
        guard let fd else { return nil }
        paths.withLock { $0[fd] = path }
        state.withLock { $0.model.opened(path, creating: flags & O_CREAT != 0) }
        return fd
    }

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        opened(real.open(path, flags, mode), path, flags)
    }
    public func openat(_ directory: FileDescriptor, _ name: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        opened(real.openat(directory, name, flags, mode), path(in: directory, name), flags)
    }
    public func write(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) -> Int {
        let written = real.write(fd, buffer)
        if written > 0 { state.withLock { $0.model.wrote(path(fd)) } }
        return written
    }
    public func fsync(_ fd: FileDescriptor) -> Int32 {
        let result = real.fsync(fd)
        let path = path(fd)
        record("fsync \(Self.last(path))") { if result == 0 { $0.synced(path) } }
        return result
    }
    public func close(_ fd: FileDescriptor) -> Int32 {
        if let path = paths.withLock({ $0.removeValue(forKey: fd) }), recordsCloses {
            record("close \(Self.last(path))")
        }
        return real.close(fd)
    }
    public func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        renamed(real.renameNoReplace(from, to), "rename", from, to)
    }
    public func rename(_ from: String, _ to: String) -> Int32 { renamed(real.rename(from, to), "replace", from, to) }
    public func unlink(_ path: String) -> Int32 { removed(real.unlink(path), path) }
    public func renameatNoReplace(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        renamed(
            real.renameatNoReplace(directory, from, to), "rename", path(in: directory, from), path(in: directory, to))
    }
    public func renameat(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        renamed(real.renameat(directory, from, to), "replace", path(in: directory, from), path(in: directory, to))
    }
    public func unlinkat(_ directory: FileDescriptor, _ name: String, _ flags: Int32) -> Int32 {
        removed(real.unlinkat(directory, name, flags), path(in: directory, name))
    }
    public func mkdirat(_ directory: FileDescriptor, _ name: String, _ mode: mode_t) -> Int32 {
        let result = real.mkdirat(directory, name, mode)
        if result == 0 { state.withLock { $0.model.madeFolder(path(in: directory, name)) } }
        return result
    }

    private func renamed(_ result: Int32, _ verb: String, _ from: String, _ to: String) -> Int32 {
        let code = errno
        record("\(verb) \(Self.last(from)) \(Self.last(to))") { if result == 0 { $0.renamed(from, to: to) } }
        errno = code
        return result
    }

    private func removed(_ result: Int32, _ path: String) -> Int32 {
        if result == 0 { state.withLock { $0.model.removed(path) } }
        return result
    }
}
