/*
 * test_outputs.c - the list of report outputs has no fixed size: a dozen
 * outputs (more than the 8 temp-file slots specscan once had, which
 * dropped a ninth without a word) are each written, committed and, on a
 * signal, removed. Expected contents are the texts written by the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/outfile.h"
#include "cli/outputs.h"
#include "util/msg.h"

#define NOUT 12

static char dir[64];
static FILE *devnull;
static struct ss_msg msg;

/* Entries of `dir` (besides . and ..), and how many are temporary files
 * (outfile.c names them ".NAME.XXXXXX"). */
static int count_entries(int *temps)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	*temps = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		if (e->d_name[0] == '.')
			(*temps)++;
	}
	closedir(d);
	return n;
}

static void path_of(char *out, size_t size, int i)
{
	snprintf(out, size, "%s/out%02d", dir, i);
}

static void add_many(struct ss_outputs *l)
{
	ss_outputs_init(l, false, NULL, 0);
	for (int i = 0; i < NOUT; i++) {
		char p[128];

		path_of(p, sizeof(p), i);
		assert_true(ss_outputs_add(l, (enum ss_out_kind)(i % SS_OUT_KINDS), p, &msg));
	}
	assert_int_equal(l->n, NOUT);
}

static void clean_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while ((e = readdir(d))) {
		char p[512];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
}

static void test_many_committed(void **state)
{
	struct ss_outputs l;
	int temps;

	(void)state;
	add_many(&l);
	assert_int_equal(count_entries(&temps), NOUT);
	assert_int_equal(temps, NOUT);
	/* Every records output gets the streamed text, only those. */
	assert_true(ss_outputs_want(&l, SS_OUT_RECORDS));
	assert_true(ss_outputs_write(&l, SS_OUT_RECORDS, "r\n", 2));
	assert_true(ss_outputs_commit(&l, &msg));
	ss_outputs_release(&l);
	assert_int_equal(count_entries(&temps), NOUT);
	assert_int_equal(temps, 0);
	for (int i = 0; i < NOUT; i++) {
		char p[128], text[16] = "";
		FILE *fp;
		size_t n;

		path_of(p, sizeof(p), i);
		fp = fopen(p, "r");
		assert_non_null(fp);
		n = fread(text, 1, sizeof(text) - 1, fp);
		fclose(fp);
		if (i % SS_OUT_KINDS == SS_OUT_RECORDS)
			assert_string_equal(text, "r\n");
		else
			assert_int_equal(n, 0);
	}
	clean_dir();
}

static void test_many_removed_on_signal(void **state)
{
	struct ss_outputs l;
	int temps;

	(void)state;
	add_many(&l);
	assert_int_equal(count_entries(&temps), NOUT);
	/* What the second SIGINT does: every temp file goes, the ninth too. */
	ss_outfile_abort_all_from_signal();
	assert_int_equal(count_entries(&temps), 0);
	ss_outputs_abort(&l);
	assert_int_equal(l.n, 0);
	assert_null(l.head);
}

static void test_abort_removes_all(void **state)
{
	struct ss_outputs l;
	int temps;

	(void)state;
	add_many(&l);
	ss_outputs_abort(&l);
	assert_int_equal(count_entries(&temps), 0);
	/* Nothing is left chained for the signal handler either. */
	ss_outfile_abort_all_from_signal();
}

static void test_refused_add_leaves_list(void **state)
{
	struct ss_outputs l;
	struct ss_msg m;
	char p[128], *said = NULL;
	size_t saidlen = 0;
	FILE *fp, *err;
	int temps;

	(void)state;
	path_of(p, sizeof(p), 99);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fclose(fp);
	add_many(&l);
	/* An existing file without --force: a message and an error, no entry. */
	err = open_memstream(&said, &saidlen);
	assert_non_null(err);
	ss_msg_init(&m, err, SS_NORMAL);
	assert_false(ss_outputs_add(&l, SS_OUT_JSON, p, &m));
	fclose(err);
	assert_non_null(strstr(said, "refusing to overwrite"));
	free(said);
	assert_int_equal(l.n, NOUT);
	ss_outputs_abort(&l);
	assert_int_equal(count_entries(&temps), 1);
	clean_dir();
}

static void test_dir_names(void **state)
{
	struct ss_outputs l;
	char sub[128], p[256];

	(void)state;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ss_outputs_init(&l, false, NULL, 0);
	assert_true(ss_outputs_add_dir(&l, sub, &msg));
	assert_int_equal(l.n, 4);
	assert_true(ss_outputs_commit(&l, &msg));
	ss_outputs_release(&l);
	snprintf(p, sizeof(p), "%s/spec_decode.json", sub);
	assert_int_equal(access(p, F_OK), 0);
	unlink(p);
	snprintf(p, sizeof(p), "%s/spec_decode.csv", sub);
	assert_int_equal(access(p, F_OK), 0);
	unlink(p);
	snprintf(p, sizeof(p), "%s/spec_decode_records.jsonl", sub);
	assert_int_equal(access(p, F_OK), 0);
	unlink(p);
	snprintf(p, sizeof(p), "%s/spec_decode.html", sub);
	assert_int_equal(access(p, F_OK), 0);
	unlink(p);
	assert_int_equal(rmdir(sub), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ss-outputs-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	devnull = fopen("/dev/null", "w");
	ss_msg_init(&msg, devnull, SS_NORMAL);
	return devnull ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	clean_dir();
	rmdir(dir);
	fclose(devnull);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_committed),
		cmocka_unit_test(test_many_removed_on_signal),
		cmocka_unit_test(test_abort_removes_all),
		cmocka_unit_test(test_refused_add_leaves_list),
		cmocka_unit_test(test_dir_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
