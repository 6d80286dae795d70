#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static const char *open_locked(struct lazy_library *library) {
    // RTLD_LOCAL: the library's symbols stay out of the global scope, where pinctl's own forwarding functions of the
    // same names would otherwise meet them.
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(library->failure, sizeof library->failure, "cannot load %s (%s)", library->soname, dlerror());
        return library->failure;
    }
    for (size_t index = 0; index < library->count; index++) {
        void *address = dlsym(handle, library->symbols[index].name);
        if (address == NULL) {
            snprintf(library->failure, sizeof library->failure, "%s has no %s: not the version pinctl was built "
                     "against", library->soname, library->symbols[index].name);
            dlclose(handle);
            return library->failure;
        }
        *library->symbols[index].address = address;
    }
    return NULL;
}

const char *lazy_library_open(struct lazy_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&library->lock);
        state = library->state;
        if (state == 0) {
            state = open_locked(library) == NULL ? 1 : 2;
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    return state == 1 ? NULL : library->failure;
}

void lazy_library_require(struct lazy_library *library) {
    const char *failure = lazy_library_open(library);
    if (failure != NULL) {
        fprintf(stderr, "pinctl: internal error: %s used before it was opened: %s\n", library->soname, failure);
        abort();
    }
}
