#include "CLibArchive.h"

#include "CLazyLibrary.h"

// Every libarchive function pinctl calls, defined here under libarchive's own name to open the library on first use
// and forward to it (CLazyLibrary.h's LAZY_ macros).
#define LIBARCHIVE_CALLS(FUNCTION, PROCEDURE)                                                                       \
    FUNCTION(struct archive *, archive_read_new, (void), ())                                                       \
    FUNCTION(int, archive_read_support_format_zip, (struct archive *archive), (archive))                           \
    FUNCTION(int, archive_read_open_memory, (struct archive *archive, const void *bytes, size_t size),             \
             (archive, bytes, size))                                                                               \
    FUNCTION(int, archive_read_next_header, (struct archive *archive, struct archive_entry **entry),               \
             (archive, entry))                                                                                     \
    FUNCTION(la_ssize_t, archive_read_data, (struct archive *archive, void *buffer, size_t size),                  \
             (archive, buffer, size))                                                                              \
    FUNCTION(int, archive_read_data_skip, (struct archive *archive), (archive))                                    \
    FUNCTION(const char *, archive_error_string, (struct archive *archive), (archive))                             \
    FUNCTION(int, archive_read_free, (struct archive *archive), (archive))                                         \
    FUNCTION(const char *, archive_entry_pathname_utf8, (struct archive_entry *entry), (entry))                    \
    FUNCTION(const char *, archive_entry_pathname, (struct archive_entry *entry), (entry))                         \
    FUNCTION(la_int64_t, archive_entry_size, (struct archive_entry *entry), (entry))                               \
    FUNCTION(int, archive_entry_size_is_set, (struct archive_entry *entry), (entry))                               \
    FUNCTION(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *entry), (entry))

LIBARCHIVE_CALLS(LAZY_POINTER, LAZY_POINTER_OF_PROCEDURE)

static const struct lazy_symbol symbols[] = { LIBARCHIVE_CALLS(LAZY_SYMBOL, LAZY_SYMBOL_OF_PROCEDURE) };

// The soname of libarchive 3.x: the name its run-time package (libarchive13) installs for programs to open.
static struct lazy_library library = LAZY_LIBRARY("libarchive.so.13", symbols);

const char *CLibArchiveOpen(void) { return lazy_library_open(&library); }

LIBARCHIVE_CALLS(LAZY_FORWARD, LAZY_FORWARD_PROCEDURE)
