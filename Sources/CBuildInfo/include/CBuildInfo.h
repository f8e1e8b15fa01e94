// What a build was made from, for `backdrop --version` and bug reports. The values are baked in
// at build time by scripts/build-info.sh (run by the Makefile and the firmware build), which
// writes build-info.inc beside the C file; a plain `swift build` says "unknown".
#ifndef BACKDROP_CBUILDINFO_H
#define BACKDROP_CBUILDINFO_H

#ifdef __cplusplus
extern "C" {
#endif

/// The git revision (12 hex digits, "-dirty" when tracked files differed from it), or "unknown".
const char *bk_build_revision(void);
/// The build's date, YYYY-MM-DD (UTC; SOURCE_DATE_EPOCH when set), or "unknown".
const char *bk_build_date(void);

#ifdef __cplusplus
}
#endif
#endif
