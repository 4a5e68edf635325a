/* SPDX-License-Identifier: GPL-2.0 */
/* The non-atomic bit operations of the kernel's <linux/bitops.h> */
#ifndef _SW_SHIM_LINUX_BITOPS_H
#define _SW_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

#define BIT(nr)		(1UL << (nr))
#define BIT_WORD(nr)	((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)	(1UL << ((nr) % BITS_PER_LONG))

/*
 * __set_bit() and __clear_bit() as x86 has them in the kernel, one bts or
 * btr, so that instruction counts here are the kernel's
 */
static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
#ifdef __x86_64__
	asm volatile("btsq %1,%0" : "+m" (*addr) : "r" (nr) : "memory");
#else
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
#endif
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
#ifdef __x86_64__
	asm volatile("btrq %1,%0" : "+m" (*addr) : "r" (nr) : "memory");
#else
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
#endif
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

/*
 * The last set bit of a word that has one. As x86 has it in the kernel,
 * one bsr: the compiler's builtin leaves a sign extension behind.
 */
static inline unsigned long __fls(unsigned long word)
{
#ifdef __x86_64__
	asm("bsr %1,%0" : "=r" (word) : "rm" (word));
	return word;
#else
	return (BITS_PER_LONG - 1) ^ __builtin_clzl(word);
#endif
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
