/* archive_lib.c - libarchive opened on first use: see archive_lib.h. */
#define SS_ARCHIVE_LIB_IMPL
#include "io/archive_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct ss_archive_lib ss_archive_lib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_why[200];

/* The name configure found in the library it linked the checks with,
 * then the development link as a last resort. */
static const char *const names[] = {SS_ARCHIVE_SONAME, "libarchive.so"};

static void load(void)
{
	void *h = NULL;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !h; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(load_why, sizeof(load_why), "libarchive (%s) cannot be loaded",
			 SS_ARCHIVE_SONAME);
		return;
	}
	/* dlsym's void * to a function pointer: POSIX allows it, C does not say */
#define SS_ARCHIVE_FIND(name)                                                             \
	{                                                                                 \
		void *sym = dlsym(h, #name);                                              \
		if (!sym) {                                                               \
			snprintf(load_why, sizeof(load_why),                              \
				 "libarchive (%s) lacks %s", SS_ARCHIVE_SONAME, #name);   \
			return;                                                           \
		}                                                                         \
		memcpy(&ss_archive_lib.name, &sym, sizeof(sym));                          \
	}
	SS_ARCHIVE_FUNCTIONS(SS_ARCHIVE_FIND)
#undef SS_ARCHIVE_FIND
	loaded = true;
}

bool ss_archive_lib_load(char *why, size_t why_size)
{
	pthread_once(&load_once, load);
	if (!loaded && why && why_size)
		snprintf(why, why_size, "%s", load_why);
	return loaded;
}
