// ErrnoText: "No such file or directory (ENOENT)" for error messages.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The C library's text for `code` followed by its symbolic name, e.g. "Device or resource busy (EBUSY)".
func errnoText(_ code: Int32) -> String {
    let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF", EAGAIN: "EAGAIN",
        ENOMEM: "ENOMEM", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST", ENODEV: "ENODEV",
        ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", ENOSPC: "ENOSPC", EROFS: "EROFS",
        EPIPE: "EPIPE", ELOOP: "ELOOP", ESTRPIPE: "ESTRPIPE", EBADFD: "EBADFD", EXDEV: "EXDEV",
    ]
    let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    return "\(text) (\(names[code] ?? "errno \(code)"))"
}
