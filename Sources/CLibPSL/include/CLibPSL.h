#ifndef PINCTL_CLIBPSL_H
#define PINCTL_CLIBPSL_H

// libpsl: the Public Suffix List, for TrustKit's rules on pinned domains. The library is opened on first use
// (CLibPSL.c), not linked.
#include <libpsl.h>

/// Opens libpsl: NULL when it is ready, else why it cannot be. Call before any other libpsl function.
const char *CLibPSLOpen(void);

static inline int CLibPSLShim_PSL_TYPE_ANY_NO_STAR(void) { return PSL_TYPE_ANY | PSL_TYPE_NO_STAR_RULE; }

#endif
