# Test programs that are tools, run by the CLI tests (and by hand):
#   server_tool  the server stage's driver: Prometheus text or JSON server
#                lines in, the window as JSON out (tests/cli/test_server_*.py,
#                bench/scrape.sh)
#   repr_tool    doubles written the way specscan writes them, against
#                Python's repr (tests/cli/test_repr.py)
#   chart_demo   a page with one chart of each kind (test_htmlcheck.py)
#   log_tool     the logs stage's driver until it is part of specscan: log
#                files in, what the readers found as JSON out
#                (tests/cli/test_log_tool.py, bench/README.md)
# Each is built from tests/tools/NAME.c like a unit test.
SS_TEST_TOOLS = tests/tools/server_tool tests/tools/repr_tool tests/tools/chart_demo \
	tests/tools/log_tool
check_PROGRAMS += $(SS_TEST_TOOLS)
