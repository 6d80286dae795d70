#ifndef PINCTL_CLIBXML2_H
#define PINCTL_CLIBXML2_H

// The libxml2 headers pinctl uses to read XML configurations (Android's network_security_config.xml), and a shim
// for what Swift cannot call.

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a global function pointer, not a function.
static inline void CLibXML2Shim_xmlFree(void *pointer) { xmlFree(pointer); }

#endif
