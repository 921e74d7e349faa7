# logs stage (SPEC 12): acceptance where it is written down. The line layer
# (logline.c: cleaning, anchors, prefixes, printed numbers) and a reader per
# format: vLLM's interval lines (vllm_log.c), SGLang's decode batch lines
# (sglang_log.c), llama.cpp's per-task blocks (llama_log.c), Spec-Bench's
# and EAGLE's answer lines (harness.c). Below io/ (which detects a log
# input by its anchors), engines/ and server/ (which take what it reads).
libspecscan_la_SOURCES += \
	src/logs/logline.c src/logs/logline.h \
	src/logs/vllm_log.c src/logs/vllm_log.h \
	src/logs/sglang_log.c src/logs/sglang_log.h \
	src/logs/llama_log.c src/logs/llama_log.h \
	src/logs/harness.c src/logs/harness.h

