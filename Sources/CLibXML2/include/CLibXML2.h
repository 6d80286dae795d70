#ifndef PINCTL_CLIBXML2_H
#define PINCTL_CLIBXML2_H

// The libxml2 headers pinctl uses to read and write XML (Android's network_security_config.xml, TrustKit's plists,
// JUnit reports). The library itself is opened on first use (CLibXML2.c), not linked.

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/// Opens libxml2: NULL when it is ready, else why it cannot be. Call before any other libxml2 function.
const char *CLibXML2Open(void);

/// libxml2's xmlFree, a global function pointer (not a function) that Swift cannot call.
void CLibXML2Free(void *pointer);

#endif
