import CKernel
import Synchronization

/// The guarded debug layout of frame memory: while on, every `BufferLayout` made puts each array
/// it reserves against the end of its own pages with an inaccessible page after it, so a store
/// even one byte past an array (one plane into the next, in the one-allocation layout) is a
/// SIGSEGV at the faulting instruction, which AddressSanitizer reports as well, instead of a
/// silent write into the neighbour. Off in the product; on by default in a build with
/// `-DBACKDROP_GUARD_PAGES` (the sanitizer stage, mk/sanitize.mk), and switched on by tests.
///
/// Read once by each `BufferLayout` as it is made, so a layout and its buffer agree however the
/// switch moves later; a switch by one test may guard another's buffers made meanwhile, which
/// costs only memory.
public enum GuardedPlanes {
    #if BACKDROP_GUARD_PAGES
    private static let on = Atomic<Bool>(true)
    #else
    private static let on = Atomic<Bool>(false)
    #endif

    public static var enabled: Bool {
        get { on.load(ordering: .relaxed) }
        set { on.store(newValue, ordering: .relaxed) }
    }

    /// The machine's page: the guard's size and the unit each array is placed in.
    public static var pageSize: Int { Int(bk_page_size()) }
}
