// CameraHoldersTests: which processes hold a camera, read from /proc.
import Glibc
import Testing

@testable import CameraCapture

@Suite struct CameraHoldersTests {
    /// A fake /proc: pid 10 (cam) holds /dev/media0, pid 11 only a file, pid 12 is us.
    @Test func findsOtherProcessesHoldingCameraNodes() throws {
        var template = Array("/tmp/camera-holders-XXXXXX".utf8CString)
        let root = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { _ = system("rm -rf '\(root)'") }
        func process(_ pid: Int, _ command: String, _ targets: [String]) {
            mkdir("\(root)/\(pid)", 0o755)
            mkdir("\(root)/\(pid)/fd", 0o755)
            let file = fopen("\(root)/\(pid)/comm", "w")
            fputs("\(command)\n", file)
            fclose(file)
            for (fd, target) in targets.enumerated() { symlink(target, "\(root)/\(pid)/fd/\(fd)") }
        }
        process(10, "cam", ["/dev/null", "/dev/media0", "/dev/video1"])
        process(11, "bash", ["/dev/pts/0", "/home/x/video.txt"])
        process(12, "booth", ["/dev/media0"])
        mkdir("\(root)/self", 0o755)

        let holders = CameraHolder.find(proc: root, excluding: 12)
        #expect(holders == [CameraHolder(pid: 10, command: "cam", device: "/dev/media0")])
        #expect(holders[0].description == "cam (pid 10) has /dev/media0 open")
        // A camera over USB: its own /dev/bus/usb node, not another device's on the same bus.
        process(13, "gvfsd-gphoto2", ["/dev/null", "/dev/bus/usb/001/005"])
        process(14, "fwupd", ["/dev/bus/usb/001/004"])
        let node = try #require(CameraHolder.usbNode(port: "usb:001,005"))
        #expect(node == "/dev/bus/usb/001/005")
        #expect(
            CameraHolder.find(proc: root, excluding: 12) { $0 == node }
                == [CameraHolder(pid: 13, command: "gvfsd-gphoto2", device: "/dev/bus/usb/001/005")])
    }

    @Test func onlyAUSBPortNamesANode() {
        #expect(CameraHolder.usbNode(port: "usb:002,017") == "/dev/bus/usb/002/017")
        #expect(CameraHolder.usbNode(port: "usb:") == nil)
        #expect(CameraHolder.usbNode(port: "usb:1,5") == nil)
        #expect(CameraHolder.usbNode(port: "serial:/dev/ttyS0") == nil)
        #expect(CameraHolder.usbNode(port: "usb:001,005,7") == nil)
    }
}
