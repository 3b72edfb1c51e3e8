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
    }
}
