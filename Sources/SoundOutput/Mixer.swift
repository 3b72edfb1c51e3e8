// Mixer: a sound card's mixer held open, its playback controls read and its changes watched (snd_mixer).

import CALSA

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A sound card's mixer, held open so a change (alsamixer, a USB card's knob, a muting key) is seen
/// when it happens: watch `pollDescriptors`, and when one is ready call `handleEvents()` and read
/// `readings()` again. The only code that calls alsa-lib's snd_mixer.
public final class Mixer {
    private let handle: OpaquePointer

    /// The mixer of `name` ("hw:0", "hw:CARD=Headphones", "default"; `MixerCheck.mixerName` maps a
    /// playback device to it), or nil when it has none.
    public init?(name: String) {
        var opened: OpaquePointer?
        guard snd_mixer_open(&opened, 0) == 0, let mixer = opened else { return nil }
        guard snd_mixer_attach(mixer, name) == 0, snd_mixer_selem_register(mixer, nil, nil) == 0,
            snd_mixer_load(mixer) == 0
        else {
            snd_mixer_close(mixer)
            return nil
        }
        handle = mixer
    }

    deinit { snd_mixer_close(handle) }

    /// The descriptors to watch for a change (the card's control device).
    public var pollDescriptors: [pollfd] {
        let count = snd_mixer_poll_descriptors_count(handle)
        guard count > 0 else { return [] }
        var descriptors = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_mixer_poll_descriptors(handle, &descriptors, UInt32(count))
        return filled > 0 ? Array(descriptors.prefix(Int(filled))) : []
    }

    /// Takes the pending changes in, so `readings()` shows them. False when the mixer is gone (the card
    /// was unplugged): stop watching it then.
    public func handleEvents() -> Bool {
        snd_mixer_handle_events(handle) >= 0
    }

    /// The known playback controls (`MixerCheck.controlNames`) present on the card, in that order.
    public func readings() -> [MixerCheck.Reading] {
        var found: [String: MixerCheck.Reading] = [:]
        var element = snd_mixer_first_elem(handle)
        while let current = element {
            defer { element = snd_mixer_elem_next(current) }
            guard snd_mixer_selem_is_active(current) != 0, let cName = snd_mixer_selem_get_name(current) else {
                continue
            }
            let name = String(cString: cName)
            guard MixerCheck.controlNames.contains(name), found[name] == nil else { continue }
            found[name] = Self.reading(of: current, named: name)
        }
        return MixerCheck.controlNames.compactMap { found[$0] }
    }

    /// Switch and volume of one simple element over its playback channels: muted when every channel's
    /// switch is off; the level is the loudest channel's share of the volume range (raw steps, as
    /// amixer's percentages).
    private static func reading(of element: OpaquePointer, named name: String) -> MixerCheck.Reading {
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
        var level: Double?
        var minimum = 0
        var maximum = 0
        if snd_mixer_selem_has_playback_volume(element) != 0,
            snd_mixer_selem_get_playback_volume_range(element, &minimum, &maximum) == 0, maximum > minimum
        {
            let volumes = channels.compactMap { channel -> Int? in
                var volume = 0
                return snd_mixer_selem_get_playback_volume(element, channel, &volume) == 0 ? volume : nil
            }
            level = volumes.max().map { Double($0 - minimum) / Double(maximum - minimum) }
        }
        return MixerCheck.Reading(name: name, muted: muted, level: level)
    }
}
