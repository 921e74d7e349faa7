# The bootstrap's speed alone (bench/README.md): `make bench/bench_bootstrap`.
EXTRA_PROGRAMS = bench/bench_bootstrap
bench_bench_bootstrap_SOURCES = bench/bench_bootstrap.c
bench_bench_bootstrap_LDADD = libspecscan.la $(SS_LIBS)
CLEANFILES += bench/bench_bootstrap
