#include "io/artifacts.h"

#include <string.h>
#include <sys/stat.h>

#include "util/alloc.h"
#include "util/text.h"

/* In the order of preference. */
static const char *const exports[] = {SS_ART_RAW, SS_ART_REC};

static bool is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

enum ss_art_export ss_artifact_export(const char *base)
{
	if (strcmp(base, exports[0]) == 0)
		return SS_ART_EXPORT_RAW;
	if (strcmp(base, exports[1]) == 0)
		return SS_ART_EXPORT_REC;
	return SS_ART_NONE;
}

char *ss_artifact_file(const char *dir, bool *nomem)
{
	*nomem = false;
	for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); i++) {
		char *p = ss_path_join(dir, exports[i]);

		if (!p) {
			*nomem = true;
			return NULL;
		}
		if (is_regular_file(p))
			return p;
		ss_free(p);
	}
	return NULL;
}

bool ss_artifact_companion(const char *dir, size_t dl, const char *base)
{
	size_t bl = strlen(base);

	if (strcmp(base, "inputs.json") == 0 || strncmp(base, "profile_export", 14) == 0)
		return true;
	if (bl > 4 && strcmp(base + bl - 4, ".log") == 0 &&
	    ((dl == 4 && memcmp(dir, "logs", 4) == 0) ||
	     (dl > 4 && memcmp(dir + dl - 5, "/logs", 5) == 0)))
		return true;
	return false;
}
