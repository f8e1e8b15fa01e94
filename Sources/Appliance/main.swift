import CKernel
import KernelIO

// Entry point: dispatch to a command and exit with the documented code.
let arguments = ProcessArguments.all
let code = CommandDispatcher.run(Array(arguments.dropFirst()))
bk_exit(code.rawValue)
