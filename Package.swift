// swift-tools-version:6.0
// Module list mirrors the data flow in DESIGN.md: Capture -> FrameSync -> Matte -> Compose -> Scanout.
// Every library module here must also compile in Embedded Swift (see scripts/firmware.sh).
import PackageDescription

let package = Package(
    name: "Backdrop",
    products: [
        .executable(name: "backdrop", targets: ["Appliance"]),
    ],
    targets: [
        // C shim: the only place macros (ioctl numbers, errno, CPU_SET) are turned into callables.
        // libm: float rounding in the kernels lowers to roundf/floorf, and nothing else pulls it in.
        .target(name: "CKernel", path: "Sources/CKernel", linkerSettings: [.linkedLibrary("m")]),
        .systemLibrary(name: "CInih", path: "Sources/CInih", pkgConfig: "inih",
                       providers: [.apt(["libinih-dev"])]),
        .systemLibrary(name: "CSpng", path: "Sources/CSpng", pkgConfig: "spng",
                       providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),

        // libv4l2's format conversion, for colour cameras offering none of YUYV/NV12/MJPEG.
        .systemLibrary(name: "CV4LConvert", path: "Sources/CV4LConvert", pkgConfig: "libv4lconvert",
                       providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(name: "CDRM", path: "Sources/CDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        // Scanout buffers from the card's Mesa driver when it has one (dumb buffers otherwise).
        .systemLibrary(name: "CGBM", path: "Sources/CGBM", pkgConfig: "gbm",
                       providers: [.apt(["libgbm-dev"])]),
        // Keeps every libgpiod call in C so libgpiod 1.6 and 2.x both build (see its header).
        .target(name: "CGpioShim", path: "Sources/CGpioShim", linkerSettings: [.linkedLibrary("gpiod")]),

        // The git revision and build date for `backdrop --version` (scripts/build-info.sh).
        .target(name: "CBuildInfo", path: "Sources/CBuildInfo"),
        .target(name: "KernelIO", dependencies: ["CKernel"]),
        .target(name: "Frames", dependencies: ["KernelIO"]),
        .target(name: "FrameSync", dependencies: ["Frames"]),
        // Reference/ is the kernels' plain forms, a module of its own built for the tests only.
        .target(name: "Matte", dependencies: ["Frames", "KernelIO"], exclude: ["Reference", "README.md"]),
        .target(name: "MatteReference", dependencies: ["Matte"], path: "Sources/Matte/Reference"),
        .target(name: "Looks"),
        .target(name: "Compose", dependencies: ["Frames", "CKernel", "Looks"]),
        .target(name: "ImageCodec", dependencies: ["Frames", "CSpng", "CTurboJPEG", "KernelIO"]),
        .target(name: "Settings", dependencies: ["Frames", "Matte", "CInih"]),
        .target(name: "Backgrounds", dependencies: ["Frames", "ImageCodec", "KernelIO", "Looks"]),
        .target(name: "Scenes", dependencies: ["Frames", "ImageCodec", "KernelIO", "CInih"]),
        .target(name: "Capture", dependencies: ["Frames", "KernelIO", "CKernel", "CTurboJPEG", "CV4LConvert"]),
        .target(name: "Scanout", dependencies: ["Frames", "KernelIO", "CKernel", "CDRM", "CGBM"]),
        .target(name: "Controls"),
        .target(name: "Buttons", dependencies: ["Controls", "KernelIO", "CGpioShim"]),
        .target(name: "Booth", dependencies: ["Controls"]),
        .target(name: "Photos", dependencies: ["Frames", "Compose", "ImageCodec", "KernelIO", "CKernel"]),
        .target(name: "Sinks", dependencies: ["Frames", "ImageCodec", "KernelIO"]),
        .target(name: "Import", dependencies: ["Settings", "ImageCodec", "Backgrounds", "Frames", "KernelIO", "CKernel"]),
        .target(name: "Pipeline", dependencies: ["Frames", "FrameSync", "Matte", "Compose", "KernelIO", "Looks"]),
        .target(name: "Service", dependencies: ["KernelIO", "CKernel"]),
        // The booth at run time: the event loop, device waits, the Booth's actions carried out.
        .target(name: "Runtime",
                dependencies: ["Frames", "Matte", "Compose", "ImageCodec", "Settings", "Backgrounds", "Pipeline",
                               "KernelIO", "CKernel", "Capture", "Scanout", "Controls", "Buttons", "Import", "Service",
                               "Booth", "Photos", "Looks"]),
        // The CLI: main, the dispatcher, help, options and the commands.
        .executableTarget(name: "Appliance",
                          dependencies: ["Frames", "Matte", "Compose", "ImageCodec", "Settings",
                                         "Backgrounds", "Scenes", "Sinks", "Pipeline", "KernelIO",
                                         "Capture", "Scanout", "Controls", "Buttons", "Import", "Service", "Booth", "Photos",
                                         "Runtime", "CBuildInfo", "Looks"]),

        // Test-only: counts malloc family calls by interposition, for the zero-allocation test.
        // Test-only helpers shared by the test targets that write files.
        .target(name: "TestSupport", dependencies: ["CKernel"], path: "Tests/TestSupport"),
        // Fuzzing (mk/fuzz.mk): libFuzzer's driver referenced weakly, so ordinary builds replay inputs.
        .target(name: "CFuzzDriver", path: "Tests/Fuzz/CFuzzDriver"),
        .executableTarget(name: "BackdropFuzz",
                          dependencies: ["CFuzzDriver", "CKernel", "KernelIO", "Frames", "Settings", "Scenes",
                                         "ImageCodec", "Backgrounds", "CTurboJPEG", "Import", "Looks", "Capture"],
                          path: "Tests/Fuzz/BackdropFuzz"),
        .target(name: "CAllocCounter", path: "Tests/CAllocCounter", linkerSettings: [.linkedLibrary("dl")]),
        // Test-only: defines the funnel's weak fault hook (CKernelFaults.h); linked into test bundles only.
        .target(name: "CFaultInjector", dependencies: ["CKernel"], path: "Tests/CFaultInjector"),
        .testTarget(name: "KernelIOTests", dependencies: ["KernelIO", "CKernel", "TestSupport", "CFaultInjector"]),
        .testTarget(name: "FramesTests", dependencies: ["Frames"]),
        .testTarget(name: "FrameSyncTests", dependencies: ["FrameSync"]),
        .testTarget(name: "MatteTests", dependencies: ["Matte", "MatteReference", "Scenes", "CSpng"]),
        .testTarget(name: "LooksTests", dependencies: ["Looks"], exclude: ["Fixtures"]),
        .testTarget(name: "ComposeTests", dependencies: ["Compose", "CAllocCounter", "Looks"]),
        .testTarget(name: "ImageCodecTests", dependencies: ["ImageCodec", "TestSupport"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings"]),
        .testTarget(name: "BackgroundsTests", dependencies: ["Backgrounds", "ImageCodec", "KernelIO", "TestSupport", "Looks"]),
        .testTarget(name: "ScenesTests", dependencies: ["Scenes", "ImageCodec", "TestSupport"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "CAllocCounter", "CFaultInjector"]),
        .testTarget(name: "ScanoutTests", dependencies: ["Scanout", "CAllocCounter", "CFaultInjector"]),
        .testTarget(name: "ControlsTests", dependencies: ["Controls"]),
        .testTarget(name: "ButtonsTests", dependencies: ["Buttons", "Controls"]),
        .testTarget(name: "BoothTests", dependencies: ["Booth", "Controls"]),
        .testTarget(name: "PhotosTests", dependencies: ["Photos", "ImageCodec", "Frames", "KernelIO", "TestSupport", "CAllocCounter", "CFaultInjector"]),
        .testTarget(name: "ImportTests", dependencies: ["Import", "Settings", "ImageCodec", "Frames", "KernelIO", "TestSupport", "CFaultInjector"]),
        .testTarget(name: "SinksTests", dependencies: ["Sinks"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "KernelIO", "CKernel", "TestSupport"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Service", "Scanout", "Capture", "Import", "KernelIO",
                                                        "CKernel", "TestSupport"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Runtime", "Capture", "Backgrounds", "Scenes", "Sinks", "Matte", "KernelIO", "Scanout", "Compose", "Booth", "Controls", "CAllocCounter", "CFaultInjector", "Photos", "ImageCodec", "TestSupport"]),
    ]
)
