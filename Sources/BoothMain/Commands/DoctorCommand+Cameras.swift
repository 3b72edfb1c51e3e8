// DoctorCommand+Cameras: what doctor says of a camera over USB (its battery and card, who holds it).
import BoothRuntime
import CameraCapture

extension DoctorCommand {
    /// What doctor says of an open camera over USB: "battery 50%, 9310 MiB free on its card" (MiB, as for storage).
    static func cameraState(battery: String?, freeBytes: Int64?) -> String? {
        var parts: [String] = []
        if let battery { parts.append("battery \(battery)") }
        if let freeBytes {
            parts.append("\(freeBytes / 1_048_576) MiB free on its card")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The camera `camera` is held by `holders` (the processes with its USB node open, those doctor may see): who,
    /// and how to free it; a problem unless the booth holds it (its service taking photos with it) or nobody visible
    /// does (another user's process: the booth's service, as a rule).
    static func busyCamera(_ camera: String, holders: [CameraHolder]) -> (text: String, problem: Bool) {
        guard !holders.isEmpty else {
            return (
                "in use by a program of another user (the booth's service, if it runs: `systemctl status "
                    + "heylook-booth`); `sudo booth doctor` names it", false
            )
        }
        if holders.allSatisfy({ $0.command == "booth" }) {
            let pids = holders.map { String($0.pid) }.joined(separator: ", ")
            return ("in use by the booth (pid \(pids)): `sudo systemctl stop heylook-booth` to try it here", false)
        }
        let fixes = holders.filter { $0.command != "booth" }.map { holder in
            let who = "\(holder.command) (pid \(holder.pid))"
            if holder.command.hasPrefix("gvfs") {
                return "\(who), the desktop's camera monitor: `systemctl --user stop gvfs-gphoto2-volume-monitor` "
                    + "(on a booth, `sudo apt remove gvfs-backends`)"
            }
            return "\(who): close it"
        }
        return (
            "camera \(camera) is in use by \(fixes.joined(separator: "; ")); the booth cannot take photos with it", true
        )
    }
}
