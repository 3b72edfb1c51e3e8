// BoothStateMachineTests: the sequence, every phase's deadline and what each press means, on a virtual clock.
import BoothTime
import LEDCountdown
import Testing

@testable import BoothCore

@Suite struct BoothStateMachineTests {
    @Test func aPressPlaysTheSoundThenCountsDownThenCapturesThenSavesThenIdles() {
        var h = MachineHarness()
        #expect(h.buttonLED == true)
        let press = h.send(.buttonPressed)
        // The sound is the first thing done: no timer, LED or state report stands before it.
        #expect(press.first == .playSound("Duck", .attention))
        #expect(press.contains(.setButtonLED(false)))
        #expect(h.phase == .playingSound)

        // Nothing happens until the sound has played to its end (within its deadline, see below).
        h.advance(by: .milliseconds(1999))
        #expect(h.phase == .playingSound)

        let soundEnd = h.now
        let finished = h.send(.soundFinished(.attention))
        #expect(h.phase == .countingDown)
        #expect(finished.contains(.startTimer(.countdownEnded, deadline: soundEnd.advanced(by: .seconds(1)))))
        #expect(finished.contains(.showLEDs(.countdown(halfSeconds: 2), since: soundEnd)))
        // The camera focuses as the countdown begins (a camera over USB drives its autofocus then), once.
        #expect(finished.filter { $0 == .focusCamera }.count == 1)
        #expect(!press.contains(.focusCamera))

        h.advance(by: .milliseconds(999))
        #expect(h.phase == .countingDown)
        let capture = h.advance(by: .milliseconds(1))
        #expect(h.phase == .capturing)
        let id = CaptureID(sequence: 1, shot: 0)
        #expect(capture.contains(.capturePhoto(id, trigger: soundEnd.advanced(by: .seconds(1)))))
        #expect(capture.contains(.playSound("Shutter", .shutter)))

        let completed = h.send(.captureCompleted(id))
        #expect(completed.contains(.savePhoto(id)))
        #expect(completed.contains(.cancelTimer(.captureTimedOut)))
        #expect(h.phase == .processing)

        let saved = h.send(.photoSaved(id, path: "/p/a.jpg"))
        #expect(h.phase == .idle)
        #expect(saved.contains(.setButtonLED(true)))
        #expect(h.phases == [.playingSound, .countingDown, .capturing, .processing, .idle])
    }

    /// The camera idles at a low rate and runs at full rate from a press (right after the sound is
    /// started) until the booth is idle again, also after an abort.
    @Test func theCameraRunsAtFullRateFromAPressUntilIdle() {
        var h = MachineHarness()
        #expect(h.machine.start(at: h.now).contains(.setCameraIdle(true)))
        let press = h.send(.buttonPressed)
        #expect(Array(press.prefix(2)) == [.playSound("Duck", .attention), .setCameraIdle(false)])
        let pressed = h.log.count
        h.send(.soundFinished(.attention))
        h.advance(by: .seconds(1))
        let id = h.lastCapture!
        h.send(.captureCompleted(id))
        #expect(!h.log[pressed...].contains(.setCameraIdle(true)))
        #expect(h.send(.photoSaved(id, path: "/p/a.jpg")).contains(.setCameraIdle(true)))
        h.send(.buttonPressed)
        h.send(.cancelPressed)
        #expect(h.log.last { if case .setCameraIdle = $0 { true } else { false } } == .setCameraIdle(false))
        h.advance(by: .seconds(2))
        #expect(h.phase == .idle)
        #expect(h.log.last { if case .setCameraIdle = $0 { true } else { false } } == .setCameraIdle(true))
    }

    @Test func aThousandPressesDuringOneSequenceTakeOnePhoto() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        for _ in 0..<1000 {
            h.send(.buttonPressed)
            h.send(.buttonReleased)
        }
        h.send(.soundFinished(.attention))
        for _ in 0..<1000 { h.send(.buttonPressed) }
        h.advance(by: .seconds(1))
        for _ in 0..<1000 { h.send(.buttonPressed) }
        let id = h.lastCapture!
        h.send(.captureCompleted(id))
        for _ in 0..<1000 { h.send(.buttonPressed) }
        h.send(.photoSaved(id, path: "/p/a.jpg"))
        #expect(h.captureCount == 1)
        #expect(h.log.filter { $0 == .playSound("Duck", .attention) }.count == 1)
        #expect(h.phase == .idle)
    }

    @Test func theButtonLEDIsLitExactlyWhenAPressWouldStartASequence() {
        var h = MachineHarness()
        var events: [BoothEvent] = [.buttonPressed, .soundFinished(.attention)]
        for event in events {
            h.send(event)
            #expect(h.buttonLED == h.machine.acceptsPress)
        }
        h.advance(by: .seconds(1))
        #expect(h.buttonLED == false)
        events = [.captureCompleted(h.lastCapture!), .photoSaved(h.lastCapture!, path: "/p")]
        for event in events {
            h.send(event)
            #expect(h.buttonLED == h.machine.acceptsPress)
        }
        #expect(h.buttonLED == true)
        h.send(.storageChecked(hasRoom: false))
        #expect(h.buttonLED == false)
        h.send(.storageChecked(hasRoom: true))
        #expect(h.buttonLED == true)
        h.send(.deviceWarning(.buttonUnavailable, active: true))
        #expect(h.buttonLED == false)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func theCountdownLastsTheSelectedDelay(halfSeconds: Int) {
        var h = MachineHarness(
            choices: RuntimeChoices(sound: "Cow", delayHalfSeconds: halfSeconds, visualCountdown: true))
        h.send(.buttonPressed)
        h.send(.soundFinished(.attention))
        h.advance(by: LEDPattern.halfSecond * halfSeconds - .nanoseconds(1))
        #expect(h.phase == .countingDown)
        h.advance(by: .nanoseconds(1))
        #expect(h.phase == .capturing)
        #expect(
            h.log.contains(.showLEDs(.countdown(halfSeconds: halfSeconds), since: Instant(nanoseconds: 1_000_000_000))))
    }

    @Test func withTheVisualCountdownOffTheLEDsStayDark() {
        var h = MachineHarness(choices: RuntimeChoices(sound: "Duck", delayHalfSeconds: 2, visualCountdown: false))
        h.send(.buttonPressed)
        let actions = h.send(.soundFinished(.attention))
        #expect(actions.contains(.showLEDs(.off, since: h.now)))
        #expect(!actions.contains { if case .showLEDs(.countdown, _) = $0 { true } else { false } })
    }

    @Test func aPreviewEndingDoesNotStartACountdown() {
        var h = MachineHarness()
        h.send(.knobTurned(steps: 1))
        h.send(.soundFinished(.preview))
        #expect(h.phase == .idle)
        h.send(.buttonPressed)
        h.send(.soundFinished(.preview))
        #expect(h.phase == .playingSound)
        h.send(.soundFinished(.shutter))
        #expect(h.phase == .playingSound)
    }

    /// A sound whose end never comes (a device that took it but reports nothing) cannot hold the booth:
    /// the sequence goes on and the photo is taken.
    @Test func anAttentionSoundThatNeverEndsDoesNotHoldTheBooth() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        h.advance(by: .seconds(60))
        #expect(h.phases.prefix(3) == [.playingSound, .countingDown, .capturing])
        #expect(h.captureCount == 1)
    }

    /// The deadline is the sound's own length plus the margin; a late end changes nothing.
    @Test func theSoundsDeadlineIsItsLengthPlusTheMargin() throws {
        let configuration = BoothStateMachine.Configuration(
            soundDurations: ["Duck": .milliseconds(560), "Cow": .seconds(1)], soundMargin: .seconds(2))
        var h = MachineHarness(configuration: configuration)
        h.send(.buttonPressed)
        h.advance(by: .milliseconds(2559))
        #expect(h.phase == .playingSound)
        let late = h.advance(by: .milliseconds(1))
        #expect(h.phase == .countingDown)
        #expect(late.contains(.stopSound))
        #expect(
            late.contains {
                if case .reportError(let m) = $0 { m.contains("Duck") && m.contains("2560 ms") } else { false }
            })
        #expect(h.send(.soundFinished(.attention)).isEmpty)
        h.advance(by: .seconds(1))
        let id = try #require(h.lastCapture)
        h.send(.captureCompleted(id))
        h.send(.photoSaved(id, path: "/p/a.jpg"))
        #expect(h.phase == .idle)
        #expect(h.timers[.soundTimedOut] == nil)
        // A sound that ends in time cancels its deadline.
        h.advance(by: .seconds(5))
        h.send(.buttonPressed)
        #expect(h.timers[.soundTimedOut] != nil)
        h.send(.soundFinished(.attention))
        #expect(h.timers[.soundTimedOut] == nil)
    }

    // MARK: Aborts

    @Test func aSoundFailureAbortsThenReturnsToIdle() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        let actions = h.send(.soundFailed(.attention, DeviceFault(.sound, .gone, "device gone")))
        #expect(h.phase == .aborted)
        #expect(actions.contains(.stopSound))
        #expect(actions.contains(.showLEDs(.error, since: h.now)))
        #expect(actions.contains { if case .reportError(let m) = $0 { m.contains("device gone") } else { false } })
        h.send(.buttonPressed)
        #expect(h.phase == .aborted)
        h.advance(by: .seconds(2))
        #expect(h.phase == .idle)
        #expect(h.buttonLED == true)
        #expect(h.timers.isEmpty)
    }

    @Test func aCaptureTimeoutAbortsAndTheLateFrameIsReleased() {
        var h = MachineHarness()
        h.pressAndCountDown()
        let id = h.lastCapture!
        h.advance(by: .seconds(5))
        #expect(h.phase == .aborted)
        h.advance(by: .seconds(2))
        #expect(h.phase == .idle)
        let late = h.send(.captureCompleted(id))
        #expect(late == [.releaseCapture(id)])
        // The next press works.
        h.takePhoto()
        #expect(h.phase == .idle)
        #expect(h.captureCount == 2)
    }

    @Test func aCaptureFailureAborts() {
        var h = MachineHarness()
        h.pressAndCountDown()
        h.send(.captureFailed(h.lastCapture!, DeviceFault(.camera, .gone, "camera gone")))
        #expect(h.phase == .aborted)
        #expect(h.timers.keys.sorted { $0.rawValue < $1.rawValue } == [.abortEnded])
    }

    @Test(arguments: [BoothPhase.playingSound, .countingDown, .capturing])
    func cancelAbortsARunningSequence(phase: BoothPhase) {
        var h = MachineHarness()
        h.drive(to: phase)
        let actions = h.send(.cancelPressed)
        #expect(h.phase == .aborted)
        #expect(actions.contains(.cancelTimer(.countdownEnded)))
        #expect(actions.contains(.cancelTimer(.captureTimedOut)))
    }

    /// The capture timeout has one owner, the machine: when it fires, the camera is told to give up on
    /// the capture in flight, and a frame that still comes is released.
    @Test func aCaptureWithNoFrameInTimeIsExpiredThenAborted() {
        var h = MachineHarness()
        h.drive(to: .capturing)
        let id = CaptureID(sequence: 1, shot: 0)
        let timedOut = h.advance(by: .seconds(5))
        #expect(h.phase == .aborted)
        let expire = timedOut.firstIndex(of: .expireCapture(id))
        let error = timedOut.firstIndex { if case .reportError = $0 { true } else { false } }
        #expect(expire != nil && error != nil && expire! < error!)
        #expect(h.send(.captureCompleted(id)) == [.releaseCapture(id)])
    }

    @Test func aSaveFailureAbortsWithTheErrorPattern() {
        var h = MachineHarness()
        h.pressAndCountDown()
        let id = h.lastCapture!
        h.send(.captureCompleted(id))
        h.send(.photoSaveFailed(id, DeviceFault(.store, .full, "ENOSPC")))
        #expect(h.phase == .aborted)
        #expect(h.lastPattern == .error)
    }

    @Test func aPressWhileFullMeasuresAgainAndIsRefusedIfStillFull() {
        var h = MachineHarness()
        h.send(.storageChecked(hasRoom: false))
        #expect(h.lastPattern == .full)
        let press = h.send(.buttonPressed)
        #expect(press == [.checkStorage])
        #expect(h.send(.buttonPressed).isEmpty, "a second press does not ask again")
        h.send(.storageChecked(hasRoom: false))
        #expect(h.phase == .aborted)
        #expect(h.captureCount == 0)
        #expect(!h.log.contains(.playSound("Duck", .attention)))
        #expect(h.log.contains(.reportError("storage below the free-space reserve: photo refused")))
        h.advance(by: .seconds(2))
        #expect(h.phase == .idle)
        #expect(h.lastPattern == .full)
    }

    @Test func spaceFreedSinceTheLastMeasurementLetsThePressThroughAtOnce() {
        var h = MachineHarness()
        h.send(.storageChecked(hasRoom: false))
        h.send(.buttonPressed)
        let measured = h.send(.storageChecked(hasRoom: true))
        #expect(h.phase == .playingSound)
        #expect(measured.contains(.playSound("Duck", .attention)))
        #expect(measured.contains(.cancelTimer(.storageRecheck)))
        #expect(h.log.contains(.reportSetting(name: "storageFull", value: "false")))
    }

    @Test func whileFullFreeSpaceIsMeasuredEveryThirtySecondsAndTheFullPatternClearsByItself() {
        var h = MachineHarness()
        h.send(.storageChecked(hasRoom: false))
        #expect(h.lastPattern == .full)
        #expect(h.buttonLED == false)
        #expect(h.advance(by: .seconds(29)).isEmpty)
        #expect(h.advance(by: .seconds(1)).contains(.checkStorage))
        #expect(h.advance(by: .seconds(30)).contains(.checkStorage))
        h.send(.storageChecked(hasRoom: true))
        #expect(h.lastPattern == .off)
        #expect(h.buttonLED == true)
        #expect(!h.advance(by: .seconds(60)).contains(.checkStorage))
    }

    @Test func storageIsMeasuredAtStartAtEveryPressAndAfterEveryExport() {
        var h = MachineHarness()
        #expect(h.log.contains(.checkStorage))
        let press = h.send(.buttonPressed)
        #expect(press.first == .playSound("Duck", .attention), "the measurement never delays the sound")
        #expect(press.contains(.checkStorage))
        h.send(.cancelPressed)
        h.advance(by: .seconds(2))
        #expect(h.send(.exportFinished(safeToRemove: true)).contains(.checkStorage))
        #expect(h.send(.exportFailed(DeviceFault(.stick, .full, "stick full"))).contains(.checkStorage))
    }

    @Test func theFullPatternGivesWayToTheStickAndTakesPrecedenceOverAWarning() {
        var h = MachineHarness()
        h.send(.deviceWarning(.volumeMuted, active: true))
        #expect(h.lastPattern == .warning(blinks: [3]))
        h.send(.storageChecked(hasRoom: false))
        #expect(h.lastPattern == .full)
        h.send(.exportProgressed(done: 1, total: 2))
        #expect(h.lastPattern == .exportProgress(done: 1, total: 2))
        h.send(.exportFinished(safeToRemove: true))
        #expect(h.lastPattern == .safeToRemove)
        h.send(.stickRemoved)
        #expect(h.lastPattern == .full)
        h.send(.storageChecked(hasRoom: true))
        #expect(h.lastPattern == .warning(blinks: [3]))
    }

    /// Each cause blinks its own count; several take turns, fewest blinks first.
    @Test func eachWarningBlinksItsOwnCountAndSeveralTakeTurns() {
        #expect(Set(DeviceWarning.allCases.filter { !$0.isHealth }.map(\.blinks)).count == 6)
        #expect(Set(DeviceWarning.allCases.filter(\.isHealth).map(\.blinks)).count == 4)
        var h = MachineHarness()
        h.send(.deviceWarning(.gpioUnavailable, active: true))
        #expect(h.lastPattern == .warning(blinks: [5]))
        h.send(.deviceWarning(.cameraUnavailable, active: true))
        #expect(h.lastPattern == .warning(blinks: [1, 5]))
        h.send(.deviceWarning(.gpioUnavailable, active: false))
        #expect(h.lastPattern == .warning(blinks: [1]))
        h.send(.deviceWarning(.cameraUnavailable, active: false))
        #expect(h.lastPattern == .off)
    }

    @Test func heatAndPowerWarnWithTheirOwnPatternAndClearByThemselves() {
        var h = MachineHarness(configuration: .init(hotLimit: 75_000))
        h.send(.deviceWarning(.volumeMuted, active: true))
        h.send(.healthMeasured(HealthReading(temperature: 74_999, throttled: nil)))
        #expect(h.lastPattern == .warning(blinks: [3]))
        h.send(.healthMeasured(HealthReading(temperature: 75_000, throttled: nil)))
        #expect(h.lastPattern == .healthWarning(blinks: [1]))
        #expect(h.log.contains(.reportSetting(name: "warning.overheating", value: "true")))
        #expect(h.machine.acceptsPress, "a hot booth still takes photos")
        h.send(.healthMeasured(HealthReading(temperature: 60_000, throttled: 0x1)))
        #expect(h.log.contains(.reportSetting(name: "warning.overheating", value: "false")))
        #expect(h.log.contains(.reportSetting(name: "warning.underVoltage", value: "true")))
        #expect(h.lastPattern == .healthWarning(blinks: [2]))
        h.send(.healthMeasured(HealthReading(temperature: 75_000, throttled: 0x1)))
        #expect(h.lastPattern == .healthWarning(blinks: [1, 2]), "heat and power take turns")
        h.send(.healthMeasured(HealthReading(temperature: 60_000, throttled: 0x10000)))
        #expect(h.log.contains(.reportSetting(name: "warning.underVoltage", value: "false")))
        #expect(h.lastPattern == .warning(blinks: [3]))
    }

    /// The camera's battery low is shown with heat and power (the last LED, 3 blinks), outranks the other warnings,
    /// is left alone by the Pi's health readings, and still lets a press through.
    @Test func theCamerasLowBatteryWarnsWithHeatAndPower() {
        var h = MachineHarness(configuration: .init(hotLimit: 75_000))
        h.send(.deviceWarning(.volumeMuted, active: true))
        h.send(.deviceWarning(.cameraBatteryLow, active: true))
        #expect(h.lastPattern == .healthWarning(blinks: [3]))
        #expect(h.log.contains(.reportSetting(name: "warning.cameraBatteryLow", value: "true")))
        #expect(h.machine.acceptsPress)
        h.send(.healthMeasured(HealthReading(temperature: 75_000, throttled: nil)))
        #expect(h.lastPattern == .healthWarning(blinks: [1, 3]))
        h.send(.healthMeasured(HealthReading(temperature: 60_000, throttled: nil)))
        #expect(h.lastPattern == .healthWarning(blinks: [3]), "a health reading does not clear the camera's battery")
        h.send(.deviceWarning(.cameraBatteryLow, active: false))
        #expect(h.lastPattern == .warning(blinks: [3]))
    }

    /// A printer that needs attention is shown with heat, power and the camera's battery (the last LED, 4 blinks),
    /// and still lets a press through: the photo is kept, its print waits.
    @Test func aPrinterThatNeedsAttentionWarnsOnTheLastLED() {
        var h = MachineHarness(configuration: .init(printMode: .each))
        h.send(.deviceWarning(.printerNeedsAttention, active: true))
        #expect(h.lastPattern == .healthWarning(blinks: [4]))
        #expect(h.log.contains(.reportSetting(name: "warning.printerNeedsAttention", value: "true")))
        #expect(h.machine.acceptsPress)
        h.send(.deviceWarning(.cameraBatteryLow, active: true))
        #expect(h.lastPattern == .healthWarning(blinks: [3, 4]))
        h.send(.deviceWarning(.printerNeedsAttention, active: false))
        #expect(h.lastPattern == .healthWarning(blinks: [3]))
    }

    /// A failed export (a verification failure, say) shows the error pattern until the stick is pulled:
    /// a photo taken meanwhile and any time idle do not end it; the pull does.
    @Test func aFailedExportShowsTheErrorPatternUntilTheStickIsPulled() {
        var h = MachineHarness()
        h.send(.exportProgressed(done: 1, total: 3))
        h.send(.exportFailed(DeviceFault(.stick, .failed, "/media/heylook/x: verification failed")))
        #expect(h.lastPattern == .error)
        h.takePhoto()
        #expect(h.phase == .idle)
        h.advance(by: .seconds(600))
        #expect(h.lastPattern == .error)
        h.send(.knobTurned(steps: 1))
        h.advance(by: .seconds(60))
        #expect(h.lastPattern == .error)
        h.send(.stickRemoved)
        #expect(h.lastPattern == .off)
    }

    @Test func aShutdownWhileAPressAwaitsItsMeasurementStartsNothing() {
        var h = MachineHarness()
        h.send(.storageChecked(hasRoom: false))
        h.send(.buttonPressed)
        h.send(.shutdownRequested(.abortSequence))
        h.send(.storageChecked(hasRoom: true))
        #expect(h.phase == .idle)
        #expect(!h.log.contains(.playSound("Duck", .attention)))
    }

    // MARK: Shutdown

    @Test func aSignalInIdleExitsAtOnce() {
        var h = MachineHarness()
        let actions = h.send(.shutdownRequested(.abortSequence))
        #expect(actions.contains(.exit(code: 0)))
    }

    @Test(arguments: [BoothPhase.playingSound, .countingDown, .capturing])
    func aSignalDuringASequenceAbortsAndExits(phase: BoothPhase) {
        var h = MachineHarness()
        h.drive(to: phase)
        let actions = h.send(.shutdownRequested(.abortSequence))
        #expect(actions.contains(.stopSound))
        #expect(actions.last == .exit(code: 0))
        #expect(!actions.contains { if case .savePhoto = $0 { true } else { false } })
    }

    @Test func aSignalDuringProcessingFinishesSavingThenExits() {
        var h = MachineHarness()
        h.pressAndCountDown()
        let id = h.lastCapture!
        h.send(.captureCompleted(id))
        let signal = h.send(.shutdownRequested(.abortSequence))
        #expect(!signal.contains(.exit(code: 0)))
        #expect(h.phase == .processing)
        let saved = h.send(.photoSaved(id, path: "/p/a.jpg"))
        #expect(saved.last == .exit(code: 0))
    }

    @Test func aRestartRequestAbortsAndExitsWithTempfail() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        let actions = h.send(.shutdownRequested(.restart))
        #expect(actions.last == .exit(code: 75))
        var idle = MachineHarness()
        #expect(idle.send(.shutdownRequested(.restart)).contains(.exit(code: 75)))
    }

    @Test func quitFinishesTheRunningSequenceFirst() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        let quit = h.send(.shutdownRequested(.finishSequence))
        #expect(!quit.contains(.exit(code: 0)))
        h.send(.soundFinished(.attention))
        h.advance(by: .seconds(1))
        let id = h.lastCapture!
        h.send(.captureCompleted(id))
        let saved = h.send(.photoSaved(id, path: "/p/a.jpg"))
        #expect(saved.last == .exit(code: 0))
        #expect(h.captureCount == 1)
    }

    @Test func noNewSequenceStartsAfterAShutdownRequest() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        h.send(.shutdownRequested(.finishSequence))
        h.send(.soundFinished(.attention))
        h.advance(by: .seconds(1))
        h.send(.captureCompleted(h.lastCapture!))
        h.send(.buttonPressed)
        #expect(h.log.filter { $0 == .playSound("Duck", .attention) }.count == 1)
    }

    // MARK: Retake

    @Test func holdingAPressInTheReviewWindowDiscardsTheLastPhoto() {
        var h = MachineHarness()
        h.takePhoto(path: "/p/first.jpg")
        h.advance(by: .seconds(2))
        h.send(.buttonPressed)
        #expect(h.phase == .playingSound)
        let long = h.send(.buttonLongPressed)
        #expect(long == [.discardPhoto(path: "/p/first.jpg")])
        // A second long press discards nothing more.
        #expect(h.send(.buttonLongPressed).isEmpty)
    }

    @Test func holdingAPressInTheReviewWindowDiscardsEveryShotOfABurst() {
        var h = MachineHarness(configuration: .init(burstCount: 3))
        h.pressAndCountDown()
        for shot in 0..<3 { h.send(.captureCompleted(CaptureID(sequence: 1, shot: shot))) }
        for shot in 0..<3 { h.send(.photoSaved(CaptureID(sequence: 1, shot: shot), path: "/p/\(shot).jpg")) }
        #expect(h.phase == .idle)
        h.send(.buttonPressed)
        let long = h.send(.buttonLongPressed)
        #expect(long == (0..<3).map { .discardPhoto(path: "/p/\($0).jpg") })
    }

    @Test func aShortPressInTheReviewWindowKeepsTheLastPhoto() {
        var h = MachineHarness()
        h.takePhoto(path: "/p/first.jpg")
        h.send(.buttonPressed)
        h.send(.buttonReleased)
        h.send(.buttonLongPressed)
        #expect(!h.log.contains(.discardPhoto(path: "/p/first.jpg")))
    }

    @Test func afterTheReviewWindowALongPressDiscardsNothing() {
        var h = MachineHarness()
        h.takePhoto(path: "/p/first.jpg")
        h.advance(by: .seconds(5))
        h.send(.buttonPressed)
        h.send(.buttonLongPressed)
        #expect(!h.log.contains(.discardPhoto(path: "/p/first.jpg")))
    }

    // MARK: Printing (print.mode = "each")

    /// The photos printed so far, in order.
    private func printed(_ h: MachineHarness) -> [[String]] {
        h.log.compactMap { if case .printPhotos(let paths) = $0 { paths } else { nil } }
    }

    @Test func aPhotoIsPrintedWhenItsReviewWindowClosesNotBefore() {
        var h = MachineHarness(configuration: .init(printMode: .each))
        h.takePhoto(path: "/p/first.jpg")
        h.advance(by: .seconds(5) - .nanoseconds(1))
        #expect(printed(h).isEmpty)
        h.advance(by: .nanoseconds(1))
        #expect(printed(h) == [["/p/first.jpg"]])
        h.advance(by: .seconds(60))
        #expect(printed(h).count == 1)
    }

    @Test func nothingIsPrintedWhenPrintingIsOff() {
        var h = MachineHarness()
        h.takePhoto(path: "/p/first.jpg")
        h.advance(by: .seconds(10))
        h.takePhoto(path: "/p/second.jpg")
        h.send(.shutdownRequested(.finishSequence))
        #expect(printed(h).isEmpty)
    }

    @Test func aRetakePrintsNothingAndTheRetakenPhotoPrintsOnce() {
        var h = MachineHarness(configuration: .init(printMode: .each))
        h.takePhoto(path: "/p/first.jpg")
        h.send(.buttonPressed)
        h.send(.buttonLongPressed)
        h.send(.buttonReleased)
        #expect(h.log.contains(.discardPhoto(path: "/p/first.jpg")))
        h.finishSequence(path: "/p/retake.jpg")
        h.advance(by: .seconds(5))
        #expect(printed(h) == [["/p/retake.jpg"]])
    }

    @Test func aShortPressInTheReviewWindowPrintsThePreviousPhotoAsItIsLetGo() {
        var h = MachineHarness(configuration: .init(printMode: .each))
        h.takePhoto(path: "/p/first.jpg")
        h.send(.buttonPressed)
        #expect(printed(h).isEmpty)
        h.send(.buttonReleased)
        #expect(printed(h) == [["/p/first.jpg"]])
        // A long press that comes late (it cannot, once let go) discards and prints nothing more.
        h.send(.buttonLongPressed)
        #expect(!h.log.contains(.discardPhoto(path: "/p/first.jpg")))
        #expect(printed(h).count == 1)
    }

    @Test func aBurstPrintsEveryShotOnceItsReviewCloses() {
        var h = MachineHarness(configuration: .init(burstCount: 3, printMode: .each))
        h.pressAndCountDown()
        for shot in 0..<3 { h.send(.captureCompleted(CaptureID(sequence: 1, shot: shot))) }
        for shot in 0..<3 { h.send(.photoSaved(CaptureID(sequence: 1, shot: shot), path: "/p/\(shot).jpg")) }
        h.advance(by: .seconds(5))
        #expect(printed(h) == [["/p/0.jpg", "/p/1.jpg", "/p/2.jpg"]])
    }

    @Test func thePreviousPhotoPrintsWhenTheNextSequenceAbortsWhileThePressIsHeld() {
        var h = MachineHarness(configuration: .init(printMode: .each))
        h.takePhoto(path: "/p/first.jpg")
        h.send(.buttonPressed)
        h.send(.cancelPressed)
        #expect(h.phase == .aborted)
        #expect(printed(h) == [["/p/first.jpg"]])
        h.send(.buttonReleased)
        #expect(printed(h).count == 1)
    }

    @Test func stoppingInTheReviewWindowOrDuringASequencePrintsWhatWasKept() {
        var idle = MachineHarness(configuration: .init(printMode: .each))
        idle.takePhoto(path: "/p/first.jpg")
        idle.send(.shutdownRequested(.finishSequence))
        #expect(printed(idle) == [["/p/first.jpg"]])

        var busy = MachineHarness(configuration: .init(printMode: .each))
        busy.pressAndCountDown()
        busy.send(.shutdownRequested(.finishSequence))
        let id = busy.lastCapture!
        busy.send(.captureCompleted(id))
        busy.send(.photoSaved(id, path: "/p/last.jpg"))
        #expect(printed(busy) == [["/p/last.jpg"]])
    }

    @Test func onRequestThePrintButtonPrintsTheLastPhotosKeptAgainAtEachPress() {
        var h = MachineHarness(configuration: .init(burstCount: 2, printMode: .onRequest))
        h.send(.printPressed)
        #expect(printed(h).isEmpty, "no photo kept yet")
        h.pressAndCountDown()
        for shot in 0..<2 { h.send(.captureCompleted(CaptureID(sequence: 1, shot: shot))) }
        for shot in 0..<2 { h.send(.photoSaved(CaptureID(sequence: 1, shot: shot), path: "/p/\(shot).jpg")) }
        h.advance(by: .seconds(5))
        #expect(printed(h).isEmpty, "on request: nothing printed by itself")
        h.send(.printPressed)
        h.send(.printPressed)
        #expect(printed(h) == [["/p/0.jpg", "/p/1.jpg"], ["/p/0.jpg", "/p/1.jpg"]])
    }

    @Test func thePrintButtonKeepsAPhotoUnderReviewAndEachModePrintsItOnce() {
        for mode in [PrintMode.each, .onRequest] {
            var h = MachineHarness(configuration: .init(printMode: mode))
            h.takePhoto(path: "/p/first.jpg")
            h.send(.printPressed)
            #expect(printed(h) == [["/p/first.jpg"]], "\(mode)")
            // Its review window is over: the next press's long hold discards nothing, and nothing prints it twice.
            h.send(.buttonPressed)
            h.send(.buttonLongPressed)
            #expect(!h.log.contains(.discardPhoto(path: "/p/first.jpg")), "\(mode)")
            h.advance(by: .seconds(10))
            #expect(printed(h) == [["/p/first.jpg"]], "\(mode)")
        }
    }

    @Test func thePrintButtonNeverPrintsADiscardedPhotoAndIsIgnoredWhenBusyOrOff() {
        var h = MachineHarness(configuration: .init(printMode: .onRequest))
        h.takePhoto(path: "/p/first.jpg")
        h.advance(by: .seconds(5))
        // A retake of the next photo: the button still prints the last photo kept, not the discarded one.
        h.takePhoto(path: "/p/second.jpg")
        h.send(.buttonPressed)
        h.send(.buttonLongPressed)
        #expect(h.log.contains(.discardPhoto(path: "/p/second.jpg")))
        h.send(.printPressed)
        #expect(printed(h).isEmpty, "busy: the retake's sequence runs")
        #expect(h.log.contains(.reportIgnored("print button pressed while playingSound")))
        h.send(.buttonReleased)
        h.finishSequence(path: "/p/retake.jpg")
        h.advance(by: .seconds(5))
        h.send(.printPressed)
        #expect(printed(h) == [["/p/retake.jpg"]])

        var off = MachineHarness()
        off.takePhoto(path: "/p/first.jpg")
        off.send(.printPressed)
        off.advance(by: .seconds(10))
        off.send(.printPressed)
        #expect(printed(off).isEmpty)
        #expect(off.log.contains(.reportIgnored("print button pressed with print.mode off")))
    }

    @Test func aRefusedPrintBlinksTheRowFourTimesOnlyOverTheIdlePattern() {
        var h = MachineHarness(configuration: .init(printMode: .onRequest))
        h.takePhoto(path: "/p/first.jpg")
        h.advance(by: .seconds(5))
        h.send(.printRefused)
        #expect(h.lastPattern == .acknowledge(count: 4))
        h.advance(by: .seconds(5))
        #expect(h.lastPattern != .acknowledge(count: 4))
        h.pressAndCountDown()
        let before = h.log.count
        h.send(.printRefused)
        #expect(!h.log[before...].contains { if case .showLEDs = $0 { true } else { false } })
    }

    // MARK: Burst

    @Test func aBurstTakesAndSavesEveryShot() {
        var h = MachineHarness(configuration: .init(burstCount: 3))
        h.pressAndCountDown()
        for shot in 0..<3 {
            let id = CaptureID(sequence: 1, shot: shot)
            #expect(h.lastCapture == id)
            #expect(h.phase == .capturing)
            h.send(.captureCompleted(id))
        }
        #expect(h.phase == .processing)
        h.send(.photoSaved(CaptureID(sequence: 1, shot: 0), path: "/p/0"))
        h.send(.photoSaved(CaptureID(sequence: 1, shot: 1), path: "/p/1"))
        #expect(h.phase == .processing)
        h.send(.photoSaved(CaptureID(sequence: 1, shot: 2), path: "/p/2"))
        #expect(h.phase == .idle)
        #expect(h.captureCount == 3)
    }

    /// Flash on: the light goes on as the countdown starts and stays on until the last shot, so the camera's
    /// exposure has settled on it when the shutter opens. Mutation: switching it on at the countdown's end (as
    /// the booth did) fails this.
    @Test func flashOnLightsTheWholeCountdownUntilTheLastShot() {
        var h = MachineHarness(configuration: .init(burstCount: 2, flash: .on))
        h.send(.buttonPressed)
        #expect(!h.log.contains(.setFlash(true)), "not during the attention sound")
        let start = h.send(.soundFinished(.attention))
        #expect(start.contains(.setFlash(true)), "on as the countdown starts")
        #expect(!h.log.contains(.measureLight), "flash on needs no light level")
        h.advance(by: .seconds(1))
        #expect(h.phase == .capturing)
        h.send(.captureCompleted(h.lastCapture!))
        #expect(!h.log.contains(.setFlash(false)), "still on between the shots of a burst")
        h.send(.captureCompleted(h.lastCapture!))
        #expect(h.log.filter { if case .setFlash = $0 { true } else { false } } == [.setFlash(true), .setFlash(false)])
    }

    @Test func thePhotographerFeelsOnePulseAsTheCountdownStarts() {
        var h = MachineHarness()
        h.send(.knobTurned(steps: 1))
        h.send(.buttonPressed)
        #expect(!h.log.contains(.setHaptic(true)), "not for a preview, nor at the press")
        let start = h.send(.soundFinished(.attention))
        #expect(start.contains(.setHaptic(true)))
        #expect(h.advance(by: .milliseconds(149)).isEmpty)
        #expect(h.advance(by: .milliseconds(1)) == [.setHaptic(false)])
        #expect(h.log.filter { $0 == .setHaptic(true) }.count == 1)
    }

    @Test func aPulseCutShortByAnAbortStillEnds() {
        var h = MachineHarness()
        h.send(.buttonPressed)
        h.send(.soundFinished(.attention))
        h.send(.cancelPressed)
        h.advance(by: .seconds(3))
        #expect(h.log.last { if case .setHaptic = $0 { true } else { false } } == .setHaptic(false))
    }

    /// Flash auto: the light is measured as the countdown starts, with the light still off; below the threshold
    /// (or when the camera reports no light level) the light goes on at once, for the rest of the countdown, and
    /// not at all above it. Mutation: deciding at the countdown's end (as the booth did) fails this.
    @Test(arguments: [(Double?.some(12), true), (49.9, true), (50, false), (800, false), (nil, true)])
    func flashAutoUsesTheLightLevel(lux: Double?, flash: Bool) {
        var h = MachineHarness(configuration: .init(burstCount: 2, flash: .auto, flashAutoLux: 50))
        h.send(.buttonPressed)
        let start = h.send(.soundFinished(.attention))
        #expect(start.contains(.measureLight) && !start.contains(.setFlash(true)), "measured before the light is on")
        #expect(h.send(.lightMeasured(lux: lux)) == (flash ? [.setFlash(true)] : []))
        #expect(h.phase == .countingDown)
        h.advance(by: .seconds(1))
        #expect(h.phase == .capturing)
        let flashes = { h.log.filter { if case .setFlash = $0 { true } else { false } } }
        #expect(flashes() == (flash ? [.setFlash(true)] : []))
        h.send(.captureCompleted(h.lastCapture!))
        h.send(.captureCompleted(h.lastCapture!))
        #expect(h.phase == .processing)
        #expect(flashes() == (flash ? [.setFlash(true), .setFlash(false)] : []))
    }

    /// Flash auto whose light level has not arrived when the countdown ends: the flash is used, as for a
    /// camera that reports none; a level arriving after that changes nothing.
    @Test func flashAutoWithoutALightLevelByTheShutterUsesTheFlash() {
        var h = MachineHarness(configuration: .init(flash: .auto, flashAutoLux: 50))
        h.send(.buttonPressed)
        h.send(.soundFinished(.attention))
        let end = h.advance(by: .seconds(1))
        #expect(h.phase == .capturing)
        let on = end.firstIndex(of: .setFlash(true))
        let shutter = end.firstIndex { if case .capturePhoto = $0 { true } else { false } }
        #expect(on != nil && shutter != nil && on! < shutter!, "the light is on before the shutter")
        #expect(h.send(.lightMeasured(lux: 800)).isEmpty)
        h.send(.captureCompleted(h.lastCapture!))
        #expect(h.log.filter { if case .setFlash = $0 { true } else { false } } == [.setFlash(true), .setFlash(false)])
    }

    @Test(arguments: [false, true])
    func theFlashGoesOffWhenASequenceWithItAborts(inTheCountdown: Bool) {
        var h = MachineHarness(configuration: .init(flash: .auto))
        h.send(.buttonPressed)
        h.send(.soundFinished(.attention))
        h.send(.lightMeasured(lux: 3))
        if !inTheCountdown { h.advance(by: .seconds(1)) }
        #expect(h.phase == (inTheCountdown ? .countingDown : .capturing))
        h.send(.cancelPressed)
        #expect(h.log.filter { if case .setFlash = $0 { true } else { false } } == [.setFlash(true), .setFlash(false)])
    }

    // MARK: Knob

    @Test func turningTheKnobCyclesTheFavouritesWithAPreview() {
        var h = MachineHarness()
        var heard: [String] = []
        for _ in 0..<6 {
            let actions = h.send(.knobTurned(steps: 1))
            for case .playSound(let name, .preview) in actions { heard.append(name) }
            #expect(actions.contains(.persistChoices(h.machine.choices)))
        }
        #expect(heard == ["Cow", "Dog", "Boing", "Whistle", "Duck", "Cow"])
        h.send(.knobTurned(steps: -2))
        #expect(h.machine.choices.sound == "Whistle")
    }

    @Test func aKnobPressChoosesTheDelayShownOnTheLEDsUntilPressedAgainOrFiveSecondsPass() {
        var h = MachineHarness()
        h.send(.knobPressed)
        #expect(h.machine.knobMode == .delay)
        #expect(h.lastPattern == .delayDisplay(halfSeconds: 2))
        h.send(.knobTurned(steps: 1))
        #expect(h.machine.choices.delayHalfSeconds == 3)
        #expect(h.lastPattern == .delayDisplay(halfSeconds: 3))
        h.send(.knobTurned(steps: 10))
        #expect(h.machine.choices.delayHalfSeconds == 6)
        h.send(.knobTurned(steps: -10))
        #expect(h.machine.choices.delayHalfSeconds == 1)
        h.advance(by: .milliseconds(4999))
        #expect(h.machine.knobMode == .delay)
        h.advance(by: .milliseconds(1))
        #expect(h.machine.knobMode == .sound)
        #expect(h.lastPattern == .off)
        h.send(.knobPressed)
        h.send(.knobPressed)
        #expect(h.machine.knobMode == .volume)
        h.send(.knobPressed)
        #expect(h.machine.knobMode == .sound)
    }

    /// Knob press, knob press: the volume, shown as a bar and heard (the selected sound at each new
    /// level), changed in steps of 10 between 10 and 100 %, persisted, back to the sound after 5 s.
    @Test func aSecondKnobPressChoosesTheVolume() {
        var h = MachineHarness(choices: RuntimeChoices(sound: "Dog", delayHalfSeconds: 2, visualCountdown: true))
        #expect(h.machine.start(at: h.now).contains(.setVolume(percent: 100)))
        h.send(.knobPressed)
        h.send(.knobPressed)
        #expect(h.machine.knobMode == .volume)
        #expect(h.lastPattern == .volumeDisplay(percent: 100))
        let turned = h.send(.knobTurned(steps: -3))
        #expect(h.machine.choices.volumePercent == 70)
        #expect(turned.firstIndex(of: .setVolume(percent: 70))! < turned.firstIndex(of: .playSound("Dog", .preview))!)
        #expect(turned.contains(.persistChoices(h.machine.choices)))
        #expect(turned.contains(.reportSetting(name: "volume", value: "70")))
        #expect(h.lastPattern == .volumeDisplay(percent: 70))
        h.send(.knobTurned(steps: -20))
        #expect(h.machine.choices.volumePercent == 10)
        let atFloor = h.send(.knobTurned(steps: -1))
        #expect(!atFloor.contains { if case .playSound = $0 { true } else { false } }, "no change, no preview")
        h.send(.knobTurned(steps: 30))
        #expect(h.machine.choices.volumePercent == 100)
        h.advance(by: .seconds(5))
        #expect(h.machine.knobMode == .sound)
        #expect(h.lastPattern == .off)
        #expect(h.machine.choices.sound == "Dog" && h.machine.choices.delayHalfSeconds == 2)
    }

    @Test func aLongKnobPressTogglesTheVisualCountdown() {
        var h = MachineHarness()
        let actions = h.send(.knobLongPressed)
        #expect(h.machine.choices.visualCountdown == false)
        #expect(actions.contains(.persistChoices(h.machine.choices)))
        h.send(.knobLongPressed)
        #expect(h.machine.choices.visualCountdown == true)
    }

    /// A stick that is not the owner's shows until it is pulled; holding the knob's switch then makes it the owner's
    /// (three blinks, then its export's progress) and leaves the visual countdown as it was. Fails with the claim
    /// removed from `knobLongPressed`: the hold toggles the visual countdown and the stick gets nothing.
    @Test func holdingTheKnobWhileAnUnknownStickIsInMakesItTheOwners() {
        var h = MachineHarness()
        h.send(.storageChecked(hasRoom: false))
        h.send(.stickUnknown)
        #expect(h.lastPattern == .unknownStick)
        let actions = h.send(.knobLongPressed)
        #expect(actions.contains(.claimStick))
        #expect(h.machine.choices.visualCountdown == true)
        #expect(!actions.contains { if case .persistChoices = $0 { true } else { false } })
        #expect(h.lastPattern == .acknowledge(count: 3))
        h.send(.exportProgressed(done: 0, total: 2))
        h.advance(by: .milliseconds(750))
        #expect(h.lastPattern == .exportProgress(done: 0, total: 2))
        // Claimed once: the next hold toggles the visual countdown again.
        h.send(.exportFinished(safeToRemove: true))
        #expect(!h.send(.knobLongPressed).contains(.claimStick))
        #expect(h.machine.choices.visualCountdown == false)

        // Pulled before the hold: the pattern ends and a hold claims nothing.
        var pulled = MachineHarness()
        pulled.send(.stickUnknown)
        pulled.send(.stickRemoved)
        #expect(pulled.lastPattern == .off)
        #expect(!pulled.send(.knobLongPressed).contains(.claimStick))
    }

    @Test(arguments: [
        (BoothEvent.deviceWarning(.volumeMuted, active: true), LEDPattern.warning(blinks: [3])),
        (.exportFinished(safeToRemove: true), .safeToRemove),
        (.storageChecked(hasRoom: false), .full),
        (.stickRemoved, .off),
    ])
    func aKnobHoldsAcknowledgementEndsInTheIdlePatternInForce(before: BoothEvent, pattern: LEDPattern) {
        var h = MachineHarness()
        h.send(before)
        #expect(h.lastPattern == pattern)
        h.send(.knobLongPressed)
        #expect(h.lastPattern == .acknowledge(count: 1))
        h.advance(by: .milliseconds(249))
        #expect(h.lastPattern == .acknowledge(count: 1))
        h.advance(by: .milliseconds(1))
        #expect(h.lastPattern == pattern)
        #expect(h.log.last { if case .showLEDs = $0 { true } else { false } } == .showLEDs(pattern, since: h.now))
    }

    /// `booth hotspot on`: the bar grows three times over whatever the idle row showed, which then comes back; never
    /// over a sequence or the knob's display, and the press still works at once.
    @Test func theHotspotIsConfirmedOnlyWhileTheBoothWaits() {
        var h = MachineHarness()
        h.send(.stickUnknown)
        h.send(.hotspotStarted)
        #expect(h.lastPattern == .hotspotOn)
        h.advance(by: .milliseconds(2999))
        #expect(h.lastPattern == .hotspotOn)
        h.advance(by: .milliseconds(1))
        #expect(h.lastPattern == .unknownStick)

        var counting = MachineHarness()
        counting.send(.buttonPressed)
        counting.send(.buttonReleased)
        #expect(counting.send(.hotspotStarted).isEmpty)
        counting.send(.soundFinished(.attention))
        #expect(counting.send(.hotspotStarted).isEmpty)
        #expect(counting.lastPattern == .countdown(halfSeconds: 2))

        var knob = MachineHarness()
        knob.send(.knobPressed)
        let delay = knob.lastPattern
        #expect(knob.send(.hotspotStarted).isEmpty)
        #expect(knob.lastPattern == delay)

        var pressed = MachineHarness()
        pressed.send(.hotspotStarted)
        pressed.send(.buttonPressed)
        #expect(pressed.phase != .idle)
    }

    /// Three knob presses: the delay is seen, then the volume, then the sound heard, its place among the
    /// favourites and the visual countdown's state seen; nothing changes.
    @Test func aThirdKnobPressReadsOutTheChoicesWithoutChangingThem() throws {
        var h = MachineHarness(choices: RuntimeChoices(sound: "Dog", delayHalfSeconds: 3, visualCountdown: false))
        h.send(.knobPressed)
        #expect(h.lastPattern == .delayDisplay(halfSeconds: 3))
        h.send(.knobPressed)
        #expect(h.lastPattern == .volumeDisplay(percent: 100))
        let readout = h.send(.knobPressed)
        #expect(readout.contains(.playSound("Dog", .preview)))
        let pattern = LEDPattern.readout(position: 3, visualCountdown: false)
        #expect(h.lastPattern == pattern)
        #expect(!readout.contains { if case .persistChoices = $0 { true } else { false } })
        let end = try #require(pattern.duration(ledCount: 4))
        h.advance(by: end - .nanoseconds(1))
        #expect(h.lastPattern == pattern)
        h.advance(by: .nanoseconds(1))
        #expect(h.lastPattern == .off)
        #expect(h.machine.choices == RuntimeChoices(sound: "Dog", delayHalfSeconds: 3, visualCountdown: false))
        #expect(!h.log.contains { if case .reportSetting("sound", _) = $0 { true } else { false } })
    }

    /// A place past two rows flashes the row first: the readout lasts as long as it does on the booth's own row.
    @Test func aReadoutPastTwoRowsLastsItsFlashesLonger() throws {
        let sounds = (1...9).map { "Sound \($0)" }
        var h = MachineHarness(
            configuration: .init(favourites: sounds, ledCount: 2),
            choices: RuntimeChoices(sound: "Sound 8", delayHalfSeconds: 2, visualCountdown: true))
        for _ in 0..<3 { h.send(.knobPressed) }
        let pattern = LEDPattern.readout(position: 8, visualCountdown: true)
        #expect(h.lastPattern == pattern)
        // Place 8 on two LEDs: the fourth row, so two flashes (1 s) before the 2.25 s readout.
        let end = try #require(pattern.duration(ledCount: 2))
        #expect(end == .milliseconds(3_250))
        h.advance(by: end - .nanoseconds(1))
        #expect(h.lastPattern == pattern)
        h.advance(by: .nanoseconds(1))
        #expect(h.lastPattern == .off)
    }

    @Test func turningTheKnobDuringAReadoutEndsIt() {
        var h = MachineHarness()
        h.send(.deviceWarning(.volumeMuted, active: true))
        h.send(.knobPressed)
        h.send(.knobPressed)
        h.send(.knobPressed)
        #expect(h.lastPattern == .readout(position: 1, visualCountdown: true))
        h.send(.knobTurned(steps: 1))
        #expect(h.lastPattern == .warning(blinks: [3]))
        #expect(h.send(.knobTurned(steps: 1)).allSatisfy { if case .showLEDs = $0 { false } else { true } })
    }

    @Test func anAcknowledgementCutShortByAPressChangesNothingLater() {
        var h = MachineHarness()
        h.send(.knobLongPressed)
        h.send(.knobLongPressed)
        h.send(.buttonPressed)
        h.advance(by: .seconds(1))
        #expect(h.phase == .playingSound)
        #expect(h.lastPattern == .off)
        #expect(
            !h.log.suffix(from: h.log.lastIndex(of: .playSound("Duck", .attention))!).contains {
                if case .showLEDs(let pattern, _) = $0 { pattern != .off } else { false }
            })
    }

    @Test(arguments: [BoothPhase.playingSound, .countingDown, .capturing, .processing, .aborted])
    func theKnobChangesNothingWhileNotIdle(phase: BoothPhase) {
        var h = MachineHarness()
        h.drive(to: phase)
        let before = h.machine.choices
        for event in [BoothEvent.knobTurned(steps: 1), .knobPressed, .knobLongPressed, .knobTurned(steps: -3)] {
            #expect(h.send(event).filter { if case .setButtonLED = $0 { false } else { true } }.isEmpty)
        }
        #expect(h.machine.choices == before)
        #expect(h.phase == phase)
    }

    /// Sounds imported from a stick join the knob's cycle after the others, with their lengths (the
    /// attention sound's deadline), without a duplicate.
    @Test func soundsFromAStickJoinTheKnobsCycle() {
        var h = MachineHarness(configuration: .init(favourites: ["Duck", "Cow"]))
        let added = h.send(.soundsAdded(["Beep": .seconds(1), "Cow": .milliseconds(900), "Awoo": .seconds(2)]))
        #expect(added.contains(.reportSetting(name: "sounds", value: "Duck, Cow, Awoo, Beep")))
        #expect(h.machine.configuration.favourites == ["Duck", "Cow", "Awoo", "Beep"])
        var heard: [String] = []
        for _ in 0..<4 {
            for case .playSound(let name, .preview) in h.send(.knobTurned(steps: 1)) { heard.append(name) }
        }
        #expect(heard == ["Cow", "Awoo", "Beep", "Duck"])
        #expect(h.send(.soundsAdded(["Beep": .seconds(1)])).isEmpty, "already there: nothing to say")
        h.send(.knobTurned(steps: -1))
        h.send(.buttonPressed)
        #expect(h.machine.choices.sound == "Beep")
        #expect(
            h.log.last { if case .startTimer(.soundTimedOut, _) = $0 { true } else { false } }
                == .startTimer(.soundTimedOut, deadline: h.now.advanced(by: .seconds(3))))
    }

    @Test func aSoundThatIsNoLongerAFavouriteFallsBackToTheFirst() {
        let h = MachineHarness(choices: RuntimeChoices(sound: "Bell", delayHalfSeconds: 2, visualCountdown: true))
        #expect(h.machine.choices.sound == "Duck")
    }

    // MARK: Export

    @Test func exportLEDsShowInIdleButNeverHideACountdown() {
        var h = MachineHarness()
        h.send(.exportProgressed(done: 1, total: 4))
        #expect(h.lastPattern == .exportProgress(done: 1, total: 4))
        h.send(.buttonPressed)
        h.send(.soundFinished(.attention))
        h.send(.exportProgressed(done: 2, total: 4))
        #expect(h.lastPattern == .countdown(halfSeconds: 2))
        h.send(.exportFinished(safeToRemove: true))
        h.advance(by: .seconds(1))
        h.send(.captureCompleted(h.lastCapture!))
        h.send(.photoSaved(h.lastCapture!, path: "/p"))
        #expect(h.lastPattern == .safeToRemove)
        h.send(.stickRemoved)
        #expect(h.lastPattern == .off)
        h.send(.exportFailed(DeviceFault(.stick, .full, "stick full")))
        #expect(h.lastPattern == .error)
        #expect(h.log.contains(.reportError("export: stick full")))
    }

    // MARK: Every state × event

    /// Every event in every phase: the machine never traps, and the events that mean nothing in a
    /// phase leave it where it is.
    @Test(arguments: BoothPhase.allCases)
    func everyEventInEveryPhaseIsHandledOrIgnored(phase: BoothPhase) {
        let stale = CaptureID(sequence: 99, shot: 0)
        let x = DeviceFault(.camera, .failed, "x")
        let events: [BoothEvent] = [
            .buttonPressed, .buttonReleased, .buttonLongPressed, .knobTurned(steps: 1), .knobPressed, .knobLongPressed,
            .cancelPressed, .printPressed, .printRefused, .soundFinished(.attention), .soundFinished(.preview),
            .soundFinished(.shutter),
            .soundFailed(.attention, x), .soundFailed(.preview, x),
            .timerFired(.countdownEnded), .timerFired(.captureTimedOut), .timerFired(.reviewEnded),
            .timerFired(.knobModeEnded), .timerFired(.abortEnded), .timerFired(.acknowledgeEnded),
            .timerFired(.hapticEnded),
            .timerFired(.storageRecheck), .captureCompleted(stale),
            .captureFailed(stale, x), .photoSaved(stale, path: "/p/stale"),
            .photoSaveFailed(stale, x),
            .storageChecked(hasRoom: true), .storageChecked(hasRoom: false), .deviceWarning(.volumeMuted, active: true),
            .healthMeasured(HealthReading(temperature: 90_000, throttled: 0x5)), .lightMeasured(lux: 3),
            .exportProgressed(done: 1, total: 3), .exportFinished(safeToRemove: true), .exportFailed(x),
            .stickRemoved,
            .shutdownRequested(.abortSequence), .shutdownRequested(.finishSequence), .shutdownRequested(.restart),
        ]
        /// The phase each event leads to from `phase`; nil means it is ignored there.
        func target(_ event: BoothEvent) -> BoothPhase? {
            switch (phase, event) {
            case (.idle, .buttonPressed): .playingSound
            case (.playingSound, .soundFinished(.attention)): .countingDown
            case (.playingSound, .soundFailed(.attention, _)): .aborted
            case (.countingDown, .timerFired(.countdownEnded)): .capturing
            case (.capturing, .timerFired(.captureTimedOut)): .aborted
            case (.playingSound, .cancelPressed), (.countingDown, .cancelPressed), (.capturing, .cancelPressed):
                .aborted
            case (.playingSound, .shutdownRequested(.abortSequence)),
                (.countingDown, .shutdownRequested(.abortSequence)),
                (.capturing, .shutdownRequested(.abortSequence)), (.playingSound, .shutdownRequested(.restart)),
                (.countingDown, .shutdownRequested(.restart)), (.capturing, .shutdownRequested(.restart)):
                .aborted
            case (.aborted, .timerFired(.abortEnded)): .idle
            default: nil
            }
        }
        for event in events {
            var h = MachineHarness()
            h.drive(to: phase)
            h.send(event)
            #expect(h.phase == target(event) ?? phase, "\(phase) + \(event)")
        }
    }
}

extension MachineHarness {
    /// Drives a fresh machine into `phase`.
    mutating func drive(to phase: BoothPhase) {
        switch phase {
        case .idle: break
        case .playingSound: send(.buttonPressed)
        case .countingDown:
            send(.buttonPressed)
            send(.soundFinished(.attention))
        case .capturing: pressAndCountDown()
        case .processing:
            pressAndCountDown()
            send(.captureCompleted(lastCapture!))
        case .aborted:
            send(.buttonPressed)
            send(.cancelPressed)
        }
        precondition(self.phase == phase)
    }
}
