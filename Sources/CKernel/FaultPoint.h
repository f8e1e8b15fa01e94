// The shim's side of CKernelFaults.h: wraps one raw system call so the test-only injector can fail
// it. Private to the shim's C files.
#ifndef BACKDROP_CKERNEL_FAULT_POINT_H
#define BACKDROP_CKERNEL_FAULT_POINT_H

#include <errno.h>
#include "CKernelFaults.h"

// 1 with errno set when the injector fails this call. Reached only when an injector is linked.
static inline int bk_fault_fires(int call, int fd, unsigned long detail) {
    int error = bk_fault_for(call, fd, detail);
    if (error == 0) return 0;
    errno = error;
    return 1;
}

// `expression` (the raw call), or -1 with the injected errno. Without an injector `bk_fault_for`
// is null at link time: the test is a constant compare and the call goes straight through.
#define BK_SYSCALL(call, fd, detail, expression) \
    ((__builtin_expect(bk_fault_for != 0, 0) && bk_fault_fires((call), (fd), (unsigned long)(detail))) \
        ? -1 : (expression))

#endif
