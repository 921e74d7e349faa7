#include "server/keymap.h"

#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

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

/* The hash key, drawn once: from getrandom(), else from the clock and the pid. */
static uint64_t hkey[2];
static pthread_once_t hkey_once = PTHREAD_ONCE_INIT;

static void hkey_init(void)
{
	struct timespec ts;

	if (getrandom(hkey, sizeof(hkey), GRND_NONBLOCK) == (ssize_t)sizeof(hkey))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	hkey[0] = (uint64_t)ts.tv_nsec * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)getpid();
	hkey[1] = (uint64_t)ts.tv_sec * UINT64_C(0xff51afd7ed558ccd) ^ (uintptr_t)&ts;
}

void ss_keymap_fixed_key_for_tests(void)
{
	pthread_once(&hkey_once, hkey_init);
	hkey[0] = UINT64_C(0x0706050403020100);
	hkey[1] = UINT64_C(0x0f0e0d0c0b0a0908);
}

static bool collide;

void ss_keymap_collide_for_tests(bool on)
{
	collide = on;
}

static inline uint64_t rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

#define SIPROUND(v0, v1, v2, v3)                                                                   \
	do {                                                                                       \
		v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);                          \
		v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                                             \
		v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                                             \
		v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);                          \
	} while (0)

/*
 * SipHash-1-3 (one compression round a word, three to finish): keys are
 * tens of bytes, and an unkeyed hash of label values (which are input)
 * lets an adversary make every key land in one probe run.
 */
uint64_t ss_keymap_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t v0, v1, v2, v3, w, b = (uint64_t)n << 56, h;

	if (collide)
		return 1;
	pthread_once(&hkey_once, hkey_init);
	v0 = hkey[0] ^ UINT64_C(0x736f6d6570736575);
	v1 = hkey[1] ^ UINT64_C(0x646f72616e646f6d);
	v2 = hkey[0] ^ UINT64_C(0x6c7967656e657261);
	v3 = hkey[1] ^ UINT64_C(0x7465646279746573);
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		v3 ^= w;
		SIPROUND(v0, v1, v2, v3);
		v0 ^= w;
	}
	w = 0;
	memcpy(&w, s, n);
	b |= w;
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	h = v0 ^ v1 ^ v2 ^ v3;
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

static inline bool same(const struct ss_keymap *m, const struct ss_keymap_entry *e,
			const void *key, size_t len, uint64_t hash)
{
	/* an empty key may have no arena yet: no pointer arithmetic on NULL */
	return e->hash == hash && e->len == len &&
	       (len == 0 || memcmp(m->arena + e->off, key, len) == 0);
}

bool ss_keymap_find(const struct ss_keymap *m, const void *key, size_t len, uint64_t hash,
		    uint32_t *index)
{
	if (!m->slots)
		return false;
	for (size_t j = hash & (m->nslots - 1); m->slots[j]; j = (j + 1) & (m->nslots - 1)) {
		if (same(m, &m->ent[m->slots[j] - 1], key, len, hash)) {
			*index = m->slots[j] - 1;
			return true;
		}
	}
	return false;
}

bool ss_keymap_put(struct ss_keymap *m, const void *key, size_t len, uint64_t hash,
		   size_t limit, uint32_t *index, bool *added, bool *full)
{
	size_t j;

	*added = *full = false;
	if (!m->slots && !rehash(m, 64))
		return false;
	for (j = hash & (m->nslots - 1); m->slots[j]; j = (j + 1) & (m->nslots - 1)) {
		if (same(m, &m->ent[m->slots[j] - 1], key, len, hash)) {
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
