// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: reading the kernel's timer events from a trace.dat written by
 * trace-cmd (file versions 6 and 7), with libtracecmd and libtraceevent.
 * Fields are read by name from the formats the file carries, so 6.1's
 * timer_start (timer, function, expires, now, flags) and that of 6.8 on
 * (the same and bucket_expiry) both work; timer_cancel has the timer alone,
 * timer_expire_entry the timer, now, function and baseclk.
 *
 * The CPU's own events, where the trace has them: irq:softirq_entry and
 * softirq_exit of TIMER_SOFTIRQ (vec 1; other vectors are skipped), and
 * its idle, from 6.12's timer:timer_base_idle (is_idle, cpu) when the
 * trace has that event, else from power:cpu_idle (state, cpu_id; the
 * state 4294967295, PWR_EVENT_EXIT, is the exit). timer_base_idle says
 * when the base, and so the tick, stops (get_next_timer_interrupt() found
 * the next event more than a tick away); cpu_idle only that the CPU
 * entered an idle state, with its tick perhaps still running.
 *
 * The libraries parse a file they trust. To turn a corrupt file into an
 * error rather than a crash of the tool, the reading runs in a child
 * process that sends what it read through a pipe: the events, the names
 * of the timer functions, then a summary; the parent takes a child that
 * dies, or sends less than it said, as a corrupt file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "sw_replay_trace.h"

/* What the child sends, each message a tag and its body */
enum { SW_MSG_EV = 'E', SW_MSG_NAME = 'N', SW_MSG_END = 'Z', SW_MSG_ERR = 'X' };

struct sw_msg_end {
	u64	nr;
	u64	other;
	u32	has_softirq;
	u32	has_idle;
	s64		missed;
	u32	nr_cpus;
};

/*
 * The pipe's stdio buffer at each end: a million events are 56 MB, in
 * writes and reads of this size rather than of BUFSIZ
 */
#define SW_PIPE_BUF	(1024 * 1024)

/* The names sent already, so that each goes once */
#define SW_MAX_NAMES	4096

struct sw_reader {
	FILE			*out;
	struct tep_handle	*tep;
	int			id[3];
	struct tep_format_field	*timer[3], *fn[3], *now[3];
	struct tep_format_field	*expires, *flags, *bucket, *baseclk;
	int			sirq_id[2], idle_id, base_idle_id, hrtimer_id;
	struct tep_format_field	*vec[2], *state, *cpu_id, *is_idle, *idle_cpu;
	struct tep_format_field	*hrtimer_fn, *hrtimer_now;
	bool			native;	/* the file's byte order is ours */
	u64		nr, other;
	long long		missed;
	u64		named[SW_MAX_NAMES];
	size_t			nr_named;
};

static const char * const sw_event_names[3] = {
	[SW_EV_START]	= "timer_start",
	[SW_EV_CANCEL]	= "timer_cancel",
	[SW_EV_EXPIRE]	= "timer_expire_entry",
};

static void sw_child_fail(FILE *out, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputc(SW_MSG_ERR, out);
	fwrite(msg, 1, strlen(msg) + 1, out);
	fflush(out);
	_exit(1);
}

static u64 sw_field(struct sw_reader *r, struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;
	const void *p;

	if (!f)
		return 0;
	/*
	 * In the file's byte order when it is ours, inside the record: the
	 * number read where it lies, as tep_read_number_field() would, without
	 * its calls
	 */
	if (r->native && f->offset >= 0 && f->offset + f->size <= rec->size) {
		p = (const char *)rec->data + f->offset;
		switch (f->size) {
		case 8: {
			u64 x;

			memcpy(&x, p, 8);
			return x;
		}
		case 4: {
			u32 x;

			memcpy(&x, p, 4);
			return x;
		}
		case 2: {
			u16 x;

			memcpy(&x, p, 2);
			return x;
		}
		case 1:
			return *(const u8 *)p;
		}
	}
	if (tep_read_number_field(f, rec->data, &v))
		sw_child_fail(r->out, "a record too short for its field %s", f->name);
	return v;
}

/*
 * An event to the parent: the tag and the event in one write to the
 * buffer, unlocked (the child has one thread)
 */
static void sw_send_ev(struct sw_reader *r, const struct sw_replay_ev *ev)
{
	char msg[1 + sizeof(*ev)];

	msg[0] = SW_MSG_EV;
	memcpy(msg + 1, ev, sizeof(*ev));
	fwrite_unlocked(msg, sizeof(msg), 1, r->out);
}

/*
 * An hrtimer_expire_entry: the CPU's tick if its function is the tick's
 * (tick_sched_timer to 6.11, tick_nohz_handler since), with the time it
 * ran at (its now, the hrtimer base's clock, ns) in @ev->kclk
 */
static int sw_replay_tick_record(struct sw_reader *r, struct tep_record *rec,
				 struct sw_replay_ev *ev)
{
	const char *name = tep_find_function(r->tep, sw_field(r, r->hrtimer_fn, rec));

	if (!name || (strcmp(name, "tick_sched_timer") && strcmp(name, "tick_nohz_handler")))
		return -1;
	ev->kclk = sw_field(r, r->hrtimer_now, rec);
	return SW_EV_TICK;
}

/* A record of the CPU's own events: its type, or -1 to skip it */
static int sw_replay_cpu_record(struct sw_reader *r, struct tep_record *rec, int type,
				struct sw_replay_ev *ev)
{
	unsigned int i;

	if (type == r->hrtimer_id)
		return sw_replay_tick_record(r, rec, ev);
	for (i = 0; i < 2; i++) {
		if (type == r->sirq_id[i])
			return sw_field(r, r->vec[i], rec) == 1 ? SW_EV_SOFTIRQ_ENTRY + i : -1;
	}
	if (type == r->base_idle_id) {
		ev->cpu = sw_field(r, r->idle_cpu, rec);
		ev->have |= SW_RE_BASE_IDLE;
		return sw_field(r, r->is_idle, rec) ? SW_EV_IDLE_ENTER : SW_EV_IDLE_EXIT;
	}
	if (type == r->idle_id) {
		ev->cpu = sw_field(r, r->cpu_id, rec);
		return sw_field(r, r->state, rec) == 0xffffffffULL ? SW_EV_IDLE_EXIT :
								     SW_EV_IDLE_ENTER;
	}
	return -1;
}

static void sw_send_name(struct sw_reader *r, u64 fn)
{
	struct sw_replay_name n = { .fn = fn };
	const char *name;
	size_t i;

	for (i = 0; i < r->nr_named; i++) {
		if (r->named[i] == fn)
			return;
	}
	if (r->nr_named == SW_MAX_NAMES)
		return;
	r->named[r->nr_named++] = fn;
	name = tep_find_function(r->tep, fn);
	if (!name)
		return;
	snprintf(n.name, sizeof(n.name), "%s", name);
	fputc(SW_MSG_NAME, r->out);
	fwrite(&n, sizeof(n), 1, r->out);
}

static int sw_child_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu,
			   void *data)
{
	struct sw_reader *r = data;
	struct sw_replay_ev ev = { .ts = rec->ts, .cpu = rec->cpu };
	int type = tep_data_type(r->tep, rec), t;

	if (rec->missed_events)
		r->missed = rec->missed_events < 0 || r->missed < 0 ? -1 :
			    r->missed + rec->missed_events;
	for (t = 0; t < 3; t++) {
		if (r->id[t] >= 0 && type == r->id[t])
			break;
	}
	if (t == 3) {
		t = type >= 0 ? sw_replay_cpu_record(r, rec, type, &ev) : -1;
		if (t < 0) {
			r->other++;
			return 0;
		}
		ev.type = t;
		sw_send_ev(r, &ev);
		r->nr++;
		return 0;
	}
	if (rec->size <= 0 || !rec->data)
		sw_child_fail(r->out, "an empty %s record", sw_event_names[t]);
	ev.type = t;
	ev.timer = sw_field(r, r->timer[t], rec);
	if (r->fn[t]) {
		ev.fn = sw_field(r, r->fn[t], rec);
		sw_send_name(r, ev.fn);
	}
	if (r->now[t]) {
		ev.now = sw_field(r, r->now[t], rec);
		ev.have |= SW_RE_NOW;
	}
	if (t == SW_EV_START) {
		ev.expires = sw_field(r, r->expires, rec);
		ev.flags = sw_field(r, r->flags, rec);
		ev.have |= SW_EVF_IDX;
		if (r->bucket) {
			ev.kclk = sw_field(r, r->bucket, rec);
			ev.have |= SW_EVF_BUCKET;
		}
	} else if (t == SW_EV_EXPIRE) {
		ev.kclk = sw_field(r, r->baseclk, rec);
	}
	sw_send_ev(r, &ev);
	r->nr++;
	return 0;
}

/* A field the event must have */
static struct tep_format_field *sw_need_field(struct sw_reader *r, struct tep_event *e,
					      const char *name)
{
	struct tep_format_field *f = tep_find_field(e, name);

	if (!f)
		sw_child_fail(r->out, "its %s event has no field %s", e->name, name);
	if (f->size != 4 && f->size != 8)
		sw_child_fail(r->out, "the field %s of %s is %d bytes", name, e->name, f->size);
	return f;
}

/* A field of any integer size the event must have */
static struct tep_format_field *sw_need_int(struct sw_reader *r, struct tep_event *e,
					    const char *name)
{
	struct tep_format_field *f = tep_find_field(e, name);

	if (!f || f->size < 1 || f->size > 8)
		sw_child_fail(r->out, "its %s event has no integer field %s", e->name, name);
	return f;
}

/* The CPU's own events the trace has: their ids and fields */
static void sw_find_cpu_events(struct sw_reader *r)
{
	static const char * const sirq[2] = { "softirq_entry", "softirq_exit" };
	struct tep_event *e;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		e = tep_find_event_by_name(r->tep, "irq", sirq[i]);
		if (!e)
			continue;
		r->sirq_id[i] = e->id;
		r->vec[i] = sw_need_int(r, e, "vec");
	}
	e = tep_find_event_by_name(r->tep, "timer", "hrtimer_expire_entry");
	if (e) {
		r->hrtimer_id = e->id;
		r->hrtimer_fn = sw_need_field(r, e, "function");
		r->hrtimer_now = sw_need_field(r, e, "now");
	}
	e = tep_find_event_by_name(r->tep, "timer", "timer_base_idle");
	if (e) {
		r->base_idle_id = e->id;
		r->is_idle = sw_need_int(r, e, "is_idle");
		r->idle_cpu = sw_need_int(r, e, "cpu");
		return;
	}
	e = tep_find_event_by_name(r->tep, "power", "cpu_idle");
	if (e) {
		r->idle_id = e->id;
		r->state = sw_need_int(r, e, "state");
		r->cpu_id = sw_need_int(r, e, "cpu_id");
	}
}

static void sw_child(const char *path, int fd)
{
	struct sw_reader r = {
		.id = { -1, -1, -1 }, .sirq_id = { -1, -1 }, .idle_id = -1, .base_idle_id = -1,
		.hrtimer_id = -1,
	};
	struct tracecmd_input *handle;
	struct sw_msg_end end = {};
	struct rlimit lim = { 0, 0 };
	int t, found = 0;

	/* A crash here is reported by the parent; no core file */
	setrlimit(RLIMIT_CORE, &lim);
	r.out = fdopen(fd, "w");
	if (!r.out)
		_exit(1);
	setvbuf(r.out, NULL, _IOFBF, SW_PIPE_BUF);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle)
		sw_child_fail(r.out,
			      "not a trace.dat that trace-cmd can read (a truncated or corrupt file?)");
	r.tep = tracecmd_get_tep(handle);
	if (!r.tep)
		sw_child_fail(r.out, "no event formats");
	if (tep_get_long_size(r.tep) != sizeof(long))
		sw_child_fail(r.out,
			      "a trace of a kernel with %d-byte longs: only 64-bit kernels are replayed",
			      tep_get_long_size(r.tep));
	r.native = tep_is_file_bigendian(r.tep) == tep_is_local_bigendian(r.tep);
	for (t = 0; t < 3; t++) {
		struct tep_event *e = tep_find_event_by_name(r.tep, "timer", sw_event_names[t]);

		if (!e)
			continue;
		found++;
		r.id[t] = e->id;
		r.timer[t] = sw_need_field(&r, e, "timer");
		if (t != SW_EV_CANCEL) {
			r.fn[t] = sw_need_field(&r, e, "function");
			r.now[t] = sw_need_field(&r, e, "now");
		}
		if (t == SW_EV_START) {
			r.expires = sw_need_field(&r, e, "expires");
			r.flags = sw_need_field(&r, e, "flags");
			r.bucket = tep_find_field(e, "bucket_expiry");
		} else if (t == SW_EV_EXPIRE) {
			r.baseclk = sw_need_field(&r, e, "baseclk");
		}
	}
	sw_find_cpu_events(&r);
	if (found < 3)
		sw_child_fail(r.out,
			      "the trace lacks timer:timer_start, timer:timer_cancel or timer:timer_expire_entry (record them with -e timer:timer_start -e timer:timer_cancel -e timer:timer_expire_entry)");
	if (tracecmd_iterate_events(handle, NULL, 0, sw_child_record, &r) < 0)
		sw_child_fail(r.out,
			      "its event data cannot be read (a truncated or corrupt file?)");
	end.nr = r.nr;
	end.other = r.other;
	end.has_softirq = r.sirq_id[0] >= 0 && r.sirq_id[1] >= 0;
	end.has_idle = r.idle_id >= 0 || r.base_idle_id >= 0;
	end.missed = r.missed;
	end.nr_cpus = tep_get_cpus(r.tep);
	fputc(SW_MSG_END, r.out);
	fwrite(&end, sizeof(end), 1, r.out);
	if (fflush(r.out))
		_exit(1);
	_exit(0);
}

static int sw_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/**
 * sw_replay_grow - room for one more element in an array grown by doubling
 * @arr:	the array, or NULL
 * @cap:	its capacity, in elements; updated when it grows
 * @nr:		the elements in use: the next one goes at @arr[@nr]
 * @size:	one element's size
 * @first:	the capacity of the first allocation
 *
 * Return: the array, moved or not, or NULL (out of memory) with @arr and
 * @cap as they were.
 */
void *sw_replay_grow(void *arr, size_t *cap, size_t nr, size_t size, size_t first)
{
	size_t n;
	void *p;

	if (nr < *cap)
		return arr;
	n = *cap ? 2 * *cap : first;
	if (n < *cap || n > SIZE_MAX / size)
		return NULL;
	p = realloc(arr, n * size);
	if (p)
		*cap = n;
	return p;
}

/* The parent's side: read the child's messages */
static int sw_parent(FILE *in, struct sw_replay_trace *t, char *err, size_t errlen)
{
	size_t cap_ev = 0, cap_names = 0;
	struct sw_msg_end end;
	void *p;
	int tag;

	/* The parent has one thread too: the stream read unlocked */
	while ((tag = getc_unlocked(in)) != EOF) {
		switch (tag) {
		case SW_MSG_EV:
			p = sw_replay_grow(t->evs, &cap_ev, t->nr, sizeof(*t->evs), 4096);
			if (!p)
				return sw_fail(err, errlen, "out of memory");
			t->evs = p;
			if (fread_unlocked(&t->evs[t->nr], sizeof(*t->evs), 1, in) != 1)
				return sw_fail(err, errlen, "the reader stopped in an event");
			t->nr_ticks += t->evs[t->nr++].type == SW_EV_TICK;
			break;
		case SW_MSG_NAME:
			p = sw_replay_grow(t->names, &cap_names, t->nr_names, sizeof(*t->names),
					   64);
			if (!p)
				return sw_fail(err, errlen, "out of memory");
			t->names = p;
			if (fread(&t->names[t->nr_names], sizeof(*t->names), 1, in) != 1)
				return sw_fail(err, errlen, "the reader stopped in a name");
			t->names[t->nr_names].name[sizeof(t->names->name) - 1] = 0;
			t->nr_names++;
			break;
		case SW_MSG_END:
			if (fread(&end, sizeof(end), 1, in) != 1 || end.nr != t->nr)
				return sw_fail(err, errlen, "the reader's summary is wrong");
			t->other = end.other;
			t->has_softirq = end.has_softirq;
			t->has_idle = end.has_idle;
			t->missed = end.missed;
			t->nr_cpus = end.nr_cpus;
			return 0;
		case SW_MSG_ERR: {
			size_t n = 0;
			int c;

			while ((c = fgetc(in)) != EOF && c && n + 1 < errlen)
				err[n++] = c;
			err[n] = 0;
			return -1;
		}
		default:
			return sw_fail(err, errlen, "the reader sent garbage");
		}
	}
	return sw_fail(err, errlen, "the reader stopped early");
}

/**
 * sw_replay_trace_read - read the timer events of a trace.dat
 * @path:	the file
 * @t:		filled in; sw_replay_trace_free() frees it, also after an error
 * @err:	gets the reason on an error
 * @errlen:	size of @err
 *
 * Return: 0, or -1 with @err saying why.
 */
int sw_replay_trace_read(const char *path, struct sw_replay_trace *t, char *err, size_t errlen)
{
	int pfd[2], status, ret;
	struct stat st;
	pid_t pid;
	FILE *in;

	memset(t, 0, sizeof(*t));
	if (stat(path, &st))
		return sw_fail(err, errlen, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return sw_fail(err, errlen, "not a regular file");
	if (pipe(pfd))
		return sw_fail(err, errlen, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return sw_fail(err, errlen, "fork: %s", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		sw_child(path, pfd[1]);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	if (!in) {
		close(pfd[0]);
		waitpid(pid, &status, 0);
		return sw_fail(err, errlen, "fdopen: %s", strerror(errno));
	}
	setvbuf(in, NULL, _IOFBF, SW_PIPE_BUF);
	ret = sw_parent(in, t, err, errlen);
	fclose(in);
	if (waitpid(pid, &status, 0) < 0)
		return sw_fail(err, errlen, "waitpid: %s", strerror(errno));
	if (WIFSIGNALED(status))
		return sw_fail(err, errlen, "the trace reader died of signal %d: a corrupt file",
			       WTERMSIG(status));
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		return sw_fail(err, errlen, "the trace reader failed");
	return ret;
}

/**
 * sw_replay_trace_fn_name - a timer function's name
 * @t:		the trace
 * @fn:		its address
 *
 * Return: the name from the trace's symbols, or NULL.
 */
const char *sw_replay_trace_fn_name(const struct sw_replay_trace *t, u64 fn)
{
	size_t i;

	for (i = 0; i < t->nr_names; i++) {
		if (t->names[i].fn == fn)
			return t->names[i].name;
	}
	return NULL;
}

void sw_replay_trace_free(struct sw_replay_trace *t)
{
	free(t->evs);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
