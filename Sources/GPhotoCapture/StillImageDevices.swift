// StillImageDevices: whether a USB device with a camera's (still-image, PTP) interface is plugged in, from sysfs.
import BoothSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether a camera over USB may be plugged in, read from sysfs without libgphoto2: a USB interface of the still-image
/// class (06, which PTP cameras and phones in MTP mode have). libgphoto2 loads every driver's list of the thousands of
/// models it knows to find a camera (8 MB the booth would keep); `camera.backend = "auto"` asks it only when this says
/// there is something to find.
public enum StillImageDevices {
    /// Whether any interface below `sysfs` (`/sys/bus/usb/devices`: `1-1:1.0` and the like) is of class 06.
    public static func present(
        sysfs: String = "/sys/bus/usb/devices", operations: any FileOperations = SystemFileOperations()
    ) -> Bool {
        guard let folder = try? operations.openFolder(sysfs) else { return false }
        defer { _ = operations.close(folder) }
        let interfaces = (operations.names(in: folder) ?? []).filter { $0.contains(":") }
        return interfaces.contains { name in
            guard let fd = operations.openat(folder, "\(name)/bInterfaceClass", O_RDONLY | O_CLOEXEC, 0) else {
                return false
            }
            defer { _ = operations.close(fd) }
            guard let bytes = try? FileReading.readAll(fd, limit: 16, read: { operations.read($0, $1) }) else {
                return false
            }
            return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first == "06"
        }
    }
}
