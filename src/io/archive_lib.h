/*
 * archive_lib.h - libarchive, opened when an input first needs it instead
 * of linked.
 *
 * Linked, libarchive brings its own dependencies (ICU, libxml2, nettle,
 * liblzma, ...) into every process, and the dynamic linker's relocations
 * of them cost about 2.2 M instructions at each start, whether an archive
 * is read or not (1.6% of a 10 MB records run, 7% of a 3 MB raw one).
 * Opened with dlopen() on first use, they cost only the runs that read an
 * archive, an xz/bzip2/lz4/... file, print --version or write the HTML
 * report (which names the library's version).
 *
 * Every file that calls libarchive includes this header instead of
 * <archive.h>: each libarchive function it calls is a macro for the
 * function pointer here, filled by ss_archive_lib_load(). A caller loads
 * the library before its first call (ss_archive_open() does, for every
 * reader); a failed load is a message, not a crash.
 */
#ifndef SS_IO_ARCHIVE_LIB_H
#define SS_IO_ARCHIVE_LIB_H

#include <archive.h>
#include <archive_entry.h>
#include <stdbool.h>
#include <stddef.h>

#define SS_ARCHIVE_FUNCTIONS(X)                                                             \
	X(archive_entry_filetype) X(archive_entry_hardlink) X(archive_entry_pathname)       \
	X(archive_entry_pathname_utf8) X(archive_error_string) X(archive_filter_code)       \
	X(archive_filter_count) X(archive_read_data) X(archive_read_data_block)             \
	X(archive_read_free) X(archive_read_new) X(archive_read_next_header)                \
	X(archive_read_open1) X(archive_read_set_callback_data)                             \
	X(archive_read_set_read_callback) X(archive_read_set_seek_callback)                 \
	X(archive_read_support_filter_all) X(archive_read_support_format_all)              \
	X(archive_read_support_format_raw) X(archive_set_error) X(archive_version_details) \
	X(archive_version_string)

#define SS_ARCHIVE_POINTER(name) __typeof__(name) *name;
struct ss_archive_lib {
	SS_ARCHIVE_FUNCTIONS(SS_ARCHIVE_POINTER)
};
#undef SS_ARCHIVE_POINTER

/* Filled by ss_archive_lib_load(); read only after it returned true. */
extern struct ss_archive_lib ss_archive_lib;

/*
 * Open libarchive and find its functions, once per process (thread-safe;
 * later calls return the first call's verdict). False, with the reason in
 * why (may be NULL), when the library or one of its functions is missing.
 */
bool ss_archive_lib_load(char *why, size_t why_size);

#ifndef SS_ARCHIVE_LIB_IMPL
#define archive_entry_filetype (ss_archive_lib.archive_entry_filetype)
#define archive_entry_hardlink (ss_archive_lib.archive_entry_hardlink)
#define archive_entry_pathname (ss_archive_lib.archive_entry_pathname)
#define archive_entry_pathname_utf8 (ss_archive_lib.archive_entry_pathname_utf8)
#define archive_error_string (ss_archive_lib.archive_error_string)
#define archive_filter_code (ss_archive_lib.archive_filter_code)
#define archive_filter_count (ss_archive_lib.archive_filter_count)
#define archive_read_data (ss_archive_lib.archive_read_data)
#define archive_read_data_block (ss_archive_lib.archive_read_data_block)
#define archive_read_free (ss_archive_lib.archive_read_free)
#define archive_read_new (ss_archive_lib.archive_read_new)
#define archive_read_next_header (ss_archive_lib.archive_read_next_header)
#define archive_read_open1 (ss_archive_lib.archive_read_open1)
#define archive_read_set_callback_data (ss_archive_lib.archive_read_set_callback_data)
#define archive_read_set_read_callback (ss_archive_lib.archive_read_set_read_callback)
#define archive_read_set_seek_callback (ss_archive_lib.archive_read_set_seek_callback)
#define archive_read_support_filter_all (ss_archive_lib.archive_read_support_filter_all)
#define archive_read_support_format_all (ss_archive_lib.archive_read_support_format_all)
#define archive_read_support_format_raw (ss_archive_lib.archive_read_support_format_raw)
#define archive_set_error (ss_archive_lib.archive_set_error)
#define archive_version_details (ss_archive_lib.archive_version_details)
#define archive_version_string (ss_archive_lib.archive_version_string)
#endif

#endif
