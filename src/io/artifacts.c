#include "io/artifacts.h"

#include <dirent.h>
#include <stdlib.h>
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

/* SPEC 10.8: the compression suffixes an export's name may carry, in the order of preference. */
static const char *const zsuffixes[] = {"", ".zst", ".gz", ".xz", ".bz2", ".lz4"};
#define NZ (sizeof(zsuffixes) / sizeof(zsuffixes[0]))

/* Whether base is `name` plus one of the suffixes (the plain name too). */
static bool is_export_name(const char *base, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(base, name, n) != 0)
		return false;
	for (size_t i = 0; i < NZ; i++)
		if (strcmp(base + n, zsuffixes[i]) == 0)
			return true;
	return false;
}

enum ss_art_export ss_artifact_export(const char *base)
{
	if (is_export_name(base, exports[0]))
		return SS_ART_EXPORT_RAW;
	if (is_export_name(base, exports[1]))
		return SS_ART_EXPORT_REC;
	return SS_ART_NONE;
}

/*
 * The path of the first of names[0..n) that is a regular file in dir,
 * each name plain first, then with the suffixes in their order (10.8).
 */
static char *first_file(const char *dir, const char *const *names, size_t n, bool *nomem)
{
	*nomem = false;
	for (size_t i = 0; i < n; i++)
		for (size_t z = 0; z < NZ; z++) {
			char *name = ss_join(names[i], '\0', zsuffixes[z]);
			char *p = name ? ss_path_join(dir, name) : NULL;

			ss_free(name);
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

char *ss_artifact_file(const char *dir, bool *nomem)
{
	return first_file(dir, exports, sizeof(exports) / sizeof(exports[0]), nomem);
}

char *ss_artifact_server_file(const char *dir, bool *nomem)
{
	static const char *const srv[] = {SS_ART_SRV_DOC, SS_ART_SRV_LINES};

	return first_file(dir, srv, sizeof(srv) / sizeof(srv[0]), nomem);
}

int ss_artifact_server_export(const char *base)
{
	return is_export_name(base, SS_ART_SRV_DOC) ? 1 : is_export_name(base, SS_ART_SRV_LINES) ? 2 : 0;
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

/* ---- what a directory that is not one holds ---- */

/* Names looked at, and shown, at most. */
#define DESCRIBE_READ 4096
#define DESCRIBE_SHOW 5

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Where the capture part of a name starts (".jsonl.zst" of "run.jsonl.zst";
 * any compression or archive around), or NULL for a name that holds none.
 * A ".json" counts for the server's exports (SPEC 10.1), not inputs.json.
 */
static const char *capture_tail(const char *name)
{
	/* request and server captures, `/metrics` pages and server logs (10, 12) */
	static const char *const exts[] = {".jsonl", ".ndjson", ".sse", ".json", ".tar",
					   ".tgz", ".zip", ".prom", ".log", ".txt"};

	if (strcmp(name, "inputs.json") == 0 || strncmp(name, "profile_export_aiperf", 21) == 0)
		return NULL;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t l = strlen(exts[i]);

		for (const char *p = strstr(name, exts[i]); p; p = strstr(p + 1, exts[i]))
			if (p > name && (p[l] == '\0' || p[l] == '.'))
				return p;
	}
	return NULL;
}

/* A glob per distinct capture tail ("DIR/" "*.jsonl", ...), DIR without
 * its trailing slashes. */
static void add_globs(struct ss_buf *out, const char *dir, char *const *names, size_t n)
{
	size_t dl = strlen(dir), shown = 0;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	for (size_t i = 0; i < n && shown < DESCRIBE_SHOW; i++) {
		const char *t = capture_tail(names[i]);
		bool seen = false;

		for (size_t j = 0; t && j < i && !seen; j++) {
			const char *u = capture_tail(names[j]);

			seen = u && strcmp(u, t) == 0;
		}
		if (!t || seen)
			continue;
		ss_buf_addf(out, "%s%.*s%s*%s", shown++ ? ", " : "", (int)dl, dir,
			    dl == 1 && dir[0] == '/' ? "" : "/", t);
	}
}

void ss_artifact_describe(const char *dir, struct ss_buf *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, more = 0, subdirs = 0, captures = 0, aggregates = 0;

	if (!d)
		return;
	names = ss_calloc(DESCRIBE_READ, sizeof(*names));
	while (names && (e = readdir(d)) != NULL) {
		char *path, *name;
		struct stat st;
		bool is_dir;

		if (e->d_name[0] == '.')
			continue;
		if (n == DESCRIBE_READ) {
			more++;
			continue;
		}
		path = ss_path_join(dir, e->d_name);
		is_dir = path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		ss_free(path);
		name = ss_malloc(strlen(e->d_name) + 2);
		if (!name)
			break;
		strcpy(name, e->d_name);
		if (is_dir) {
			strcat(name, "/");
			subdirs++;
		} else if (strncmp(name, "profile_export_aiperf", 21) == 0) {
			aggregates++;
		} else if (capture_tail(name)) {
			captures++;
		}
		names[n++] = name;
	}
	closedir(d);
	if (!names)
		return;
	qsort(names, n, sizeof(*names), cmp_names);
	if (n == 0)
		ss_buf_adds(out, "; it is empty");
	else
		ss_buf_adds(out, "; it holds ");
	for (size_t i = 0; i < n && i < DESCRIBE_SHOW; i++) {
		if (i)
			ss_buf_adds(out, ", ");
		ss_buf_adds(out, names[i]);
	}
	if (n + more > DESCRIBE_SHOW)
		ss_buf_addf(out, " and %zu more", n + more - DESCRIBE_SHOW);
	if (subdirs)
		ss_buf_adds(out, "; -r walks its subdirectories for artifact directories");
	if (captures) {
		ss_buf_adds(out, "; pass capture files by name (");
		add_globs(out, dir, names, n);
		ss_buf_adds(out, ")");
	}
	if (aggregates && !captures && !subdirs)
		ss_buf_adds(out, "; AIPerf's aggregates (profile_export_aiperf.*) hold no "
				 "per-request data: specscan needs the run's per-request export, "
				 SS_ART_RAW " or " SS_ART_REC);
	else if (n && !subdirs && !captures)
		ss_buf_adds(out, "; none of them is a capture specscan reads");
	for (size_t i = 0; i < n; i++)
		ss_free(names[i]);
	ss_free(names);
}
