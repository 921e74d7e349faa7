# engines: capture, adapters and the neutral record
libspecscan_la_SOURCES += \
	src/engines/record.c src/engines/record.h \
	src/engines/request.c src/engines/request.h \
	src/engines/capture.c src/engines/capture.h \
	src/engines/payload.c src/engines/payload.h \
	src/engines/adapters.h src/engines/vllm.c src/engines/trtllm.c \
	src/engines/llamacpp.c src/engines/sglang.c src/engines/records_line.c
