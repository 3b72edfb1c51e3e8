// MixerCheck: warns before the first sound when the card's playback control is muted or at zero.

import CALSA

/// Looks at a sound card's mixer and explains when the booth would be silent because of it.
public struct MixerCheck: Sendable {
    /// The playback controls inspected, in order.
    public static let controlNames = ["Master", "PCM", "Headphone", "Speaker"]

    /// What one mixer control showed.
    struct Reading: Equatable {
        /// The control name, e.g. "PCM".
        var name: String
        /// True when every playback channel's switch is off.
        var muted: Bool
        /// True when every playback channel's volume is at its minimum.
        var atMinimum: Bool
    }

    /// A checker with no state.
    public init() {}

    /// A warning when the first problematic Master/PCM/Headphone/Speaker control of `card` is muted
    /// or at zero; nil when they are fine or the card has no mixer (this check never fails).
    /// `card` may be "0", "Headphones", "hw:0", "hw:CARD=Headphones" or a plughw: device name.
    public func playbackVolumeWarning(card: String) -> String? {
        let name = Self.mixerName(forCard: card)
        return Self.warning(for: Self.readings(mixer: name), card: name)
    }

    /// The mixer device for `card`: "hw:<n>" or "hw:CARD=<id>"; "default" stays "default".
    static func mixerName(forCard card: String) -> String {
        if card == "default" { return card }
        if let range = card.firstRange(of: "CARD=") {
            let id = card[range.upperBound...].prefix { $0 != "," }
            return "hw:CARD=\(id)"
        }
        if card.hasPrefix("hw:") || card.hasPrefix("plughw:") {
            let index = card.drop { $0 != ":" }.dropFirst().prefix { $0 != "," }
            return "hw:\(index)"
        }
        return card.allSatisfy(\.isNumber) ? "hw:\(card)" : "hw:CARD=\(card)"
    }

    /// The text shown for the first reading that would make the booth silent, or nil.
    static func warning(for readings: [Reading], card: String) -> String? {
        for reading in readings {
            let problem: String
            if reading.muted {
                problem = "is muted"
            } else if reading.atMinimum {
                problem = "is at volume 0"
            } else {
                continue
            }
            let cardArgument = card.hasPrefix("hw:") ? " -D \(card)" : ""
            return "Sound card '\(card)' control '\(reading.name)' \(problem), so the booth's sounds will be silent. "
                + "Fix: run `amixer\(cardArgument) sset \(reading.name) 80% unmute` (or use alsamixer)."
        }
        return nil
    }

    /// Readings of the known playback controls of mixer `name`, empty when it cannot be opened.
    private static func readings(mixer name: String) -> [Reading] {
        var handle: OpaquePointer?
        guard snd_mixer_open(&handle, 0) == 0, let mixer = handle else { return [] }
        defer { snd_mixer_close(mixer) }
        guard snd_mixer_attach(mixer, name) == 0, snd_mixer_selem_register(mixer, nil, nil) == 0,
            snd_mixer_load(mixer) == 0
        else { return [] }

        var found: [String: Reading] = [:]
        var element = snd_mixer_first_elem(mixer)
        while let current = element {
            defer { element = snd_mixer_elem_next(current) }
            guard snd_mixer_selem_is_active(current) != 0, let cName = snd_mixer_selem_get_name(current) else {
                continue
            }
            let controlName = String(cString: cName)
            guard controlNames.contains(controlName), found[controlName] == nil else { continue }
            found[controlName] = reading(of: current, named: controlName)
        }
        return controlNames.compactMap { found[$0] }
    }

    /// Switch and volume state of one simple mixer element over all its playback channels.
    private static func reading(of element: OpaquePointer, named name: String) -> Reading {
        let channels = (SND_MIXER_SCHN_FRONT_LEFT.rawValue...SND_MIXER_SCHN_LAST.rawValue)
            .map { snd_mixer_selem_channel_id_t(rawValue: $0) }
            .filter { snd_mixer_selem_has_playback_channel(element, $0) != 0 }
        var muted = false
        if snd_mixer_selem_has_playback_switch(element) != 0 && !channels.isEmpty {
            muted = channels.allSatisfy { channel in
                var on: Int32 = 1
                return snd_mixer_selem_get_playback_switch(element, channel, &on) == 0 && on == 0
            }
        }
        var atMinimum = false
        var minimum = 0
        var maximum = 0
        if snd_mixer_selem_has_playback_volume(element) != 0,
            snd_mixer_selem_get_playback_volume_range(element, &minimum, &maximum) == 0, maximum > minimum,
            !channels.isEmpty
        {
            atMinimum = channels.allSatisfy { channel in
                var volume = 0
                return snd_mixer_selem_get_playback_volume(element, channel, &volume) == 0 && volume <= minimum
            }
        }
        return Reading(name: name, muted: muted, atMinimum: atMinimum)
    }
}
