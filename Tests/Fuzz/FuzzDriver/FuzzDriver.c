// A C target needs a source file; the declaration in include/FuzzDriver.h is all it holds.
#include "FuzzDriver.h"
