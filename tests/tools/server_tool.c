/*
 * server_tool.c - a test driver of the server stage (SPEC 10) on its own,
 * without the run around it: reads files of Prometheus text (or of 10.1's
 * JSON shapes) and prints the window as JSON, with 10.4's keys, on stdout.
 *
 *   server_tool [OPTION]... FILE...      (- is standard input)
 *
 * Among the files:
 *   --endpoint KEY     the files after it belong to endpoint KEY
 *   --as text|jsonl|document
 *                      the files after it are Prometheus text (the
 *                      default), JSONL lines each fed through
 *                      ss_server_json_shape() and ss_server_json_line()
 *                      (lines of no server shape are counted, not fed), or
 *                      AIPerf's server_metrics_export.json read whole; the
 *                      JSON shapes' endpoint directory is the file's
 *                      directory
 * Options:
 *   --piece N          feed each file in pieces of N bytes (default 65536)
 *   --no-template      parse every line in full
 *   --draft-cost C     7.1's speedups and suggested k on the histogram
 *   --requests E=S,A,D the per-request sums of engine E (reconciliation)
 *   -q                 no messages
 *
 * Numbers: integers as integers, doubles with 17 significant digits (they
 * read back to the same double), absent values null. Exit 0 when every
 * file was read, 1 when one could not be, 3 when out of memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "server/expo.h"
#include "server/server.h"
#include "server/server_json.h"
#include "util/msg.h"

static void put_u128(unsigned __int128 v)
{
	char b[48];
	int i = sizeof(b);

	b[--i] = '\0';
	do {
		b[--i] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	fputs(b + i, stdout);
}

static void put_i128(__int128 v)
{
	if (v < 0) {
		putchar('-');
		put_u128((unsigned __int128)-v);
	} else {
		put_u128((unsigned __int128)v);
	}
}

static void put_double(bool has, double v)
{
	if (has)
		printf("%.17g", v);
	else
		fputs("null", stdout);
}

static void put_time(bool has, int64_t v)
{
	if (has)
		printf("%lld", (long long)v);
	else
		fputs("null", stdout);
}

static void put_bool(bool v)
{
	fputs(v ? "true" : "false", stdout);
}

static void put_intervals(const struct ss_server_family *f)
{
	fputs(", \"intervals\": [", stdout);
	for (size_t i = 0; i < f->nintervals; i++) {
		const struct ss_server_interval *iv = &f->intervals[i];

		printf("%s{\"process\": %u, \"start_ns\": ", i ? ", " : "", iv->process);
		put_time(iv->has_start, iv->start_ns);
		fputs(", \"end_ns\": ", stdout);
		put_time(iv->has_end, iv->end_ns);
		fputs(", \"steps\": ", stdout);
		put_u128(iv->steps);
		if (f->has_draft_tokens) {
			fputs(", \"draft_tokens\": ", stdout);
			put_u128(iv->draft_tokens);
		}
		fputs(", \"accepted_tokens\": ", stdout);
		put_i128(iv->accepted_tokens);
		fputs(", \"acceptance_length\": ", stdout);
		put_double(iv->has_acceptance_length, iv->acceptance_length);
		fputs(", \"draft_acceptance_rate\": ", stdout);
		put_double(iv->has_rate, iv->draft_acceptance_rate);
		putchar('}');
	}
	putchar(']');
}

static void put_positions(const struct ss_server_family *f)
{
	fputs(", \"positions\": [", stdout);
	for (size_t i = 0; i < f->npositions; i++) {
		const struct ss_drafted_row *p = &f->positions[i];

		printf("%s{\"position\": %zu, \"accepted\": ", i ? ", " : "", i + 1);
		put_u128(p->accepted);
		fputs(", \"drafted\": ", stdout);
		put_u128(p->drafted);
		fputs(", \"rate\": ", stdout);
		put_double(p->has_rate, p->rate);
		fputs(", \"conditional\": ", stdout);
		put_double(p->has_conditional, p->conditional);
		putchar('}');
	}
	fputs("], \"consistent\": ", stdout);
	put_bool(f->consistent);
	if (!f->histogram)
		return;
	fputs(", \"histogram\": {", stdout);
	for (size_t j = 0; j <= f->npositions; j++) {
		printf("%s\"%zu\": ", j ? ", " : "", j);
		put_u128(f->histogram[j]);
	}
	fputs("}, \"what_if\": [", stdout);
	for (size_t k = 0; k < f->npositions; k++) {
		printf("%s{\"k\": %zu, \"acceptance_length\": %.17g, \"draft_acceptance_rate\": %.17g",
		       k ? ", " : "", k + 1, f->what_if[k].acceptance_length,
		       f->what_if[k].draft_acceptance_rate);
		if (f->has_cost)
			printf(", \"speedup\": %.17g", f->what_if[k].speedup);
		putchar('}');
	}
	putchar(']');
	if (f->has_cost)
		printf(", \"draft_cost\": %.17g, \"suggested_k\": %u", f->draft_cost, f->suggested_k);
}

static void put_family(const struct ss_server_family *f)
{
	printf("{\"engine\": \"%s\", \"counters\": \"%s\", \"snapshots\": %llu, \"series\": %llu, "
	       "\"resets\": %llu, \"since_start\": ",
	       ss_engine_name(f->row->engine), f->row->counters, (unsigned long long)f->snapshots,
	       (unsigned long long)f->series, (unsigned long long)f->resets);
	put_bool(f->since_start);
	fputs(", \"inexact\": ", stdout);
	put_bool(f->inexact);
	fputs(", \"estimated\": ", stdout);
	put_bool(f->estimated);
	fputs(", \"window\": {\"start_ns\": ", stdout);
	put_time(f->has_start, f->start_ns);
	fputs(", \"end_ns\": ", stdout);
	put_time(f->has_end, f->end_ns);
	fputs("}, \"steps\": ", stdout);
	put_u128(f->steps);
	if (f->has_draft_tokens) {
		fputs(", \"draft_tokens\": ", stdout);
		put_u128(f->draft_tokens);
	}
	fputs(", \"accepted_tokens\": ", stdout);
	put_i128(f->accepted_tokens);
	if (f->has_acceptance_length) {
		fputs(", \"acceptance_length\": ", stdout);
		put_double(true, f->acceptance_length);
	}
	if (f->has_rate) {
		fputs(", \"draft_acceptance_rate\": ", stdout);
		put_double(true, f->draft_acceptance_rate);
	}
	if (f->npositions)
		put_positions(f);
	if (f->ngauges) {
		fputs(", \"gauges\": {", stdout);
		for (size_t g = 0; g < f->ngauges; g++)
			printf("%s\"%s\": %.17g", g ? ", " : "", f->gauges[g].name, f->gauges[g].value);
		putchar('}');
	}
	if (f->nintervals)
		put_intervals(f);
	if (f->has_reconciliation) {
		const struct ss_server_reconciliation *r = &f->reconciliation;

		fputs(", \"reconciliation\": {\"requests\": {\"steps\": ", stdout);
		put_u128(r->steps);
		fputs(", \"accepted\": ", stdout);
		put_u128(r->accepted);
		fputs(", \"drafted\": ", stdout);
		put_u128(r->drafted);
		fputs("}, \"steps_ratio\": ", stdout);
		put_double(r->has_steps_ratio, r->steps_ratio);
		fputs(", \"accepted_ratio\": ", stdout);
		put_double(r->has_accepted_ratio, r->accepted_ratio);
		fputs(", \"steps_off\": ", stdout);
		put_bool(r->steps_off);
		fputs(", \"accepted_off\": ", stdout);
		put_bool(r->accepted_off);
		putchar('}');
	}
	putchar('}');
}

static int read_file(struct ss_server *srv, uint32_t ep, const char *path, size_t piece,
		     bool no_template, bool *first)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct ss_scrape_opts o = {0, no_template};
	struct ss_scrape *sc;
	struct ss_scrape_stats st;
	char *buf;
	size_t n;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "server_tool: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	buf = malloc(piece);
	sc = ss_scrape_new(srv, ep, strcmp(path, "-") ? path : "<stdin>", &o);
	if (!buf || !sc) {
		rc = 3;
		goto out;
	}
	while ((n = fread(buf, 1, piece, f)) > 0)
		if (!ss_scrape_feed(sc, buf, n)) {
			rc = 3;
			goto out;
		}
	if (ferror(f))
		rc = 1;
	if (!ss_scrape_finish(sc))
		rc = 3;
	ss_scrape_get_stats(sc, &st);
	printf("%s{\"name\": \"%s\", \"lines\": %llu, \"samples\": %llu, \"snapshots\": %llu, "
	       "\"bad_lines\": %llu}",
	       *first ? "" : ", ", path, (unsigned long long)st.lines,
	       (unsigned long long)st.samples, (unsigned long long)st.snapshots,
	       (unsigned long long)st.bad_lines);
	*first = false;
out:
	ss_scrape_free(sc);
	free(buf);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* The directory part of a path ("" when it has none), as AIPerf's endpoint key takes it. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

static const char *const shape_names[] = {"none", "aiperf", "iterations", "server_info",
					  "prometheus_api"};

static int read_jsonl(struct ss_server *srv, const char *path, bool *first)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	char *line = NULL, *pad = NULL;
	size_t cap = 0, padcap = 0;
	ssize_t n;
	uint64_t lineno = 0, shapes[5] = {0}, snaps = 0;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "server_tool: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		enum ss_server_shape sh;
		uint64_t got;
		size_t len = (size_t)n;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (len == 0)
			continue;
		if (len + SSJ_PADDING > padcap) {
			char *p = realloc(pad, len + SSJ_PADDING);

			if (!p) {
				rc = 3;
				break;
			}
			pad = p;
			padcap = len + SSJ_PADDING;
		}
		memcpy(pad, line, len);
		memset(pad + len, ' ', SSJ_PADDING);
		sh = ss_server_json_shape(pad, len);
		shapes[sh]++;
		if (sh == SS_SRVJ_NONE)
			continue;
		if (!ss_server_json_line(srv, sh, path, dir_len(path), name, lineno, pad, len, &got)) {
			rc = 3;
			break;
		}
		snaps += got;
	}
	if (ferror(f))
		rc |= 1;
	printf("%s{\"name\": \"%s\", \"lines\": %llu, \"snapshots\": %llu, \"shapes\": {",
	       *first ? "" : ", ", path, (unsigned long long)lineno, (unsigned long long)snaps);
	for (int i = 0; i < 5; i++)
		printf("%s\"%s\": %llu", i ? ", " : "", shape_names[i], (unsigned long long)shapes[i]);
	fputs("}}", stdout);
	*first = false;
	free(line);
	free(pad);
	if (f != stdin)
		fclose(f);
	return rc;
}

static int read_document(struct ss_server *srv, const char *path, bool *first)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	uint64_t snaps = 0;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "server_tool: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		if (len + 65536 + SSJ_PADDING > cap) {
			char *p = realloc(buf, cap = 2 * (len + 65536 + SSJ_PADDING));

			if (!p) {
				rc = 3;
				goto out;
			}
			buf = p;
		}
		n = fread(buf + len, 1, 65536, f);
		if (n == 0)
			break;
		len += n;
	}
	if (ferror(f)) {
		rc = 1;
		goto out;
	}
	memset(buf + len, ' ', SSJ_PADDING);
	if (!ss_server_json_document(srv, path, dir_len(path), path, buf, len, &snaps))
		rc = 3;
	printf("%s{\"name\": \"%s\", \"document_name\": %s, \"snapshots\": %llu}", *first ? "" : ", ",
	       path, ss_server_json_is_document_name(path, strlen(path)) ? "true" : "false",
	       (unsigned long long)snaps);
	*first = false;
out:
	free(buf);
	fclose(f);
	return rc;
}

static bool parse_requests(const char *arg, struct ss_server_requests *req)
{
	char name[32];
	unsigned long long s, a, d;
	const char *eq = strchr(arg, '=');
	enum ss_engine e;

	if (!eq || (size_t)(eq - arg) >= sizeof(name) ||
	    sscanf(eq + 1, "%llu,%llu,%llu", &s, &a, &d) != 3)
		return false;
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	e = ss_engine_from_name(name);
	if (e == SS_ENGINE_NONE)
		return false;
	req[e] = (struct ss_server_requests){true, s, a, d};
	return true;
}

int main(int argc, char **argv)
{
	struct ss_msg msg;
	struct ss_server *srv;
	struct ss_server_requests req[SS_ENGINE_COUNT];
	struct ss_server_results res;
	size_t piece = 65536;
	bool no_template = false, has_cost = false, first = true;
	double cost = 0.0;
	uint32_t ep;
	int rc = 0, i, as = 0;

	memset(req, 0, sizeof(req));
	ss_msg_init(&msg, stderr, SS_NORMAL);
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-q"))
			msg.verbosity = SS_QUIET;
		else if (!strcmp(argv[i], "--no-template"))
			no_template = true;
		else if (!strcmp(argv[i], "--piece") && i + 1 < argc)
			piece = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--draft-cost") && i + 1 < argc)
			has_cost = true, cost = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--requests") && i + 1 < argc && parse_requests(argv[i + 1], req))
			i++;
		else if (!strcmp(argv[i], "--endpoint") || !strcmp(argv[i], "--as"))
			break;
		else {
			fprintf(stderr, "server_tool: bad option '%s'\n", argv[i]);
			return 2;
		}
	}
	if (piece == 0)
		piece = 1;
	srv = ss_server_new(&msg);
	if (!srv)
		return 3;
	ep = ss_server_endpoint(srv, "", 0);
	fputs("{\"inputs\": [", stdout);
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--endpoint") && i + 1 < argc) {
			ep = ss_server_endpoint(srv, argv[i + 1], strlen(argv[i + 1]));
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--as") && i + 1 < argc) {
			i++;
			as = !strcmp(argv[i], "jsonl") ? 1 : !strcmp(argv[i], "document") ? 2 : 0;
			continue;
		}
		if (ep == UINT32_MAX)
			return 3;
		if (as == 1)
			rc |= read_jsonl(srv, argv[i], &first);
		else if (as == 2)
			rc |= read_document(srv, argv[i], &first);
		else
			rc |= read_file(srv, ep, argv[i], piece, no_template, &first);
	}
	if (!ss_server_finish(srv, req, has_cost, cost, &res)) {
		ss_server_free(srv);
		return 3;
	}
	printf("], \"server\": {\"endpoints\": %llu, \"snapshots\": %llu, \"bad_lines\": %llu, "
	       "\"families\": [",
	       (unsigned long long)res.endpoints, (unsigned long long)res.snapshots,
	       (unsigned long long)res.bad_lines);
	for (size_t f = 0; f < res.nfamilies; f++) {
		if (f)
			fputs(", ", stdout);
		put_family(&res.families[f]);
	}
	fputs("]}}\n", stdout);
	ss_server_results_release(&res);
	ss_server_free(srv);
	return rc;
}
