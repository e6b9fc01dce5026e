// CInflate: zlib's inflate, for the content codings linkpeek decodes itself
// (gzip, deflate), opened on first use (inflate.c says why).
//
// `inflateInit2` is a C macro, which Swift cannot call; the other functions
// are forwarded under names of their own, so that they never stand in for
// zlib's own symbols (libxml2 and libcurl call those).
// Nothing else belongs here: the decoding itself lives in `Curl`.
#ifndef LINKPEEK_CINFLATE_H
#define LINKPEEK_CINFLATE_H

#include <zlib.h>

/// `inflateInit2(stream, window_bits)`; Z_VERSION_ERROR when zlib cannot be loaded.
int lp_inflate_init(z_stream *stream, int window_bits);
/// `inflate(stream, flush)`.
int lp_inflate(z_stream *stream, int flush);
/// `inflateReset(stream)`: the next gzip member, with the same window bits.
int lp_inflate_reset(z_stream *stream);
/// `inflateEnd(stream)`.
int lp_inflate_end(z_stream *stream);

#endif
