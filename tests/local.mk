# Whole-program tests: Python 3 scripts (standard library only) that run the
# built ./specscan on the fixtures of testdata/ and on compressed/archived
# variants built at test time.  Each script exits non-zero on failure, 77
# to skip, 99 on a hard error (automake's default test driver).
CLI_TESTS = \
	tests/cli/test_fixtures.py \
	tests/cli/test_manpage.py \
	tests/cli/test_exit_codes.py \
	tests/cli/test_sample.py \
	tests/cli/test_engines.py \
	tests/cli/test_outputs.py \
	tests/cli/test_artifacts.py \
	tests/cli/test_compressed.py \
	tests/cli/test_edges.py \
	tests/cli/test_accounting.py \
	tests/cli/test_determinism.py \
	tests/cli/test_htmlcheck.py \
	tests/cli/test_html.py \
	tests/cli/test_progress.py \
	tests/cli/test_hints.py \
	tests/cli/test_analysis.py \
	tests/cli/test_windows_outliers.py \
	tests/cli/test_context.py \
	tests/cli/test_prefilter.py \
	tests/cli/test_records_parts.py \
	tests/cli/test_json_faults.py \
	tests/cli/test_slurm.py \
	tests/cli/test_shard.py \
	tests/cli/test_acceptance_profile.py

TESTS += $(CLI_TESTS)

# The include graph of src/ runs downward through the stages, with no cycle.
TESTS += tests/check_includes.py
EXTRA_DIST += tests/check_includes.py
# Rooms small enough to read: files, functions, headers that say what they are.
TESTS += tests/check_sizes.py
EXTRA_DIST += tests/check_sizes.py
TEST_EXTENSIONS = .py
PY_LOG_COMPILER = $(PYTHON3)
AM_PY_LOG_FLAGS = -B
PYTHON3 = python3

# Where the tests find the binary and the fixtures (out-of-tree builds too).
AM_TESTS_ENVIRONMENT = \
	SPECSCAN='$(abs_top_builddir)/specscan'; \
	SRCDIR='$(abs_top_srcdir)'; \
	export SPECSCAN SRCDIR;

# The scripts need the binary built first.
$(CLI_TESTS:.py=.log): specscan$(EXEEXT)

EXTRA_DIST += tests/cli/sslib.py tests/cli/htmlcheck.py $(CLI_TESTS) testdata/make_fixtures.py
