#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <libxml/parserInternals.h>
