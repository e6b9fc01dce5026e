// Private to CHiredis: hiredis and zlib are loaded on first use (see loader.c).
#ifndef LINKPEEK_CHIREDIS_LOADER_H
#define LINKPEEK_CHIREDIS_LOADER_H

/// The address of `name` in hiredis (`zlib` 0) or zlib (`zlib` 1), or NULL
/// when the library or the symbol is missing.
void *lp_fleet_symbol(int zlib, const char *name);

#endif
