#include "CBuildInfo.h"

// Only this file sees the generated values, so a new revision recompiles one C file and relinks;
// no module interface changes.
#if __has_include("build-info.inc")
#include "build-info.inc"
#endif
#ifndef BK_BUILD_REVISION
#define BK_BUILD_REVISION "unknown"
#endif
#ifndef BK_BUILD_DATE
#define BK_BUILD_DATE "unknown"
#endif

const char *bk_build_revision(void) { return BK_BUILD_REVISION; }
const char *bk_build_date(void) { return BK_BUILD_DATE; }
