// CHiredis: the fleet's C edge — hiredis (the Redis client) and zlib (the
// entries' compression), both opened on first use (loader.c says why).
//
// Swift calls hiredis's and zlib's functions by their usual names; the few
// functions below exist because Swift cannot do that part itself: read a
// fixed-size C char array as a string, and ask whether the libraries could
// be loaded at all without stopping the process.
// Nothing else belongs here: everything Swift can do lives in `Redis`.
#ifndef LINKPEEK_CHIREDIS_H
#define LINKPEEK_CHIREDIS_H

#include <hiredis/hiredis.h>
#include <zlib.h>

/// 1 when hiredis is loaded (loading it on the first call), else 0 with
/// dlerror's sentence copied to `why` (at most `size` bytes, NUL-terminated).
int lp_hiredis_load(char *why, int size);

/// 1 when zlib is loaded (loading it on the first call), else 0 with the reason in `why`.
int lp_zlib_load(char *why, int size);

/// The context's error sentence (`errstr` is a char[128], which Swift sees as a tuple).
const char *lp_redis_error(const redisContext *context);

#endif
