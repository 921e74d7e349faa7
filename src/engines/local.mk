# engines: capture, adapters and the neutral record
libspecscan_la_SOURCES += \
	src/engines/record.c src/engines/record.h \
	src/engines/request.h
