/* SPDX-License-Identifier: GPL-2.0 */
/* The non-atomic bit operations of the kernel's <linux/bitops.h> */
#ifndef _SW_SHIM_LINUX_BITOPS_H
#define _SW_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

#define BIT(nr)		(1UL << (nr))
#define BIT_WORD(nr)	((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)	(1UL << ((nr) % BITS_PER_LONG))

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[BIT_WORD(nr)] & BIT_MASK(nr);
}

static inline bool __test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long *p = addr + BIT_WORD(nr);
	unsigned long old = *p;

	*p = old & ~BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

/* The first set bit in [@offset, @size), or @size if none */
static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
					  unsigned long offset)
{
	unsigned long word;

	if (offset >= size)
		return size;
	word = addr[BIT_WORD(offset)] & (~0UL << (offset % BITS_PER_LONG));
	while (!word) {
		offset = (BIT_WORD(offset) + 1) * BITS_PER_LONG;
		if (offset >= size)
			return size;
		word = addr[BIT_WORD(offset)];
	}
	offset = BIT_WORD(offset) * BITS_PER_LONG + __builtin_ctzl(word);
	return offset < size ? offset : size;
}

static inline unsigned int fls_long(unsigned long x)
{
	return x ? BITS_PER_LONG - __builtin_clzl(x) : 0;
}

static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

#endif
