#ifndef PINCTL_CLIBYAML_H
#define PINCTL_CLIBYAML_H

// libyaml: pinctl.yaml read through the event API (aliases stay aliases, never expanded) and `config import`'s
// entries written by its emitter.
#include <yaml.h>

#endif
