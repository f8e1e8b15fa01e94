// Test-only fault injection at the KernelIO funnel (CKernelFaults.h): defines the shim's weak
// `bk_fault_for`, so linking this target (test bundles only) switches injection on.
//
// Faults belong to a scope: a test calls fault_scope_begin() on its thread, arms rules, runs the
// code under test, and calls fault_scope_end(). A rule hits only calls made by the scope's
// threads: the thread that began it and every thread started from them through bk_thread_start
// (pipeline workers, the photo writer). Tests running in parallel in the same process are not
// touched. All functions are thread-safe.
#ifndef BACKDROP_FAULT_INJECTOR_H
#define BACKDROP_FAULT_INJECTOR_H

#ifdef __cplusplus
extern "C" {
#endif

/// Gives the calling thread a new scope (ending any it had). Returns the scope's id (> 0).
int fault_scope_begin(void);

enum { FAULT_ANY_FD = -1, FAULT_FILES = -2 };
/// Removes the scope's rules; the calling thread (and its threads' future calls) are free again.
void fault_scope_end(void);

/// The next `count` calls (-1: every one) of a kind in `calls` (BK_CALL_* bits) in this scope,
/// on `fd` (FAULT_ANY_FD: any; FAULT_FILES: only files and folders, not the eventfds, pipes and
/// devices the same threads use to wake each other) with ioctl request `request` (0: any), after `skip` such calls went
/// through, fail with `error`. Rules are tried in the order armed; a call takes the first that
/// matches and has failures left.
void fault_fail(int calls, int fd, unsigned long request, int error, int skip, int count);
/// Every call of a kind in `calls` in this scope fails once with EINTR, and its repeat on the
/// same thread goes through: each retry loop is entered on every call.
void fault_interrupt_each(int calls);
/// Failures injected in this scope so far (EINTR included).
int fault_injected(void);
/// Calls in this scope that asked so far (failed or not), of the kinds in `calls`.
int fault_calls_seen(int calls);

#ifdef __cplusplus
}
#endif
#endif
