#ifndef PINCTL_CLAZYLIBRARY_H
#define PINCTL_CLAZYLIBRARY_H

// A shared library opened on first use instead of at start. libxml2 (with ICU, zlib and xz) and libpsl (with libidn2
// and libunistring) cost about 2 ms of every start when linked, and only a few commands read XML or the Public
// Suffix List; every other run, `pinctl --version` included, now never maps them.

#include <pthread.h>
#include <stddef.h>

/// One symbol to look up, and where its address goes.
struct lazy_symbol {
    const char *name;
    void **address;
};

struct lazy_library {
    const char *soname;
    const struct lazy_symbol *symbols;
    size_t count;
    pthread_mutex_t lock;
    /// 0 not tried yet, 1 opened with every symbol, 2 failed (`failure` says why). Read without the lock on the fast
    /// path, so written with release and read with acquire ordering.
    int state;
    char failure[512];
};

#define LAZY_LIBRARY(soname, symbols) \
    { (soname), (symbols), sizeof(symbols) / sizeof((symbols)[0]), PTHREAD_MUTEX_INITIALIZER, 0, { 0 } }

/// Opens the library once (later calls return at once) and fills every symbol's address: NULL when that worked, else
/// why not, in words that name the library (the failure is kept: a library that is missing stays missing).
const char *lazy_library_open(struct lazy_library *library);

/// Opens the library, or, when it cannot be opened, says why on stderr and aborts. Only for a call that the caller's
/// own `lazy_library_open` should have preceded: reaching the abort is a bug in pinctl, not a missing library.
void lazy_library_require(struct lazy_library *library);

// Forwarding functions, for a file that lists a library's functions as an X-macro of
//   FUNCTION(result, name, parameters, arguments) and PROCEDURE(name, parameters, arguments) (one returning void),
// and names its `struct lazy_library` `library`. For each function: a pointer, its entry in the symbol table, and a
// definition under the library's own name that opens the library and forwards to it. The parameter lists are the
// library's, and the compiler holds each definition to the library header's declaration. The definitions are hidden,
// so that the executable (linked with --export-dynamic) does not offer them to the library itself.
#define LAZY_POINTER(result, name, parameters, arguments) static __typeof__(&name) name##_in_library;
#define LAZY_POINTER_OF_PROCEDURE(name, parameters, arguments) LAZY_POINTER(void, name, parameters, arguments)
#define LAZY_SYMBOL(result, name, parameters, arguments) { #name, (void **)&name##_in_library },
#define LAZY_SYMBOL_OF_PROCEDURE(name, parameters, arguments) LAZY_SYMBOL(void, name, parameters, arguments)
#define LAZY_FORWARD(result, name, parameters, arguments)                                                          \
    __attribute__((visibility("hidden"))) result name parameters {                                                 \
        lazy_library_require(&library);                                                                            \
        return name##_in_library arguments;                                                                        \
    }
#define LAZY_FORWARD_PROCEDURE(name, parameters, arguments)                                                        \
    __attribute__((visibility("hidden"))) void name parameters {                                                   \
        lazy_library_require(&library);                                                                            \
        name##_in_library arguments;                                                                               \
    }

#endif
