#ifndef PINCTL_CJANSSON_H
#define PINCTL_CJANSSON_H

// Jansson: TrustKit configurations written as JSON, read with the line and column of any error (Foundation's
// JSONDecoder on Linux reports none).
#include <jansson.h>

// json_decref is an inline function with a macro-free body Swift can call, but json_typeof is a macro.
static inline json_type CJanssonShim_typeof(const json_t *value) { return json_typeof(value); }

#endif
