#include "util/text.h"

#include "util/alloc.h"

/* A `sep` of '\0' joins with nothing between. */
char *ss_join(const char *a, char sep, const char *b)
{
	size_t al = strlen(a), bl = strlen(b), sl = sep != '\0';
	char *p = ss_malloc(al + sl + bl + 1);

	if (!p)
		return NULL;
	memcpy(p, a, al);
	if (sl)
		p[al] = sep;
	memcpy(p + al + sl, b, bl + 1);
	return p;
}

char *ss_path_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	return ss_join(dir, dl > 0 && dir[dl - 1] != '/' ? '/' : '\0', name);
}

const char *ss_name_dir(const char *name, size_t n, size_t *keep)
{
	size_t slash = n, colon = n;

	for (size_t i = n; i-- > 0;)
		if (name[i] == '/') {
			slash = i;
			break;
		}
	for (size_t i = n; i-- > 0 && (slash == n || i > slash);)
		if (name[i] == ':') {
			colon = i;
			break;
		}
	if (colon != n) {
		*keep = colon;   /* ARCHIVE:member, the member without a '/' */
		return ":.";
	}
	if (slash != n) {
		*keep = slash ? slash : 1;   /* "/x.jsonl" is in "/" */
		return "";
	}
	*keep = 0;
	return ".";
}
