#include "CLibPSL.h"

#include "CLazyLibrary.h"

// Every libpsl function pinctl calls, defined here under libpsl's own name to open the library on first use and
// forward to it (CLazyLibrary.h's LAZY_ macros).
#define LIBPSL_CALLS(FUNCTION, PROCEDURE)                                                                           \
    FUNCTION(psl_ctx_t *, psl_latest, (const char *path), (path))                                                  \
    FUNCTION(const psl_ctx_t *, psl_builtin, (void), ())                                                           \
    PROCEDURE(psl_free, (psl_ctx_t *context), (context))                                                           \
    FUNCTION(int, psl_is_public_suffix2, (const psl_ctx_t *context, const char *domain, int type),                 \
             (context, domain, type))                                                                              \
    FUNCTION(const char *, psl_unregistrable_domain, (const psl_ctx_t *context, const char *domain),               \
             (context, domain))

LIBPSL_CALLS(LAZY_POINTER, LAZY_POINTER_OF_PROCEDURE)

static const struct lazy_symbol symbols[] = { LIBPSL_CALLS(LAZY_SYMBOL, LAZY_SYMBOL_OF_PROCEDURE) };

// The soname of libpsl 0.x: the name its run-time package installs for programs to open.
static struct lazy_library library = LAZY_LIBRARY("libpsl.so.5", symbols);

const char *CLibPSLOpen(void) { return lazy_library_open(&library); }

LIBPSL_CALLS(LAZY_FORWARD, LAZY_FORWARD_PROCEDURE)
