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

    @Test func composeKeepsTheBackdropAsItIsInSideBars() {
        // 8 columns fitted into 43: bars of 17 and 18 columns (eight-word steps and a tail), over
        // a backdrop whose X byte varies, by both compose paths.
        let cameraSize = FrameSize(width: 8, height: 8)
        let outputSize = FrameSize(width: 43, height: 8)
        let camera = F.yuyv(cameraSize, luma: { _, _ in 235 }, chroma: { _, _ in (128, 128) })
        let alpha = F.alpha(cameraSize) { _, _ in 255 }
        let background = F.xrgb(outputSize) { x, y in UInt32(x * 5 + y) << 24 | UInt32(x * 977 + y * 31) & 0xFF_FFFF }
        let compositor = Compositor(cameraFormat: .yuyv, cameraSize: cameraSize, outputSize: outputSize, fit: .fit)
        #expect(compositor.mapping.activeColumns == 17..<25)
        let gathered = PixelBuffer(format: .xrgb8888, size: outputSize)
        let rowWise = PixelBuffer(format: .xrgb8888, size: outputSize)
        compositor.compose(camera: camera.view, alpha: alpha.view, background: background.view, into: gathered.view, rows: 0..<8)
        compositor.compose(camera: camera.view, alpha: alpha.view, background: background.view, into: rowWise.view, rows: 0..<8,
                           scratch: compositor.makeScratch())
        for y in 0..<8 {
            for x in Array(0..<17) + Array(25..<43) {
                #expect(F.pixel(gathered, x, y) == F.pixel(background, x, y), "gathered \(x),\(y)")
                #expect(F.pixel(rowWise, x, y) == F.pixel(background, x, y), "row-wise \(x),\(y)")
            }
            for x in 17..<25 { #expect(F.pixel(rowWise, x, y) == 0xFFFF_FFFF) }
        }
    }
}
