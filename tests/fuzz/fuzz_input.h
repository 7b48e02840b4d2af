/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets read their input as a short program: a few header bytes
 * (a machine configuration), then operations, each an opcode byte and its
 * argument bytes. Past the end of the input every read is 0, so any byte
 * string is a valid program.
 */
#ifndef KM_FUZZ_INPUT_H
#define KM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline int fuzz_more(const struct fuzz_in *in)
{
	return in->n > 0;
}

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	uint16_t v = fuzz_u8(in);

	return (uint16_t)(v | (uint16_t)fuzz_u8(in) << 8);
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
	uint32_t v = fuzz_u16(in);

	return v | (uint32_t)fuzz_u16(in) << 16;
}

/* A broken promise of the library: print it and abort, so that libFuzzer
 * keeps the input that shows it. */
#define FUZZ_ASSERT(cond)                                                          \
	do {                                                                       \
		if (!(cond)) {                                                     \
			fprintf(stderr, "%s:%d: promise broken: %s\n", __FILE__, __LINE__, \
				#cond);                                            \
			abort();                                                   \
		}                                                                  \
	} while (0)

#endif
