#ifndef LINKPEEK_BUILD_INFO_H
#define LINKPEEK_BUILD_INFO_H

/// The git commit this binary was built from (12 hex digits, "-dirty" when
/// the checkout had uncommitted changes), or "unknown".
const char *linkpeek_build_commit(void);

#endif
