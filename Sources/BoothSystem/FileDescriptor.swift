// FileDescriptor: swift-system's open-file descriptor, the type every descriptor of this layer has.
import SystemPackage

/// An open file's descriptor, swift-system's type: what `FileOperations` opens and takes and what the event loop
/// watches, so a descriptor is never confused with a count, a flag or a status, and callers need no C library to hold
/// one. Its raw value is for the C calls alone.
public typealias FileDescriptor = SystemPackage.FileDescriptor

extension FileDescriptor {
    /// The descriptor a C call that opens returned, or nil for its -1 (errno left as the call set it).
    init?(opened fd: Int32) {
        guard fd >= 0 else { return nil }
        self.init(rawValue: fd)
    }
}
