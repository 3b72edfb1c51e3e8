// SystemErrorAlias: BoothSystem's SystemError by name in the BoothMain files that do not import BoothSystem.
import BoothSystem

/// BoothSystem's `SystemError`, named for the BoothMain files that use it without importing BoothSystem
/// (Loop/Worker.swift, Real/HealthMonitor.swift); it goes once they import it.
typealias SystemError = BoothSystem.SystemError
