// dom_floor.cpp - the floor issue 36 is measured against: each line of a
// JSONL file parsed by simdjson's own validating parser (DOM: stage 1, the
// structural index, then stage 2, the tape), nothing read out of it. Run
// under callgrind by bench/floor.sh beside specscan on the same slice.
// Not part of specscan; built by that script only.
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: dom_floor FILE.jsonl\n");
		return 2;
	}
	FILE *f = std::fopen(argv[1], "rb");
	if (!f) {
		std::perror(argv[1]);
		return 1;
	}
	simdjson::dom::parser parser;
	std::vector<char> text;
	char *line = nullptr;
	size_t cap = 0;
	ssize_t n;
	unsigned long ok = 0, bad = 0;

	while ((n = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)n - (line[n - 1] == '\n');
		// padded as simdjson needs, as specscan's framer pads its window
		text.resize(len + simdjson::SIMDJSON_PADDING);
		std::memcpy(text.data(), line, len);
		auto doc = parser.parse(text.data(), len, false);
		if (doc.error())
			bad++;
		else
			ok++;
	}
	std::free(line);
	std::fclose(f);
	std::printf("%lu valid, %lu not\n", ok, bad);
	return 0;
}
