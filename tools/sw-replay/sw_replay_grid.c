// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay --sweep GRID: the wheel specs a sweep runs (docs/replay.rst).
 *
 * GRID is a file, one spec per line ("bits=6,shift=2,depth=9,hz=300,clamp",
 * "seed,hz=100"...), "#" starting a comment, blank lines skipped; or, when
 * no file has that name, a range syntax: items apart by "/", the grid being
 * every combination of one choice per item (the cartesian product, the
 * last item varying fastest), each combination the spec of its choices
 * joined by commas:
 *
 *	KEY=CHOICES	a spec parameter (bits, shift, depth, hz): CHOICES
 *			are values and ranges apart by commas, a range
 *			A:B (every value from A to B) or A:B:STEP
 *	WORD,WORD...	a wheel's name or a rule, one of the words: seed,
 *			mainline, classic, clamp, cascade
 *
 * so "bits=5:6/shift=2:3/depth=8/hz=100,250/clamp,cascade" is 16 specs,
 * "seed,mainline,classic" three (at the trace's HZ). The specs are checked
 * by the caller, with the parser: a combination it rejects is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sw_replay_grid.h"

static int sw_grid_add(struct sw_grid *g, const char *spec, size_t len, char *err,
		       size_t err_size)
{
	char *s;

	if (g->nr >= SW_GRID_MAX) {
		snprintf(err, err_size, "more than %d specs", SW_GRID_MAX);
		return -1;
	}
	if (g->nr == g->size) {
		size_t size = g->size ? 2 * g->size : 64;
		char **p = realloc(g->spec, size * sizeof(*p));

		if (!p)
			goto oom;
		g->spec = p;
		g->size = size;
	}
	s = strndup(spec, len);
	if (!s)
		goto oom;
	g->spec[g->nr++] = s;
	return 0;
oom:
	snprintf(err, err_size, "out of memory");
	return -1;
}

/* One spec per line of @f, comments and blank lines skipped */
static int sw_grid_file(FILE *f, struct sw_grid *g, char *err, size_t err_size)
{
	char line[512];
	unsigned int n = 0;

	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e;

		n++;
		e = strchr(s, '#');
		if (e)
			*e = 0;
		e = s + strlen(s);
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		if (e == s)
			continue;
		if (sw_grid_add(g, s, e - s, err, err_size))
			return -1;
	}
	if (!g->nr) {
		snprintf(err, err_size, "no spec in the file (%u lines)", n);
		return -1;
	}
	return 0;
}

/* The choices of one item of the range syntax */
struct sw_grid_item {
	char	**choice;
	size_t	nr;
};

static unsigned long sw_grid_number(const char *s, const char *end, const char *item,
				    char *err, size_t err_size, int *bad)
{
	unsigned long v;
	char *stop;

	errno = 0;
	v = strtoul(s, &stop, 10);
	if (stop != end || s == end || !isdigit((unsigned char)*s) || errno) {
		snprintf(err, err_size, "%s: %.*s: not a number", item, (int)(end - s), s);
		*bad = 1;
	}
	return v;
}

static int sw_grid_choice(struct sw_grid_item *it, const char *s, size_t len)
{
	char **p = realloc(it->choice, (it->nr + 1) * sizeof(*p));

	if (!p)
		return -1;
	it->choice = p;
	p[it->nr] = strndup(s, len);
	return p[it->nr++] ? 0 : -1;
}

/* KEY=V,A:B,A:B:S or WORD,WORD: its choices, each a piece of a spec */
static int sw_grid_item(const char *s, size_t len, struct sw_grid_item *it, char *err,
			size_t err_size)
{
	char item[256], piece[300];
	const char *eq, *c, *end;
	size_t klen;

	snprintf(item, sizeof(item), "%.*s", (int)len, s);
	if (!len) {
		snprintf(err, err_size, "an empty item (between two /)");
		return -1;
	}
	eq = memchr(s, '=', len);
	end = s + len;
	if (!eq) {
		for (c = s; c <= end;) {
			const char *comma = memchr(c, ',', end - c);
			const char *ce = comma ? comma : end;

			if (ce == c || sw_grid_choice(it, c, ce - c)) {
				snprintf(err, err_size, "%s: an empty choice", item);
				return -1;
			}
			c = ce + 1;
		}
		return 0;
	}
	klen = eq - s;
	for (c = eq + 1; c <= end;) {
		const char *comma = memchr(c, ',', end - c);
		const char *ce = comma ? comma : end;
		const char *colon = memchr(c, ':', ce - c);
		unsigned long a, b, step = 1, v;
		int bad = 0;

		if (!colon) {
			a = sw_grid_number(c, ce, item, err, err_size, &bad);
			b = a;
		} else {
			const char *colon2 = memchr(colon + 1, ':', ce - colon - 1);

			a = sw_grid_number(c, colon, item, err, err_size, &bad);
			b = sw_grid_number(colon + 1, colon2 ? colon2 : ce, item, err, err_size,
					   &bad);
			if (colon2)
				step = sw_grid_number(colon2 + 1, ce, item, err, err_size, &bad);
			if (!bad && (b < a || !step)) {
				snprintf(err, err_size, "%s: %.*s: %s", item, (int)(ce - c), c,
					 "a range A:B or A:B:STEP, A <= B, STEP > 0");
				bad = 1;
			}
		}
		if (bad)
			return -1;
		for (v = a; v <= b; v += step) {
			int n = snprintf(piece, sizeof(piece), "%.*s=%lu", (int)klen, s, v);

			if (sw_grid_choice(it, piece, n) || it->nr > SW_GRID_MAX) {
				snprintf(err, err_size, "%s: too many choices", item);
				return -1;
			}
		}
		c = ce + 1;
	}
	return 0;
}

static int sw_grid_ranges(const char *grid, struct sw_grid *g, char *err, size_t err_size)
{
	struct sw_grid_item items[16] = { { 0 } };
	size_t nr = 0, idx[16] = { 0 }, total = 1, i, n;
	const char *s = grid, *end = grid + strlen(grid);
	char spec[1024];
	int ret = -1;

	for (;;) {
		const char *slash = memchr(s, '/', end - s);
		const char *ie = slash ? slash : end;

		if (nr == 16) {
			snprintf(err, err_size, "more than 16 items");
			goto out;
		}
		if (sw_grid_item(s, ie - s, &items[nr], err, err_size))
			goto out;
		total *= items[nr++].nr;
		if (total > SW_GRID_MAX) {
			snprintf(err, err_size, "more than %d specs", SW_GRID_MAX);
			goto out;
		}
		if (!slash)
			break;
		s = slash + 1;
	}
	for (n = 0; n < total; n++) {
		size_t len = 0;

		for (i = 0; i < nr; i++)
			len += snprintf(spec + len, sizeof(spec) - len, "%s%s", i ? "," : "",
					items[i].choice[idx[i]]);
		if (len >= sizeof(spec)) {
			snprintf(err, err_size, "a spec too long");
			goto out;
		}
		if (sw_grid_add(g, spec, len, err, err_size))
			goto out;
		/* The odometer: the last item fastest */
		for (i = nr; i-- > 0;) {
			if (++idx[i] < items[i].nr)
				break;
			idx[i] = 0;
		}
	}
	ret = 0;
out:
	for (i = 0; i < nr + (nr < 16); i++) {
		for (n = 0; n < items[i].nr; n++)
			free(items[i].choice[n]);
		free(items[i].choice);
	}
	return ret;
}

/**
 * sw_grid_expand - the specs of a grid, a file's or the range syntax's
 * @grid:	a file's path, or the range syntax (top of this file)
 * @g:		gets the specs; zeroed by the caller; sw_grid_free() it
 * @err:	on error, what is wrong
 * @err_size:	room at @err
 *
 * Return: 0, or -1.
 */
int sw_grid_expand(const char *grid, struct sw_grid *g, char *err, size_t err_size)
{
	struct stat st;
	FILE *f;
	int ret;

	if (!stat(grid, &st) && S_ISREG(st.st_mode)) {
		f = fopen(grid, "r");
		if (!f) {
			snprintf(err, err_size, "%s: %s", grid, strerror(errno));
			return -1;
		}
		ret = sw_grid_file(f, g, err, err_size);
		fclose(f);
		return ret;
	}
	return sw_grid_ranges(grid, g, err, err_size);
}

void sw_grid_free(struct sw_grid *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		free(g->spec[i]);
	free(g->spec);
	memset(g, 0, sizeof(*g));
}
