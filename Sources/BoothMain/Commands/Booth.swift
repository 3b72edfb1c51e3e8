// Booth: the `booth` command.
import ArgumentParser
import BoothCore
import BoothRuntime
import GPIOInput

/// The `booth` command.
@main
struct Booth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booth",
        abstract: "HeyLook Booth: a photo booth that gets a child to look at the camera.",
        version: "HeyLook Booth \(BoothVersion.current) (built with libgpiod \(GPIOInventory.libgpiodVersion))",
        subcommands: [
            SimulateCommand.self, RunCommand.self, DoctorCommand.self, ExportCommand.self, PhotosCommand.self,
            InspectCommand.self, SoundsCommand.self, StatsCommand.self, GalleryCommand.self, CardCommand.self,
            HotspotCommand.self, PrintCommand.self, LayoutCommand.self, RemoteCommand.self,
        ],
        defaultSubcommand: SimulateCommand.self
    )
}
