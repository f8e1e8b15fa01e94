import KernelIO
import Testing

@Suite struct AlignedBufferTests {
    @Test func aRefusedAllocationIsAnErrorWithItsSize() {
        // No machine grants half the address space: posix_memalign refuses it with ENOMEM.
        let huge = Int.max / 2
        do {
            _ = try AlignedBuffer(byteCount: huge)
            Issue.record("allocated \(huge) bytes")
        } catch {
            #expect(error.errno == .outOfMemory)
            #expect(error.message.contains("\(huge) bytes"))
        }
    }

    @Test func aGrantedBufferIsZeroedAndAligned() throws {
        let buffer = try AlignedBuffer(byteCount: 1000)
        #expect(Int(bitPattern: buffer.base) % 64 == 0)
        let bytes = buffer.typed(UInt8.self)
        #expect((0..<1000).allSatisfy { bytes[$0] == 0 })
    }
}
