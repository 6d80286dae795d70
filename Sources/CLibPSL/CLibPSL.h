#ifndef PINCTL_CLIBPSL_H
#define PINCTL_CLIBPSL_H

// libpsl: the Public Suffix List, for TrustKit's rules on pinned domains.
#include <libpsl.h>

static inline int CLibPSLShim_PSL_TYPE_ANY_NO_STAR(void) { return PSL_TYPE_ANY | PSL_TYPE_NO_STAR_RULE; }

#endif
