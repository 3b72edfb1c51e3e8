// BoothController+Actions: carrying out the state machine's actions on the devices and workers, each recorded once carried out.
import BoothCore
import BoothTime

extension BoothController {
    func perform(_ actions: [BoothAction], at time: Instant) {
        for action in actions { perform(action, at: time) }
    }

    private func perform(_ action: BoothAction, at time: Instant) {
        defer { journal.action(action, at: time) }
        switch action {
        case .enterPhase, .reportSetting, .reportError, .reportIgnored:
            break
        case .setCameraIdle(let idle):
            devices.camera.setIdle(idle)
        case .setVolume(let percent):
            devices.sound.setVolume(percent: percent)
        case .playSound(let sound, let purpose):
            devices.sound.play(sound, purpose: purpose)
            journal.soundStarted(
                sound, purpose: purpose, at: time, returned: loop.now(), timing: devices.sound.playbackReport)
        case .stopSound:
            devices.sound.stop()
        case .startTimer(let timer, let deadline):
            if let old = timers[timer] { loop.cancel(old) }
            timers[timer] = loop.schedule(at: deadline) { [unowned self] in
                self.timers[timer] = nil
                self.dispatch(.timerFired(timer), at: deadline)
            }
        case .cancelTimer(let timer):
            if let token = timers.removeValue(forKey: timer) { loop.cancel(token) }
        case .showLEDs(let pattern, let since):
            renderer.show(pattern, since: since)
        case .setButtonLED(let on):
            devices.lights.setButtonLED(on)
        case .setFlash(let on):
            devices.lights.setFlash(on)
        case .setHaptic(let on):
            devices.lights.setHaptic(on)
        case .focusCamera:
            devices.camera.focus()
        case .capturePhoto(let id, let trigger):
            captureTriggers[id] = trigger
            devices.camera.capture(id, trigger: trigger)
        case .savePhoto(let id):
            guard let frame = frames.removeValue(forKey: id) else {
                preconditionFailure("savePhoto for capture \(id) with no frame")
            }
            saver.save(
                id, frame: frame, takenAt: wallClock.photoTime(), moment: wallClock.moment(of: frame.sensorTime),
                markPath: wallClock.datingMarkPath,
                model: devices.camera.model)
        case .releaseCapture(let id):
            frames.removeValue(forKey: id)?.release()
        case .expireCapture(let id):
            captureTriggers[id] = nil
            devices.camera.expire(id)
        case .checkStorage:
            saver.checkStorage()
        case .measureLight:
            dispatch(.lightMeasured(lux: devices.camera.lightLevel), at: time)
        case .claimStick:
            // `stickClaimed` follows once the stick's id is on it and recorded (the export worker's `.claimed`).
            exports.claim()
        case .discardPhoto(let path):
            saver.discard(path)
        case .printPhotos(let paths):
            printer?.print(paths)
        case .persistChoices(let choices):
            saver.persist(choices, to: settings.stateFile)
        case .exit(let code):
            exitCode = code
            loop.stop()
        }
    }
}
