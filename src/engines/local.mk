# engines: capture, adapters, and a request to its outcome
libspecscan_la_SOURCES += \
	src/engines/request.c src/engines/request.h src/engines/processor.h \
	src/engines/processor.c src/engines/linewalk.c src/engines/enriched.c \
	src/engines/timing_read.c src/engines/decimal.c src/engines/decimal.h \
	src/engines/metadata.c src/engines/metadata.h \
	src/engines/capture.c src/engines/capture.h \
	src/engines/keyscan.c src/engines/keyscan.h \
	src/engines/payload.c src/engines/payload.h \
	src/engines/adapters.c src/engines/adapters.h src/engines/vllm.c src/engines/trtllm.c \
	src/engines/llamacpp.c src/engines/sglang.c src/engines/records_line.c \
	src/engines/logreq.c src/engines/logreq.h
