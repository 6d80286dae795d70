#ifndef PINCTL_CLIBARCHIVE_H
#define PINCTL_CLIBARCHIVE_H

// libarchive: the zip archives a build ships (an IPA, an APK). The library is opened on first use (CLibArchive.c),
// not linked: only `config import` of a build and a policy file's `build:` read one.
#include <archive.h>
#include <archive_entry.h>

/// Opens libarchive: NULL when it is ready, else why it cannot be. Call before any other libarchive function.
const char *CLibArchiveOpen(void);

// AE_IFMT and its kin are macros with casts, which Swift does not import.
static inline int CLibArchiveShim_isRegular(struct archive_entry *entry) {
    return (archive_entry_filetype(entry) & AE_IFMT) == AE_IFREG;
}
static inline int CLibArchiveShim_isDirectory(struct archive_entry *entry) {
    return (archive_entry_filetype(entry) & AE_IFMT) == AE_IFDIR;
}

#endif
