#include "CLibXML2.h"

#include "CLazyLibrary.h"

// Every libxml2 function pinctl calls, defined here under libxml2's own name to open the library on first use and
// forward to it (CLazyLibrary.h's LAZY_ macros).
#define LIBXML2_CALLS(FUNCTION, PROCEDURE)                                                                          \
    FUNCTION(xmlParserCtxtPtr, xmlNewParserCtxt, (void), ())                                                       \
    PROCEDURE(xmlFreeParserCtxt, (xmlParserCtxtPtr context), (context))                                           \
    FUNCTION(xmlDocPtr, xmlCtxtReadMemory,                                                                         \
             (xmlParserCtxtPtr context, const char *buffer, int size, const char *url, const char *encoding,       \
              int options),                                                                                        \
             (context, buffer, size, url, encoding, options))                                                      \
    PROCEDURE(xmlSetStructuredErrorFunc, (void *context, xmlStructuredErrorFunc handler), (context, handler))     \
    PROCEDURE(xmlStopParser, (xmlParserCtxtPtr context), (context))                                               \
    FUNCTION(xmlDocPtr, xmlNewDoc, (const xmlChar *version), (version))                                            \
    PROCEDURE(xmlFreeDoc, (xmlDocPtr document), (document))                                                        \
    FUNCTION(xmlNodePtr, xmlDocGetRootElement, (const xmlDoc *document), (document))                               \
    FUNCTION(long, xmlGetLineNo, (const xmlNode *node), (node))                                                    \
    FUNCTION(xmlChar *, xmlNodeListGetString, (xmlDocPtr document, const xmlNode *list, int inLine),               \
             (document, list, inLine))                                                                             \
    FUNCTION(xmlNodePtr, xmlNewDocNode,                                                                            \
             (xmlDocPtr document, xmlNsPtr ns, const xmlChar *name, const xmlChar *content),                       \
             (document, ns, name, content))                                                                        \
    FUNCTION(xmlAttrPtr, xmlNewProp, (xmlNodePtr node, const xmlChar *name, const xmlChar *value),                 \
             (node, name, value))                                                                                  \
    FUNCTION(xmlNodePtr, xmlNewDocText, (const xmlDoc *document, const xmlChar *content), (document, content))    \
    FUNCTION(xmlNodePtr, xmlNewDocComment, (xmlDocPtr document, const xmlChar *content), (document, content))     \
    FUNCTION(xmlNodePtr, xmlAddChild, (xmlNodePtr parent, xmlNodePtr child), (parent, child))                      \
    PROCEDURE(xmlDocDumpFormatMemoryEnc,                                                                           \
              (xmlDocPtr document, xmlChar **text, int *length, const char *encoding, int format),                 \
              (document, text, length, encoding, format))

LIBXML2_CALLS(LAZY_POINTER, LAZY_POINTER_OF_PROCEDURE)
// xmlFree is a variable holding libxml2's deallocator: its address is looked up, and it is read at each call.
static xmlFreeFunc *xmlFree_in_library;

static const struct lazy_symbol symbols[] = {
    LIBXML2_CALLS(LAZY_SYMBOL, LAZY_SYMBOL_OF_PROCEDURE)
    { "xmlFree", (void **)&xmlFree_in_library },
};

// The soname of libxml2 2.x: the name its run-time package installs for programs to open.
static struct lazy_library library = LAZY_LIBRARY("libxml2.so.2", symbols);

const char *CLibXML2Open(void) { return lazy_library_open(&library); }

void CLibXML2Free(void *pointer) {
    lazy_library_require(&library);
    (*xmlFree_in_library)(pointer);
}

LIBXML2_CALLS(LAZY_FORWARD, LAZY_FORWARD_PROCEDURE)
