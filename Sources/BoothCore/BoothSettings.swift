// BoothSettings: everything a booth is configured with.
import BoothTime

/// Everything a booth is configured with: pins, devices, paths, favourites, ratio, timings and the
/// defaults of the knob's choices. Read from one human-editable TOML file by `init(toml:)`.
public struct BoothSettings: Hashable, Sendable {
    /// A GPIO line: by BCM offset on the chip, or by the line's name.
    public enum Line: Hashable, Sendable, CustomStringConvertible {
        /// The line with this offset (BCM number on a Pi).
        case offset(Int)
        /// The line with this name (e.g. "GPIO17").
        case name(String)

        public var description: String {
            switch self {
            case .offset(let n): "GPIO\(n)"
            case .name(let s): s
            }
        }
    }

    /// How a rotary encoder's detents relate to its Gray-code transitions.
    public enum EncoderKind: String, Hashable, Sendable, CaseIterable {
        /// Four transitions per detent (KY-040 and most cheap encoders).
        case fullStep = "full-step"
        /// Two transitions per detent.
        case halfStep = "half-step"
    }

    /// Which sticks get photos.
    public enum StickPolicy: String, Hashable, Sendable, CaseIterable {
        /// Only the owner's sticks: a stick made this booth's own once, by holding the knob's switch while the
        /// LEDs show it is unknown. Only copies on them count for `cleanup_exported`.
        case owner
        /// Every stick gets every photo, and a copy on any stick counts for `cleanup_exported`.
        case any
    }

    /// When the flash / fill light is used.
    public enum FlashMode: String, Hashable, Sendable, CaseIterable {
        /// Never.
        case off
        /// Around every exposure.
        case on
        /// When the scene is dark (from the camera's lux metadata).
        case auto
    }

    /// The GPIO wiring.
    public struct GPIO: Hashable, Sendable {
        /// The chip: "auto" (found by the Pi's label), or a label, path (/dev/gpiochipN) or name (gpiochipN).
        public var chip = "auto"
        /// The big arcade button (to ground, pulled up).
        public var button: Line = .offset(17)
        /// The big button's own LED.
        public var buttonLED: Line = .offset(27)
        /// Rotary encoder contact A (CLK on a KY-040).
        public var knobA: Line = .offset(5)
        /// Rotary encoder contact B (DT on a KY-040).
        public var knobB: Line = .offset(6)
        /// Rotary encoder push switch (SW on a KY-040).
        public var knobSwitch: Line = .offset(13)
        /// The countdown LEDs, first to last (1...8).
        public var leds: [Line] = [.offset(22), .offset(23), .offset(24), .offset(25)]
        /// Optional flash / fill-light output.
        public var flash: Line?
        /// Optional haptic cue output (a vibration motor in the photographer's button): one pulse as the
        /// countdown starts.
        public var haptic: Line?
        /// Optional cancel button.
        public var cancel: Line?
        /// Optional print button (`print.mode` on): prints the last photos kept again.
        public var print: Line?
        /// Software debounce.
        public var debounce: Duration = .milliseconds(10)
        /// How long a press must be held to be a long press.
        public var longPress: Duration = .seconds(1)
        /// The encoder's kind.
        public var encoder: EncoderKind = .fullStep
    }

    /// Remotes, keypads and pedals (Linux input devices) that work the booth like its button and knob.
    public struct Remote: Hashable, Sendable {
        /// The devices that are remotes; none (the default) leaves every input device alone.
        public var devices: [RemoteSelector] = []
        /// Keys that press the big button (a press and its release, however short).
        public var pressKeys: [KeyCode] = [KeyCode(name: "KEY_VOLUMEUP"), KeyCode(name: "KEY_ENTER")].compactMap { $0 }
        /// Keys that press the big button and hold it past the long-press time at once: during a photo's review, a
        /// retake (remotes send a press and its release together, so a hold cannot be asked of them).
        public var retakeKeys: [KeyCode] = [KeyCode(name: "KEY_VOLUMEDOWN")].compactMap { $0 }
        /// Keys that press the print button (`print.mode` on).
        public var printKeys: [KeyCode] = []
        /// Keys that turn the knob one detent anticlockwise and clockwise, and press its switch.
        public var knobLeftKeys: [KeyCode] = []
        /// See `knobLeftKeys`.
        public var knobRightKeys: [KeyCode] = []
        /// See `knobLeftKeys`.
        public var knobPressKeys: [KeyCode] = []

        /// The defaults.
        public init() {}

        /// Each role's keys, in `RemoteKeyRole`'s order.
        public var keyLists: [(role: RemoteKeyRole, keys: [KeyCode])] {
            [
                (.press, pressKeys), (.retake, retakeKeys), (.print, printKeys), (.knobLeft, knobLeftKeys),
                (.knobRight, knobRightKeys), (.knobPress, knobPressKeys),
            ]
        }

        /// What each key does; a key listed for two things is the first's (the config refuses that).
        public var roles: [KeyCode: RemoteKeyRole] {
            var roles: [KeyCode: RemoteKeyRole] = [:]
            for (role, keys) in keyLists {
                for key in keys where roles[key] == nil { roles[key] = role }
            }
            return roles
        }
    }

    /// Where photos go and how they look.
    public var photosDirectory = "/var/lib/heylook/photos"
    /// Where the knob's choices persist.
    public var stateFile = "/var/lib/heylook/state.toml"
    /// The saved photo's aspect ratio.
    public var ratio: AspectRatio = .fourByThree
    /// JPEG quality, 50...100.
    public var jpegQuality = 90
    /// Photos per press, 1...10.
    public var burstCount = 1
    /// Flash use.
    public var flash: FlashMode = .off
    /// With flash auto: the light level (lux) below which the flash is used.
    public var flashAutoLux: Double = 50
    /// How long after a photo a long press still discards it.
    public var reviewWindow: Duration = .seconds(5)
    /// How long the camera may take.
    public var captureTimeout: Duration = .seconds(5)
    /// Free space below which captures are refused, in bytes.
    public var freeSpaceReserve: Int64 = 200 * 1024 * 1024
    /// Whether photos already verified on a USB stick may be deleted when space runs low.
    public var cleanupExported = false
    /// How many frames a second the camera delivers while the booth is idle (enough for the light
    /// level); 0 streams at full rate all the time. From a press the camera runs at full rate.
    public var cameraIdleFPS = 2
    /// Whether the clock is trusted for photo dates even when the kernel says it is not synchronised
    /// (a battery-backed clock set by hand); otherwise photos taken then are undated.
    public var trustClock = false
    /// The SoC temperature (millidegrees Celsius) from which the booth warns that it is too hot.
    public var hotLimit: Int64 = 80_000
    /// How many bytes of events `booth run` keeps beside the state file (`events.jsonl` and the older
    /// `events.jsonl.1` together), for `booth stats`; 0 keeps none.
    public var eventsLimit = 4 * 1024 * 1024

    /// The folder the state file is in.
    public var stateFolder: String {
        guard let slash = stateFile.lastIndex(of: "/") else { return "." }
        return slash == stateFile.startIndex ? "/" : String(stateFile[..<slash])
    }

    /// The prints made since `booth print reset` (`PrintLedger`): `prints.txt` in the state file's folder.
    public var printLedgerFile: String { stateFolder == "/" ? "/prints.txt" : "\(stateFolder)/prints.txt" }

    /// The pages waiting for CUPS to answer, kept across a restart (`PrintWaitingList`): `print-waiting.txt` in the
    /// state file's folder.
    public var printWaitingFile: String {
        stateFolder == "/" ? "/print-waiting.txt" : "\(stateFolder)/print-waiting.txt"
    }

    /// The join card `booth card` keeps for the sticks: `join-card.pdf` in the state file's folder.
    public var joinCardFile: String { stateFolder == "/" ? "/join-card.pdf" : "\(stateFolder)/join-card.pdf" }

    /// The service's events file: `events.jsonl` in the state file's folder.
    public var eventsFile: String { stateFolder == "/" ? "/events.jsonl" : "\(stateFolder)/events.jsonl" }
    /// SCHED_FIFO priority of the event loop (0: the normal scheduler), so a button, the knob, the
    /// sound and the LEDs are served at once even while a photo is encoded or a stick written.
    public var realtimePriority = 10

    /// The ALSA device sounds play on.
    public var soundDevice = "default"
    /// Output gain in dB (-40...12).
    public var soundGainDB = 0.0
    /// Folder of custom WAV sounds.
    public var soundsDirectory = "/var/lib/heylook/sounds"
    /// Whether a stick's `HeyLook/sounds/` adds sounds to that folder (off: a stick never changes the sounds).
    public var stickSounds = false
    /// The knob's sounds, in order (1...5).
    public var favourites = Self.defaultFavourites

    /// The knob's cycle once `sounds` join it: `cycle` in its order, then each of `sounds` not in it yet, by name.
    /// The one rule for where a custom sound goes (copied in before the start, or imported from a stick since).
    public static func soundCycle(_ cycle: [String], adding sounds: some Sequence<String>) -> [String] {
        cycle + Set(sounds).subtracting(cycle).sorted()
    }
    /// The sound selected on first start.
    public var defaultSound = Self.defaultFavourites[0]
    /// The delay on first start, in half seconds.
    public var defaultDelayHalfSeconds = 2
    /// Whether the visual countdown is on at first start.
    public var defaultVisualCountdown = true
    /// How long the knob stays on the delay after a knob press or turn.
    public var delayModeTimeout: Duration = .seconds(5)

    /// Which library drives the camera: libgphoto2 when a camera over USB that can take photos is found at start,
    /// else libcamera (`auto`), or one of them.
    public var cameraBackend = CameraBackend.auto
    /// The camera: for libcamera an index ("0") or a libcamera id; for libgphoto2 "0" or "auto" (the first camera over
    /// USB that can take photos), a model ("Canon EOS 2000D") or a port ("usb:001,005").
    public var camera = "0"
    /// A camera over USB (libgphoto2) keeps each photo on its card too (its capture target set to the card); false: the
    /// booth deletes each file from the camera once downloaded.
    public var cameraKeepOnCard = true
    /// Capture width and height; 0 means the sensor's largest.
    public var cameraWidth = 0
    /// See `cameraWidth`.
    public var cameraHeight = 0
    /// Rotation of the saved photo, 0 or 180.
    public var rotation = 0

    /// Where sticks are mounted (each mount below it is a stick).
    public var mediaRoot = "/media/heylook"
    /// The folder created on a stick.
    public var exportFolder = "HeyLook"
    /// Which sticks get photos (`export.sticks`).
    public var exportSticks = StickPolicy.owner
    /// Whether a photo's RAW (kept beside it in the store) goes to the sticks beside its copy (`export.raw`).
    public var exportRaw = false

    /// When photos are printed (`print.mode`).
    public var printMode = PrintMode.off
    /// The CUPS queue photos go to; "" is CUPS's default queue.
    public var printQueue = ""
    /// Copies of each print, 1...10.
    public var printCopies = 1
    /// How often one photo may be printed in an event (since `booth print reset`); 0 is no limit.
    public var printLimitPerPhoto = 0
    /// How many prints an event (since `booth print reset`) may have; 0 is no limit.
    public var printLimitPerEvent = 0
    /// How a print's photos are placed (`print.layout`).
    public var printLayout = PrintLayout.Kind.photo
    /// The printer's paper (`print.media`).
    public var printMedia = PrintLayout.Media.fourBySix
    /// The white border the printer keeps, millimetres.
    public var printMargin = 3.0
    /// The caption's title ("" for none).
    public var printTitle = ""
    /// Whether the caption has the photo's date (an undated photo has none).
    public var printDate = false
    /// The event's logo in the caption's band: a PNG file's absolute path, "" for none (`print.logo`).
    public var printLogo = ""
    /// Whether the gallery shows a Print button on each photo's page (`print.from_gallery`): a guest's print, counted
    /// against the same limits, sent by the booth (`galleryPrintSocket`).
    public var printFromGallery = false

    /// The socket the booth takes the gallery's print requests on, with printing on and `printFromGallery`:
    /// `print.sock` in the state file's folder (the gallery's user reaches it through the booth's group).
    public var galleryPrintSocket: String { stateFolder == "/" ? "/print.sock" : "\(stateFolder)/print.sock" }

    /// The print layout the settings describe.
    public var printPage: PrintLayout {
        PrintLayout(kind: printLayout, media: printMedia, margin: printMargin)
    }

    /// The wiring.
    public var gpio = GPIO()
    /// The remotes.
    public var remote = Remote()

    /// The built-in sounds, in the order docs/configuration.md lists them (SoundOutput's `BuiltInSound` makes them;
    /// `BuiltInSoundTests` keeps the two lists equal).
    public static let builtInSounds = ["Duck", "Cow", "Dog", "Boing", "Whistle", "Pop", "Bell", "Chime"]
    /// The knob's sounds when the config names none: the first five built-ins.
    public static let defaultFavourites = Array(builtInSounds.prefix(5))

    /// The defaults.
    public init() {}

    /// The knob's choices on first start.
    public var defaultChoices: RuntimeChoices {
        RuntimeChoices(
            sound: defaultSound, delayHalfSeconds: defaultDelayHalfSeconds, visualCountdown: defaultVisualCountdown)
    }

    /// The state machine's part of the settings.
    public var machineConfiguration: BoothStateMachine.Configuration {
        BoothStateMachine.Configuration(
            favourites: favourites,
            reviewWindow: reviewWindow,
            captureTimeout: captureTimeout,
            delayModeTimeout: delayModeTimeout,
            burstCount: burstCount,
            flash: flash, flashAutoLux: flashAutoLux, hotLimit: hotLimit, ledCount: gpio.leds.count,
            printMode: printMode
        )
    }
}
