// DoctorCommand+Remotes: what doctor says of the remotes (connected, paired over Bluetooth, their batteries).
import BoothCore
import BoothRuntime
import KeyInput

extension DoctorCommand {
    /// The remotes `remote.devices` names, each connected (with its ids, bus and node) or not: a remote asleep is no
    /// problem, a press wakes it. A Bluetooth remote BlueZ has paired adds its address and its battery; a battery at
    /// or below `lowBattery` percent is a problem.
    static func remoteReport(
        _ remote: BoothSettings.Remote, devices: [InputDeviceList.Device], bluetooth: [BluetoothRemotes.Device] = []
    ) -> (lines: [String], problems: [String]) {
        guard !remote.devices.isEmpty else {
            return (["none (remote.devices; `booth remote list` shows the devices)"], [])
        }
        var problems: [String] = []
        let lines = remote.devices.map { selector in
            let paired = bluetooth.filter { RemoteCommand.isTaken($0, by: selector) }
            for device in paired {
                if let level = device.battery, level <= lowBattery {
                    problems.append("the remote \(device)'s battery is at \(level) %: change it")
                }
            }
            let over = paired.map { "; Bluetooth \($0.address)" + ($0.battery.map { ", battery \($0) %" } ?? "") }
                .joined()
            let found = devices.filter { selector.matches(name: $0.name, vendor: $0.vendor, product: $0.product) }
            guard !found.isEmpty else {
                if !paired.isEmpty {
                    return "\(selector): not connected (paired\(over); asleep or off: a key press wakes it)"
                }
                return "\(selector): not connected (asleep, off or not paired: a key press wakes a Bluetooth remote)"
            }
            return found.map { device in
                let ids = RemoteSelector.ids(vendor: device.vendor, product: device.product).description
                let node = device.eventNode.map { " at /dev/input/\($0)" } ?? ""
                return "✓ \"\(device.name)\" (\(ids), \(device.busName))\(node)"
            }.joined(separator: "; ") + over
        }
        return (lines, problems)
    }

    /// A remote's battery at or below this, in percent, is a problem: change it before the party.
    static let lowBattery = 20

    /// The Bluetooth devices BlueZ has paired, when a remote is configured and BlueZ answers; none otherwise (no
    /// BlueZ is no problem: a USB remote needs none).
    static func pairedBluetooth(_ settings: BoothSettings) -> [BluetoothRemotes.Device] {
        guard !settings.remote.devices.isEmpty, let bluetooth = try? BluetoothRemotes() else { return [] }
        return (try? bluetooth.paired()) ?? []
    }
}
