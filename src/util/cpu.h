/*
 * cpu.h - the one place that decides which instruction set the vector code
 * uses (the JSON shim's variant, the raw-line key prefilter).
 *
 * The level is the best the CPU runs, lowered by SPECSCAN_SIMD in the
 * environment: "generic" (portable code only), "avx2" (no AVX-512) or
 * "avx512" (no VBMI); any other value changes nothing. It is computed once and may be asked from
 * any thread.
 *
 * Ownership: nothing is handed out but the level, a value.
 */
#ifndef SS_CPU_H
#define SS_CPU_H

enum ss_simd {
	SS_SIMD_GENERIC = 0,
	SS_SIMD_AVX2,     /* AVX2 with BMI1, BMI2 and PCLMUL (Haswell and later) */
	SS_SIMD_AVX512,   /* the above and AVX-512 F and BW */
	SS_SIMD_AVX512_VBMI /* the above and AVX-512 VBMI (byte permutes) */
};

enum ss_simd ss_simd_level(void);

#endif
