/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <asm/checksum.h>: the Internet checksum
 * (RFC 1071) of lib/checksum.c and include/asm-generic/checksum.h. ARM
 * has its own csum_partial() (arch/arm/lib/csumpartial.S), whose 32-bit
 * partial sum may differ from this one; csum_fold() of either is the same
 * 16-bit ones' complement checksum.
 */
#ifndef KM_COMPAT_ASM_CHECKSUM_H
#define KM_COMPAT_ASM_CHECKSUM_H

#include <linux/types.h>

/* custom: a 32-bit load that may alias the bytes (the kernel builds with
 * -fno-strict-aliasing; ported code may not) */
typedef unsigned int __attribute__((may_alias)) km_csum_u32;
typedef unsigned short __attribute__((may_alias)) km_csum_u16;

/* duplicate (lib/checksum.c do_csum(), from32to16(), km_-prefixed here;
 * torvalds/linux 02b5a6031ba7, pre-SPDX v4.x;
 * the generic code of v3.6 too), little-endian, the loads through the
 * aliasing types above */
static inline unsigned short km_from32to16(unsigned int x)
{
	/* add up 16-bit and 16-bit for 16+c bit */
	x = (x & 0xffff) + (x >> 16);
	/* add up carry.. */
	x = (x & 0xffff) + (x >> 16);
	return x;
}

static inline unsigned int km_do_csum(const unsigned char *buff, int len)
{
	int odd;
	unsigned int result = 0;

	if (len <= 0)
		goto out;
	odd = 1 & (unsigned long) buff;
	if (odd) {
		result += (*buff << 8);
		len--;
		buff++;
	}
	if (len >= 2) {
		if (2 & (unsigned long) buff) {
			result += *(const km_csum_u16 *) buff;
			len -= 2;
			buff += 2;
		}
		if (len >= 4) {
			const unsigned char *end = buff + ((unsigned)len & ~3);
			unsigned int carry = 0;
			do {
				unsigned int w = *(const km_csum_u32 *) buff;
				buff += 4;
				result += carry;
				result += w;
				carry = (w > result);
			} while (buff < end);
			result += carry;
			result = (result & 0xffff) + (result >> 16);
		}
		if (len & 2) {
			result += *(const km_csum_u16 *) buff;
			buff += 2;
		}
	}
	if (len & 1)
		result += *buff;
	result = km_from32to16(result);
	if (odd)
		result = ((result >> 8) & 0xff) | ((result & 0xff) << 8);
out:
	return result;
}

/* duplicate (lib/checksum.c): the sum of @len bytes at @buff added to
 * @wsum, a 32-bit partial sum (fold it with csum_fold()) */
static inline __wsum csum_partial(const void *buff, int len, __wsum wsum)
{
	unsigned int sum = (unsigned int)wsum;
	unsigned int result = km_do_csum(buff, len);

	/* add in old sum, and carry.. */
	result += sum;
	if (sum > result)
		result += 1;
	return (__wsum)result;
}

/* duplicate (include/asm-generic/checksum.h, v3.6): fold a 32-bit partial
 * sum to 16 bits and complement it */
static inline __sum16 csum_fold(__wsum csum)
{
	u32 sum = (u32)csum;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__sum16)~sum;
}

#endif
