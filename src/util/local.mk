# util: allocation wrapper, growable arrays and buffer, messages, CPU level,
# small string helpers, the UTF-8 decoder, the terminal escaping
libspecscan_la_SOURCES += \
	src/util/alloc.c src/util/alloc.h \
	src/util/buf.c src/util/buf.h \
	src/util/cpu.c src/util/cpu.h \
	src/util/grow.c src/util/grow.h \
	src/util/msg.c src/util/msg.h \
	src/util/termesc.c src/util/termesc.h \
	src/util/ratio.c src/util/ratio.h \
	src/util/text.c src/util/text.h \
	src/util/utf8.h \
	src/util/memplan.c src/util/memplan.h \
	src/util/fileid.c src/util/fileid.h \
	src/util/stdfds.c src/util/stdfds.h
