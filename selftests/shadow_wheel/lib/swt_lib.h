/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel selftests: what the library's files share among themselves
 * and do not give the tests.
 */
#ifndef _SWT_LIB_H
#define _SWT_LIB_H

#include "swt.h"

/* sys.c */

/* Record what went wrong, for swt_error() */
void swt_set_error(const char *fmt, ...) __printf(1, 2);

/* A whole file into a buffer to free; 0 or -errno */
int swt_read_file(const char *path, char **out);
/* @len bytes in one write(2); 0 or -errno */
int swt_write_file(const char *path, const char *buf, size_t len);
bool swt_path_exists(const char *path);

/* Which CPUs are online */
void swt_online_mask(bool mask[SWT_MAX_CPUS]);

/* debugfs.c */

/* The path of @rel in the module's debugfs directory */
void swt_debugfs_path(char *path, size_t size, const char *rel);

/* @s after its first word and the blanks that follow it */
const char *swt_skip_word(const char *s);

/* The word after the word @key in @s ("k1 v1 k2 v2 ..."), and its length */
const char *swt_field(const char *s, const char *key, size_t *len);

/* A decimal number of @len characters at @s */
int swt_parse_u64(const char *s, size_t len, u64 *out);

/* A "key value" file: lines split at the first blank, in file order */
struct swt_kv_line {
	const char *key;
	const char *val;
};

struct swt_kv {
	const char *rel;	/* the file, under the debugfs directory */
	char *buf;
	size_t nr;
	struct swt_kv_line *line;
};

int swt_kv_read(struct swt_kv *kv, const char *rel);
void swt_kv_free(struct swt_kv *kv);
/*
 * Read @rel and hand its lines in order to @line until one returns other
 * than 0; that value, or the read's error, is returned
 */
int swt_kv_each(const char *rel, int (*line)(const struct swt_kv *kv, size_t i, void *arg),
		void *arg);

#endif /* _SWT_LIB_H */
