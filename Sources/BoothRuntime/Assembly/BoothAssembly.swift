// BoothAssembly: the one way `booth run` and `booth simulate` put a booth together around their devices.
import BoothCore
import BoothSystem

/// The one way `booth run` and `booth simulate` put a booth together: the knob's choices read and the loop made
/// first, then the devices (each made with `context`, so it reports to the controller from the start), then the
/// controller over them. The commands differ only in which devices they make.
package struct BoothAssembly {
    /// The booth's settings, as the command adjusted them.
    package let settings: BoothSettings
    /// The knob's choices from the state file (the defaults, and a warning logged, when it cannot be read).
    package let choices: RuntimeChoices
    /// The booth's one event loop.
    package let loop: EventLoop
    /// Where devices report until the controller takes their events.
    package let inbox: EventInbox

    /// Reads the choices for `settings` and makes the loop, on the kernel's clock or, with `virtualTime`, on a
    /// virtual one that skips idle waits. First, before any device starts a thread, malloc's limits
    /// (`AllocatorLimits`): a photo's frame and JPEG are mapped for it and given back when freed, so the booth's
    /// memory stays where its first minute left it instead of keeping the largest buffers it ever freed.
    package init(settings: BoothSettings, virtualTime: Bool = false) throws {
        if let warning = AllocatorLimits.apply() { Log.warning(warning) }
        let (choices, warning) = ConfigLoader.choices(settings: settings)
        if let warning { Log.warning(warning) }
        self.settings = settings
        self.choices = choices
        loop = try EventLoop(clock: LoopClock(virtual: virtualTime))
        inbox = EventInbox()
    }

    /// What every device is made with: this booth's loop, reporting to its controller.
    package var context: DeviceContext { DeviceContext(loop: loop, inbox: inbox) }

    /// The controller over `devices`, writing its events to `log` and dating photos by `wallClock`.
    package func controller(
        devices: BoothController.Devices, log: EventsLog, wallClock: WallClock
    ) throws -> BoothController {
        try BoothController(
            settings: settings, choices: choices, devices: devices, loop: loop, inbox: inbox, log: log,
            wallClock: wallClock)
    }
}
