// swift-tools-version: 6.2
// HeyLook Booth: a photo booth for Raspberry Pi that gets a child to look at the camera.
import PackageDescription

/// Warnings are errors in every Swift target.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]
/// Warnings are errors in every C and C++ target.
let strictC: [CSetting] = [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]
/// HEYLOOK_LIBGPIOD_PREFIX=DIR builds the GPIO shim against DIR/include/gpiod.h and links DIR/lib/libgpiod.a (the
/// rig's libgpiod 2, Tests/Rig/lib/host.sh) instead of the system's: only CGPIOD recompiles and the booth relinks.
let libgpiodPrefix = Context.environment["HEYLOOK_LIBGPIOD_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
let strictCXX: [CXXSetting] = [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]

let package = Package(
    name: "HeyLookBooth",
    products: [
        .executable(name: "booth", targets: ["BoothMain"]),
        .executable(name: "booth-bench", targets: ["BoothBench"]),
        .executable(name: "booth-fuzz", targets: ["BoothFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The gallery's HTTP server (swift-nio underneath). No default traits: no swift-configuration, no full
        // Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // `Errno` (and, in time, descriptors and paths) for the Linux layer, as swift-nio uses it.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // Time: `Instant`, durations, the clock protocol and a manual clock for tests. No I/O.
        .target(name: "BoothTime", swiftSettings: strict),
        // The countdown's and the readouts' LED patterns. No I/O.
        .target(name: "LEDCountdown", dependencies: ["BoothTime"], swiftSettings: strict),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // CRC-32 (zlib's, wrapped once) for the index, manifests, durable writes and ZIPs: below everything that
        // records or checks a file, so the Linux layer needs nothing of the state machine's module.
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "Checksum", dependencies: ["CZlib", "CCrypto"], swiftSettings: strict),
        // What the booth and the gallery share about photos: their names, the index, the clock mark, the ids of
        // booths and sticks. No I/O.
        .target(name: "PhotoModel", dependencies: ["BoothTime", "Checksum"], swiftSettings: strict),
        // The config and choices files' format (a TOML subset), for the booth and the gallery.
        .target(name: "BoothConfig", swiftSettings: strict),
        // Pure logic: the state machine, settings, store and export planning. No I/O, no clock.
        .target(
            name: "BoothCore", dependencies: ["BoothConfig", "BoothTime", "Checksum", "LEDCountdown", "PhotoModel"],
            swiftSettings: strict),

        // Linux calls Swift cannot reach, errno as text for every module's messages, and the one file layer
        // (FileOperations, the fault seam; DurableFile, crash-safe writes) the store, export and import go through.
        .target(name: "CBoothSys", cSettings: strictC),
        // The one way a C shim writes why a call failed into its caller's buffer (a header of inline functions).
        .target(name: "CBoothMessage", cSettings: strictC),
        .target(
            name: "BoothSystem",
            dependencies: [
                "BoothTime", "Checksum", "CBoothSys", "CSystemdBus",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict),

        // Photos on disk: crash-safe saves, the store's folder and index. Not the state machine's module: the
        // gallery reads the store through it.
        .target(
            name: "PhotoStore", dependencies: ["BoothSystem", "CBoothSys", "Checksum", "PhotoEncoding", "PhotoModel"],
            swiftSettings: strict),
        // USB sticks: the export (admission, manifest, copy and verify), the owner's sticks, the unmount seam.
        .target(
            name: "USBSticks",
            dependencies: [
                "BoothCore", "BoothSystem", "CBoothSys", "Checksum", "PhotoEncoding", "PhotoModel", "PhotoStore",
            ],
            swiftSettings: strict),

        // Sound: alsa-lib seen from Swift, then synthesis, WAV loading and non-blocking playback.
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        .target(name: "SoundOutput", dependencies: ["BoothSystem", "BoothTime", "CALSA"], swiftSettings: strict),

        // GPIO: a thin C shim over libgpiod (v1 or v2, picked by its header), and the Swift layer
        // that owns the lines plus the pure button and rotary-encoder decoders.
        .target(
            name: "CGPIOD",
            cSettings: strictC + (libgpiodPrefix.map { [.unsafeFlags(["-I\($0)/include"])] } ?? []),
            linkerSettings: libgpiodPrefix.map { [.unsafeFlags(["-Xlinker", "\($0)/lib/libgpiod.a"])] }
                ?? [.linkedLibrary("gpiod")]
        ),
        .target(name: "GPIOInput", dependencies: ["BoothSystem", "BoothTime", "CGPIOD"], swiftSettings: strict),

        // Remotes, keypads and pedals: the kernel's input devices (evdev) through a C shim over its ioctls and event
        // records, and the Swift device the booth's loop reads.
        .target(name: "CKeyInput", cSettings: strictC),
        .target(name: "KeyInput", dependencies: ["BoothSystem", "BoothTime", "CKeyInput"], swiftSettings: strict),
        .testTarget(
            name: "KeyInputTests", dependencies: ["BoothSystem", "BoothTestSupport", "BoothTime", "KeyInput"],
            swiftSettings: strict),

        // systemd's D-Bus API (StopUnit on a stick's mount unit) through libsystemd's sd-bus, in C.
        .target(
            name: "CSystemdBus", dependencies: ["CBoothMessage"],
            cSettings: strictC,
            linkerSettings: [.linkedLibrary("systemd")]
        ),

        // The join card: QR codes by libqrencode, drawn by cairo, which the C shim loads with dlopen only when a card
        // is made (`booth run` and `booth gallery` never map it); cairo's headers only at build time.
        .systemLibrary(
            name: "CQREncode", path: "Sources/CQREncode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]),
        .target(
            name: "CPageCanvas", dependencies: ["CBoothMessage"],
            cSettings: strictC + [.unsafeFlags(["-I/usr/include/cairo"])]),
        .target(name: "PageCanvas", dependencies: ["CPageCanvas"], swiftSettings: strict),
        .target(
            name: "JoinCard", dependencies: ["BoothSystem", "PageCanvas", "CQREncode", "Checksum", "GalleryCore"],
            swiftSettings: strict),
        .testTarget(name: "JoinCardTests", dependencies: ["JoinCard", "GalleryCore"], swiftSettings: strict),

        // The running booth: its one single-threaded epoll loop, the workers that report to it, the controller that
        // feeds the state machine and carries out its actions, and every device behind it, real and simulated.
        .target(
            name: "BoothRuntime",
            dependencies: [
                "BoothCore", "BoothSystem", "BoothTime", "CameraCapture", "GPhotoCapture", "GPIOInput", "KeyInput",
                "LEDCountdown", "PhotoModel", "PhotoStore", "PhotoEncoding", "Printing", "USBSticks", "SoundOutput",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "BoothRuntimeTests",
            dependencies: [
                "BoothTestSupport", "BoothRuntime", "BoothCore", "BoothSystem", "BoothTime", "CameraCapture",
                "CBoothSys", "Checksum", "GPhotoCapture", "KeyInput", "PhotoEncoding", "PhotoModel", "PhotoStore",
                "LEDCountdown", "Printing", "SoundOutput", "USBSticks",
            ],
            swiftSettings: strict),
        // The `booth` executable: its commands, each a few lines over the runtime, the store, the gallery and the card.
        .executableTarget(
            name: "BoothMain",
            dependencies: [
                "BoothConfig", "BoothCore", "BoothRuntime", "BoothSystem", "BoothTime", "CameraCapture",
                "GPhotoCapture", "GPIOInput", "KeyInput", "PhotoModel", "PhotoStore", "PhotoEncoding", "Printing",
                "USBSticks", "SoundOutput", "Gallery", "GalleryCore", "JoinCard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // Photo encoding: libjpeg-turbo behind a setjmp shim, EXIF through libexif.
        .systemLibrary(name: "CExif", path: "Sources/CExif", pkgConfig: "libexif"),
        // Only C touches libjpeg: its fatal errors need setjmp, which Swift cannot call.
        .target(
            name: "CJPEGShim", dependencies: ["CBoothMessage"], cSettings: strictC,
            linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "PhotoEncoding", dependencies: ["BoothTime", "CJPEGShim", "CExif"], swiftSettings: strict),

        // Camera: libcamera (C++) behind a C ABI, wrapped once in Swift.
        .systemLibrary(name: "CLibcamera", path: "Sources/CLibcamera", pkgConfig: "libcamera"),
        .target(name: "LibcameraShim", dependencies: ["CLibcamera"], cxxSettings: strictCXX),
        .target(
            name: "CameraCapture", dependencies: ["BoothSystem", "BoothTime", "LibcameraShim", "PhotoEncoding"],
            swiftSettings: strict),

        .testTarget(
            name: "CameraCaptureTests", dependencies: ["BoothTestSupport", "CameraCapture", "PhotoEncoding"],
            swiftSettings: strict),
        // A camera over USB (DSLR, mirrorless): libgphoto2, wrapped once in Swift; it blocks, so the booth runs it on
        // a worker thread of its own.
        .systemLibrary(
            name: "CGPhoto2", path: "Sources/CGPhoto2", pkgConfig: "libgphoto2", providers: [.apt(["libgphoto2-dev"])]),
        .target(name: "GPhotoCapture", dependencies: ["BoothSystem", "BoothTime", "CGPhoto2"], swiftSettings: strict),
        .testTarget(
            name: "GPhotoCaptureTests", dependencies: ["BoothTestSupport", "BoothTime", "GPhotoCapture"],
            swiftSettings: strict),
        // Printing: libcups (the job, the job's and the queue's state) through a C shim that loads it with dlopen only
        // when the booth prints (it brings Avahi, GnuTLS and Kerberos); its headers only at build time.
        .target(name: "CCUPSShim", dependencies: ["CBoothMessage"], cSettings: strictC),
        .target(
            name: "Printing", dependencies: ["BoothCore", "BoothSystem", "CCUPSShim", "PageCanvas", "PhotoEncoding"],
            swiftSettings: strict),
        .testTarget(
            name: "PrintingTests",
            dependencies: ["BoothCore", "BoothSystem", "BoothTestSupport", "PhotoEncoding", "Printing"],
            swiftSettings: strict),
        // Measurements of the real binary (release build), printed as a table.
        .executableTarget(
            name: "BoothBench",
            dependencies: [
                "BoothCore", "BoothTestSupport", "Checksum", "PhotoEncoding", "PhotoModel", "PhotoStore", "Printing",
                "USBSticks",
            ],
            path: "Benchmarks/BoothBench",
            swiftSettings: strict),
        // JPEGThumbnail (a scaled decode) versus `djpeg -scale 1/8` on a 12 MP photo.
        .executableTarget(
            name: "ThumbnailBench", dependencies: ["PhotoEncoding"], path: "Benchmarks/ThumbnailBench",
            swiftSettings: strict),
        // JPEGEncoder versus libjpeg-turbo's cjpeg and tjbench on a 12 MP frame.
        .executableTarget(
            name: "EncodeBench", dependencies: ["PhotoEncoding"], path: "Benchmarks/EncodeBench",
            swiftSettings: strict),

        // libFuzzer harnesses for every parser of outside input (scripts/fuzz builds them with -sanitize=fuzzer);
        // built plainly, it replays corpus files.
        .executableTarget(
            name: "BoothFuzz",
            dependencies: [
                "BoothConfig", "BoothCore", "BoothTime", "GalleryCore", "PhotoEncoding", "PhotoModel", "SoundOutput",
            ],
            path: "Tests/Fuzz/BoothFuzz",
            swiftSettings: strict),
        .target(
            name: "BoothTestSupport",
            dependencies: [
                "BoothSystem", "Checksum", "GPhotoCapture", "PhotoEncoding", "PhotoModel", "PhotoStore", "USBSticks",
            ],
            path: "Tests/BoothTestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "BoothMainTests",
            dependencies: [
                "BoothTestSupport", "BoothMain", "BoothRuntime", "BoothCore", "BoothSystem", "BoothTime",
                "CameraCapture",
                "Checksum",
                "GPhotoCapture", "KeyInput", "PhotoEncoding", "PhotoModel", "PhotoStore", "LEDCountdown", "Printing",
                "USBSticks",
            ],
            swiftSettings: strict),
        .testTarget(name: "PhotoEncodingTests", dependencies: ["BoothTime", "PhotoEncoding"], swiftSettings: strict),

        // The gallery's pure logic: which photos a page shows, the streamed ZIP's bytes, the access code.
        .target(
            name: "GalleryCore", dependencies: ["BoothConfig", "BoothTime", "Checksum", "PhotoModel"],
            swiftSettings: strict),
        .testTarget(
            name: "GalleryCoreTests",
            dependencies: ["GalleryCore", "BoothTestSupport", "BoothTime", "Checksum", "PhotoModel"],
            swiftSettings: strict),
        // The gallery's server (`booth gallery`, a process of its own): pages, photos, thumbnails, ZIPs and the
        // slideshow's events over HTTP with Hummingbird; the photos folder watched with inotify.
        .target(
            name: "Gallery",
            dependencies: [
                "GalleryCore", "BoothSystem", "BoothTime", "PhotoModel", "PhotoStore", "PhotoEncoding",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "GalleryTests",
            dependencies: [
                "Gallery", "GalleryCore", "BoothCore", "BoothSystem", "BoothTestSupport", "PhotoEncoding", "PhotoModel",
                "PhotoStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "BoothCoreTests", dependencies: ["BoothConfig", "BoothCore", "BoothTime", "Checksum", "PhotoModel"],
            swiftSettings: strict),
        .testTarget(
            name: "PhotoModelTests", dependencies: ["BoothCore", "BoothTime", "Checksum", "PhotoModel"],
            swiftSettings: strict),
        .testTarget(name: "BoothConfigTests", dependencies: ["BoothConfig"], swiftSettings: strict),
        .testTarget(name: "BoothTimeTests", dependencies: ["BoothTime"], swiftSettings: strict),
        .testTarget(name: "ChecksumTests", dependencies: ["Checksum"], swiftSettings: strict),
        .testTarget(name: "LEDCountdownTests", dependencies: ["BoothTime", "LEDCountdown"], swiftSettings: strict),
        .testTarget(
            name: "PhotoStoreTests",
            dependencies: [
                "BoothTestSupport", "PhotoStore", "BoothCore", "BoothSystem", "BoothTime", "Checksum", "PhotoEncoding",
                "PhotoModel", "USBSticks",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "USBSticksTests",
            dependencies: [
                "BoothTestSupport", "USBSticks", "PhotoStore", "BoothCore", "BoothSystem", "BoothTime", "Checksum",
                "PhotoEncoding", "PhotoModel",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SoundOutputTests",
            dependencies: ["BoothCore", "BoothSystem", "BoothTestSupport", "BoothTime", "SoundOutput"],
            swiftSettings: strict),
        .testTarget(
            name: "GPIOInputTests", dependencies: ["BoothSystem", "BoothTestSupport", "BoothTime", "GPIOInput"],
            swiftSettings: strict),
        .testTarget(
            name: "BoothSystemTests",
            dependencies: ["BoothSystem", "BoothCore", "BoothTestSupport", "BoothTime", "PhotoModel"],
            swiftSettings: strict),
    ],
    cxxLanguageStandard: .cxx17
)
