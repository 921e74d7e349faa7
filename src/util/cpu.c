#include "util/cpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static enum ss_simd detect(void)
{
	enum ss_simd best = SS_SIMD_GENERIC;
	const char *force = getenv("SPECSCAN_SIMD");

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	__builtin_cpu_init();
	/* Every CPU with AVX2 and BMI2 also has LZCNT (not testable by name
	 * with every compiler). */
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul")) {
		best = SS_SIMD_AVX2;
		if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
			best = __builtin_cpu_supports("avx512vbmi") ? SS_SIMD_AVX512_VBMI
								    : SS_SIMD_AVX512;
	}
#endif
	if (force && strcmp(force, "generic") == 0)
		best = SS_SIMD_GENERIC;
	else if (force && strcmp(force, "avx2") == 0 && best > SS_SIMD_AVX2)
		best = SS_SIMD_AVX2;
	else if (force && strcmp(force, "avx512") == 0 && best > SS_SIMD_AVX512)
		best = SS_SIMD_AVX512;
	return best;
}

/* -1 until detected; every thread that finds it unset stores the same value. */
static atomic_int level = -1;

enum ss_simd ss_simd_level(void)
{
	int l = atomic_load_explicit(&level, memory_order_relaxed);

	if (l < 0) {
		l = (int)detect();
		atomic_store_explicit(&level, l, memory_order_relaxed);
	}
	return (enum ss_simd)l;
}
