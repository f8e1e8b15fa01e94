import CKernel
import KernelIO
import Runtime

// Entry point: dispatch to a command and exit with the documented code. The environment's hooks
// are read here, once; nothing else in the product reads the environment (RuntimeOptions).
let arguments = ProcessArguments.all
let code = CommandDispatcher.run(Array(arguments.dropFirst()), runtime: RuntimeOptions.fromEnvironment())
bk_exit(code.rawValue)
