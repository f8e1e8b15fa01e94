import KernelIO
StandardOutput.line("backdrop: under construction")
