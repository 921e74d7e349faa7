# util: allocation wrapper, growable buffer, messages
libspecscan_la_SOURCES += \
	src/util/alloc.c src/util/alloc.h \
	src/util/buf.c src/util/buf.h \
	src/util/msg.c src/util/msg.h
