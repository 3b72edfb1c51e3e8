// RecordingUnmounter: an unmount seam that records what it was asked to unmount.
import BoothSystem
import PhotoStore
import USBSticks

/// Records unmount requests instead of unmounting.
public final class RecordingUnmounter: StickUnmounter, @unchecked Sendable {
    /// The mount points asked for, in order.
    public private(set) var calls: [String] = []

    /// An unmounter that has been asked nothing.
    public init() {}

    public func unmount(_ mountPoint: String) -> SystemError? {
        calls.append(mountPoint)
        return nil
    }
}
