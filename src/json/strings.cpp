// strings.cpp - JSON strings for both paths of the shim: the escape check
// run once over a whole text, and decoded strings.
//
// Stage 1 (simdjson's, on both paths) finds where every string starts and
// ends and refuses raw control characters in them, but does not look at
// what follows a backslash. escapes_valid() does, over the whole text in
// blocks of 64 bytes: which bytes are escaped follows from the runs of
// backslashes (a run escapes the byte after it when its length is odd),
// worked out with two additions per block as stage 1 itself does, and
// each escaped byte must be one JSON allows. An AIPerf raw line holds a
// backslash every dozen bytes or so (its chunks are JSON inside strings),
// so this must not cost a branch per backslash.
#include "json/shim.h"

namespace SSJ_NS {

namespace {

constexpr uint64_t EVEN_BITS = 0x5555555555555555ull;
constexpr uint64_t ODD_BITS = ~EVEN_BITS;

// The bytes that may follow a backslash, \u aside (it needs its digits).
struct escape_table {
	bool ok[256];
	constexpr escape_table() : ok()
	{
		for (char c : {'"', '\\', '/', 'b', 'f', 'n', 'r', 't'})
			ok[(unsigned char)c] = true;
	}
};
constexpr escape_table SIMPLE_ESCAPE;

SSJ_HOT bool is_hex(char c)
{
	return is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6;
}

// \u at s[at - 1]: its four hex digits, inside the text.
SSJ_HOT bool u_escape_ok(const char *s, size_t at, size_t n)
{
	return n - at > 4 && is_hex(s[at + 1]) && is_hex(s[at + 2]) && is_hex(s[at + 3]) &&
	       is_hex(s[at + 4]);
}

// One block of 64 bytes (padding readable after the text): bit i of
// `bs` says s[i] is a backslash, of `plain` that it is a backslash or a
// quote (what most escapes are: no closer look needed).
struct block_masks {
	uint64_t bs, plain;
};

SSJ_HOT block_masks masks64(const char *s)
{
#if defined(__AVX2__)
	const __m256i bsl = _mm256_set1_epi8('\\'), q = _mm256_set1_epi8('"');
	__m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s));
	__m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + 32));
	__m256i ba = _mm256_cmpeq_epi8(a, bsl), bb = _mm256_cmpeq_epi8(b, bsl);
	uint64_t bs = (uint32_t)_mm256_movemask_epi8(ba) |
		      (uint64_t)(uint32_t)_mm256_movemask_epi8(bb) << 32;
	uint64_t plain = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(ba, _mm256_cmpeq_epi8(a, q))) |
			 (uint64_t)(uint32_t)_mm256_movemask_epi8(
				 _mm256_or_si256(bb, _mm256_cmpeq_epi8(b, q))) << 32;
	return {bs, plain};
#elif defined(__SSE2__)
	const __m128i bsl = _mm_set1_epi8('\\'), q = _mm_set1_epi8('"');
	uint64_t bs = 0, plain = 0;
	for (int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 16 * k));
		__m128i e = _mm_cmpeq_epi8(v, bsl);
		bs |= (uint64_t)(uint16_t)_mm_movemask_epi8(e) << (16 * k);
		plain |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(e, _mm_cmpeq_epi8(v, q)))
			 << (16 * k);
	}
	return {bs, plain};
#else
	uint64_t bs = 0, plain = 0;
	for (int k = 0; k < 64; k++) {
		bs |= (uint64_t)(s[k] == '\\') << k;
		plain |= (uint64_t)(s[k] == '\\' || s[k] == '"') << k;
	}
	return {bs, plain};
#endif
}

} // namespace

// The bytes escaped in one block of 64 with backslashes `b` (bit i:
// s[i] is one), given *carry (its first byte is escaped by the block
// before), which becomes the next block's.
SSJ_HOT uint64_t escaped_bytes(uint64_t b, uint64_t *carry)
{
	// an escaped backslash escapes nothing; each run of the others
	// starts at its first backslash, at an even or an odd place
	uint64_t bs = b & ~*carry;
	uint64_t runs = bs & (bs << 1);

	if (!runs) {
		// lone backslashes (the usual case): each escapes the next byte
		uint64_t escaped = bs << 1 | *carry;
		*carry = bs >> 63;
		return escaped;
	}
	uint64_t starts = bs & ~(bs << 1);
	uint64_t even_sum = bs + (starts & EVEN_BITS), odd_sum;
	// a run that goes on past the block escapes the next block's first
	// byte when it started at an odd place: the carry out of its sum
	bool odd_out = __builtin_add_overflow(bs, starts & ODD_BITS, &odd_sum);
	// Adding a run's first bit carries through the run to the byte after
	// it; that byte is escaped when the run's length is odd.
	uint64_t escaped = ((even_sum & ~bs) & ODD_BITS) | ((odd_sum & ~bs) & EVEN_BITS) | *carry;
	*carry = odd_out;
	return escaped;
}

// The escaped bytes at pos that need a closer look (`odd`: neither a
// quote nor a backslash), each looked up.
SSJ_HOT bool odd_escapes_ok(const char *s, uint64_t odd, size_t pos, size_t n)
{
	for (; odd; odd &= odd - 1) {
		size_t at = pos + (size_t)__builtin_ctzll(odd);
		char c = s[at];
		if (!SIMPLE_ESCAPE.ok[(unsigned char)c] && (c != 'u' || !u_escape_ok(s, at, n)))
			return false;
	}
	return true;
}

bool escapes_valid(const char *s, size_t n)
{
	uint64_t carry = 0;
	size_t pos = 0;

	for (; n - pos >= 64; pos += 64) {
		block_masks m = masks64(s + pos);

		if (!m.bs && !carry)
			continue;
		uint64_t odd = escaped_bytes(m.bs, &carry) & ~m.plain;
		if (odd && !odd_escapes_ok(s, odd, pos, n))
			return false;
	}
	if (pos < n) {
		uint64_t in = ((uint64_t)1 << (n - pos)) - 1;
		block_masks m = masks64(s + pos);
		uint64_t escaped = escaped_bytes(m.bs & in, &carry);

		if (escaped & ~in)
			return false;  // a backslash that ends the text
		if (!odd_escapes_ok(s, escaped & ~m.plain, pos, n))
			return false;
	}
	return carry == 0;
}

void strings_reset(parser_impl *p)
{
	if (p->sblocks.size() > 1 || p->sblock_cap > STRING_BLOCK) {
		p->sblocks.clear();
		p->sblock_cap = 0;
	}
	p->sblock_used = 0;
}

enum ssj_status decode_string(parser_impl *p, const char *body, size_t n, std::string_view &out)
{
	if (!memchr(body, '\\', n)) {
		out = std::string_view(body, n);
		return SSJ_OK;
	}
	if (p->sblocks.empty() || p->sblock_cap - p->sblock_used < n) {
		size_t cap = n < STRING_BLOCK ? STRING_BLOCK : n;
		p->sblocks.emplace_back(new uint8_t[cap]);
		p->sblock_cap = cap;
		p->sblock_used = 0;
	}
	char *dst = reinterpret_cast<char *>(p->sblocks.back().get()) + p->sblock_used;
	char *end = ss_json_unescape_to(dst, body, n);
	if (!end)
		return SSJ_ESYNTAX;
	p->sblock_used += (size_t)(end - dst);
	out = std::string_view(dst, (size_t)(end - dst));
	return SSJ_OK;
}

} // namespace SSJ_NS
