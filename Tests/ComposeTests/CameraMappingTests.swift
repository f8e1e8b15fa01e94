@testable import Compose
@_spi(Testing) import Frames
import Testing

@Suite struct CameraMappingTests {
    typealias F = ComposeFixtures
    let camera = FrameSize(width: 640, height: 480)   // 4:3
    let output = FrameSize(width: 1920, height: 1080) // 16:9

    @Test func identityWhenSizesMatch() {
        for fit in FitMode.allCases {
            let mapping = CameraMapping(camera: output, output: output, fit: fit)
            #expect(mapping.columnsAreIdentity)
            #expect(mapping.sourceRow == (0..<1080).map { Int32($0) })
        }
    }

    @Test func fillCropsTopAndBottomOfA43Camera() {
        let mapping = CameraMapping(camera: camera, output: output, fit: .fill)
        // 640 wide covers 1920: scale 3; visible camera rows are the middle 360 (60...419).
        #expect(mapping.activeColumns == 0..<1920 && mapping.activeRows == 0..<1080)
        #expect(mapping.sourceColumn.first == 0 && mapping.sourceColumn.last == 639)
        #expect(mapping.sourceRow.first == 60 && mapping.sourceRow.last == 419)
        #expect(mapping.sourceColumn[3] == 1 && mapping.sourceRow[3] == 61)
    }

    @Test func fitLetterboxesLeftAndRight() {
        let mapping = CameraMapping(camera: camera, output: output, fit: .fit)
        // 480 tall fits 1080: scale 2.25, 1440 wide, bars of 240 each side.
        #expect(mapping.activeColumns == 240..<1680 && mapping.activeRows == 0..<1080)
        #expect(mapping.sourceColumn[239] == -1 && mapping.sourceColumn[1680] == -1)
        #expect(mapping.sourceColumn[240] == 0 && mapping.sourceColumn[1679] == 639)
        #expect(mapping.sourceRow.first == 0 && mapping.sourceRow.last == 479)
        #expect(!mapping.columnsAreIdentity)
    }

    @Test func stretchUsesTheWholeCameraOnBothAxes() {
        let mapping = CameraMapping(camera: camera, output: output, fit: .stretch)
        #expect(mapping.sourceColumn.first == 0 && mapping.sourceColumn.last == 639)
        #expect(mapping.sourceRow.first == 0 && mapping.sourceRow.last == 479)
        #expect(mapping.sourceColumn[960] == 320 && mapping.sourceRow[540] == 240)
    }

    @Test func matteViewShowsAlphaAsGreyWithBlackBars() {
        let cameraSize = FrameSize(width: 8, height: 8)
        let outputSize = FrameSize(width: 16, height: 8)
        let alpha = F.alpha(cameraSize) { x, _ in UInt8(x * 30) }
        let output = PixelBuffer(format: .xrgb8888, size: outputSize)
        let compositor = Compositor(cameraFormat: .yuyv, cameraSize: cameraSize, outputSize: outputSize, fit: .fit)
        compositor.composeMatteView(alpha: alpha.view, into: output.view, rows: 0..<8)
        for y in 0..<8 {
            for x in 0..<4 { #expect(F.pixel(output, x, y) == 0xFF00_0000) }
            for x in 12..<16 { #expect(F.pixel(output, x, y) == 0xFF00_0000) }
            for x in 4..<12 {
                let grey = UInt32((x - 4) * 30)
                #expect(F.pixel(output, x, y) == 0xFF00_0000 | grey << 16 | grey << 8 | grey)
            }
        }
    }

    @Test func composeKeepsTheBackdropInLetterboxBars() {
        let cameraSize = FrameSize(width: 8, height: 8)
        let outputSize = FrameSize(width: 8, height: 16)
        let camera = F.yuyv(cameraSize, luma: { _, _ in 235 }, chroma: { _, _ in (128, 128) })
        let alpha = F.alpha(cameraSize) { _, _ in 255 }
        let background = F.xrgb(outputSize) { _, _ in 0xFF11_2233 }
        let output = PixelBuffer(format: .xrgb8888, size: outputSize)
        Compositor(cameraFormat: .yuyv, cameraSize: cameraSize, outputSize: outputSize, fit: .fit)
            .compose(camera: camera.view, alpha: alpha.view, background: background.view, into: output.view, rows: 0..<16)
        for x in 0..<8 {
            #expect(F.pixel(output, x, 0) == 0xFF11_2233)    // bar above
            #expect(F.pixel(output, x, 3) == 0xFF11_2233)
            #expect(F.pixel(output, x, 4) == 0xFFFF_FFFF)    // camera
            #expect(F.pixel(output, x, 11) == 0xFFFF_FFFF)
            #expect(F.pixel(output, x, 12) == 0xFF11_2233)   // bar below
        }
    }
}
