// BoothStateMachine+Configuration: what the machine needs from the settings.
import BoothTime

extension BoothStateMachine {
    /// What the machine needs from the settings.
    public struct Configuration: Hashable, Sendable {
        /// The sounds the knob cycles through, in order: the configured favourites (1...5), then the
        /// custom sounds in the sounds folder, then sounds imported from a stick since the start.
        public var favourites: [String]
        /// How long after a photo a long press still discards it.
        public var reviewWindow: Duration
        /// How long the camera may take to deliver a frame.
        public var captureTimeout: Duration
        /// How long the error pattern shows after an abort.
        public var abortPatternDuration: Duration
        /// How long the knob stays in delay or volume mode without a touch.
        public var delayModeTimeout: Duration
        /// Photos per sequence (1...10).
        public var burstCount: Int
        /// When the flash / fill light is switched on around the exposure.
        public var flash: BoothSettings.FlashMode
        /// With `flash` auto: the light level (lux, measured as the countdown starts) below which the
        /// flash is used. A camera that reports no light level gets the flash.
        public var flashAutoLux: Double
        /// Each sound's length. Every state that waits on a device has a deadline: an attention sound
        /// whose end has not come by its length plus `soundMargin` counts as played.
        public var soundDurations: [String: Duration]
        /// How long past its length a sound may take to report its end (a busy loop, a slow device).
        public var soundMargin: Duration
        /// How often free space is measured again while the store is full.
        public var storageRecheck: Duration
        /// The SoC temperature (millidegrees Celsius) from which the booth warns that it is too hot.
        public var hotLimit: Int64
        /// How long the photographer's haptic cue pulses as the countdown starts.
        public var hapticPulse: Duration
        /// The LEDs in the row (`gpio.leds`): a readout of a place past two rows lasts longer on fewer.
        public var ledCount: Int
        /// When photos are printed. `each`: each photo kept, when its review window closes, or when the press that
        /// started the next sequence is let go before it became a long press (a retake prints nothing). With
        /// printing on, the print button prints the last photos kept (again).
        public var printMode: PrintMode

        /// A configuration with the booth's defaults for everything not given.
        public init(
            favourites: [String] = BoothSettings.defaultFavourites,
            reviewWindow: Duration = .seconds(5),
            captureTimeout: Duration = .seconds(5),
            abortPatternDuration: Duration = .seconds(2),
            delayModeTimeout: Duration = .seconds(5),
            burstCount: Int = 1,
            flash: BoothSettings.FlashMode = .off,
            flashAutoLux: Double = 50,
            soundDurations: [String: Duration] = [:],
            soundMargin: Duration = .seconds(2),
            storageRecheck: Duration = .seconds(30),
            hotLimit: Int64 = 80_000,
            hapticPulse: Duration = .milliseconds(150),
            ledCount: Int = 4,
            printMode: PrintMode = .off
        ) {
            precondition(!favourites.isEmpty, "at least one favourite sound")
            self.favourites = favourites
            self.reviewWindow = reviewWindow
            self.captureTimeout = captureTimeout
            self.abortPatternDuration = abortPatternDuration
            self.delayModeTimeout = delayModeTimeout
            self.burstCount = max(1, burstCount)
            self.flash = flash
            self.flashAutoLux = flashAutoLux
            self.soundDurations = soundDurations
            self.soundMargin = soundMargin
            self.storageRecheck = storageRecheck
            self.hotLimit = hotLimit
            self.hapticPulse = hapticPulse
            self.ledCount = ledCount
            self.printMode = printMode
        }

        /// How long `sound` may take to report its end: its length (the longest known for one whose
        /// length is not known) plus the margin.
        func soundDeadline(for sound: String) -> Duration {
            (soundDurations[sound] ?? soundDurations.values.max() ?? .zero) + soundMargin
        }
    }
}
