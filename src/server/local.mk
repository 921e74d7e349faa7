# server stage (SPEC 10): the server's own counters. The exposition-text
# reader (expo.c) and the JSON shapes (server_json*.c) feed snapshots and increments
# to the window (window.c: per-series differences over one hash table,
# keymap.c); the families are a table (families.c); results.c derives each
# family's figures, reusing analysis/positions.c for the shorter-draft table.
libspecscan_la_SOURCES += \
	src/server/families.c src/server/families.h \
	src/server/number.c src/server/number.h \
	src/server/keymap.c src/server/keymap.h \
	src/server/server.h src/server/server_int.h \
	src/server/window.c src/server/procs.c src/server/order.c \
	src/server/results.c \
	src/server/grammar.c src/server/grammar.h \
	src/server/expo.c src/server/expo.h \
	src/server/server_json.c src/server/server_json.h src/server/server_json_int.h \
	src/server/server_json_util.c src/server/server_json_shapes.h \
	src/server/server_json_aiperf.c src/server/server_json_engines.c \
	src/server/server_json_prom.c \
	src/server/feed.c src/server/feed.h \
	src/server/bydir.c src/server/bydir.h \
	src/server/server_log.c src/server/server_log.h
