// ErrnoTests: the booth's one list of answers that mean a device is missing, and of those that mean it went away.
import BoothSystem
import Glibc
import Testing

@Suite struct ErrnoTests {
    @Test func aDeviceIsMissingWhenItsNodeOrItsDeviceIsNotThere() {
        let missing = [ENOENT, ENODEV, ENXIO].map { Errno(rawValue: $0) }
        #expect(missing.allSatisfy { $0.meansDeviceMissing })
        let other = [EIO, EACCES, EBUSY, ENOTTY, EINVAL, ESHUTDOWN].map { Errno(rawValue: $0) }
        #expect(!other.contains { $0.meansDeviceMissing })
    }

    @Test func aDeviceWentAwayWhenItsLinkOrMediumIsGone() {
        let gone = [ENODEV, ENXIO, EIO, ESHUTDOWN, ENOTCONN].map { Errno(rawValue: $0) }
        #expect(gone.allSatisfy { $0.meansDeviceGone })
        // A missing node is not a device gone mid-use, nor is a full or read-only stick.
        let other = [ENOENT, ENOSPC, EROFS, EACCES, EBUSY, EINVAL].map { Errno(rawValue: $0) }
        #expect(!other.contains { $0.meansDeviceGone })
    }
}
