// libxml2's headers, for HTMLHead only.
//
// xmlversion.h turns on LIBXML_ICU_ENABLED, and encoding.h then includes the
// system's ICU headers. Swift's Foundation carries its own ICU module whose
// `UErrorCode` differs, and a module that sees both (any test target
// importing Foundation alongside HTMLHead) fails to build. linkpeek never
// touches libxml2's ICU converter (the scanner hands libxml2 UTF-8 only), so
// the ICU part of the headers is left out. The one struct it changes,
// xmlCharEncodingHandler, is only ever used through pointers here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <libxml/parserInternals.h>
