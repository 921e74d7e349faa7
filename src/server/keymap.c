#include "server/keymap.h"

#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

void ss_keymap_init(struct ss_keymap *m)
{
	memset(m, 0, sizeof(*m));
}

void ss_keymap_release(struct ss_keymap *m)
{
	ss_free(m->slots);
	ss_free(m->ent);
	ss_free(m->arena);
	ss_keymap_init(m);
}

static inline uint64_t mix(uint64_t h)
{
	h ^= h >> 32;
	h *= UINT64_C(0xd6e8feb86659fd93);
	h ^= h >> 32;
	return h;
}

/*
 * Eight bytes a step, multiplied in: series texts are tens of bytes and
 * only need to spread over the table, not resist an adversary (a collision
 * costs a compare of the keys, never a wrong answer, except in the reader's
 * 64-bit fingerprints, which README states).
 */
uint64_t ss_keymap_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ (n * UINT64_C(0xff51afd7ed558ccd));
	uint64_t w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * UINT64_C(0x100000001b3);
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * UINT64_C(0x100000001b3);
	}
	h = mix(h);
	return h ? h : 1;
}

static bool rehash(struct ss_keymap *m, size_t nslots)
{
	uint32_t *slots = ss_calloc(nslots, sizeof(*slots));

	if (!slots)
		return false;
	for (size_t i = 0; i < m->n; i++) {
		size_t j = m->ent[i].hash & (nslots - 1);

		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = (uint32_t)i + 1;
	}
	ss_free(m->slots);
	m->slots = slots;
	m->nslots = nslots;
	return true;
}

bool ss_keymap_put(struct ss_keymap *m, const void *key, size_t len, uint64_t hash,
		   size_t limit, uint32_t *index, bool *added, bool *full)
{
	size_t j;

	*added = *full = false;
	if (!m->slots && !rehash(m, 64))
		return false;
	for (j = hash & (m->nslots - 1); m->slots[j]; j = (j + 1) & (m->nslots - 1)) {
		const struct ss_keymap_entry *e = &m->ent[m->slots[j] - 1];

		/* an empty key may have no arena yet: no pointer arithmetic on NULL */
		if (e->hash == hash && e->len == len &&
		    (len == 0 || memcmp(m->arena + e->off, key, len) == 0)) {
			*index = m->slots[j] - 1;
			return true;
		}
	}
	if (m->n >= limit || m->n >= UINT32_MAX - 1) {
		*full = true;
		return false;
	}
	/* Keep the table at most half full: grow it before the key goes in. */
	if (2 * (m->n + 1) > m->nslots) {
		if (!rehash(m, 2 * m->nslots))
			return false;
		for (j = hash & (m->nslots - 1); m->slots[j]; j = (j + 1) & (m->nslots - 1))
			;
	}
	if (!SS_ALLOC_GROW(m->ent, m->n + 1, m->cap))
		return false;
	if (len > SIZE_MAX - m->arena_len ||
	    !SS_ALLOC_GROW(m->arena, m->arena_len + len, m->arena_cap))
		return false;
	if (len)
		memcpy(m->arena + m->arena_len, key, len);
	m->ent[m->n] = (struct ss_keymap_entry){hash, m->arena_len, len};
	m->arena_len += len;
	m->slots[j] = (uint32_t)m->n + 1;
	*index = (uint32_t)m->n++;
	*added = true;
	return true;
}
