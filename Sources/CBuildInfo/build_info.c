// Why C: the commit must reach the binary at build time without a network
// or a SwiftPM plugin. `make` writes it into `commit.h` (git-ignored; only
// rewritten when the commit changes, so only this file recompiles); a
// checkout without git, or a plain `swift build` before any `make`, has no
// such file and says "unknown".
#include "build_info.h"

#if __has_include("commit.h")
#include "commit.h"
#endif

#ifndef LINKPEEK_COMMIT
#define LINKPEEK_COMMIT "unknown"
#endif

const char *linkpeek_build_commit(void) {
    return LINKPEEK_COMMIT;
}
