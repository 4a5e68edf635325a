// SPDX-License-Identifier: GPL-2.0
/*
 * kunit-user: the shadow-wheel KUnit suites, the same sources the kernels
 * build in, run as a user-space program against the same core, so that
 * AddressSanitizer, UndefinedBehaviorSanitizer and valgrind see every
 * memory access the core makes (kunit/user/Makefile builds both kinds,
 * with -ftrivial-auto-var-init=pattern, where a read of uninitialised
 * stack finds garbage instead of the zeroes a gcc 12 kernel provides).
 *
 *	kunit-user [GLOB]	run the cases whose "suite.case" matches GLOB
 *
 * Each run of a case is a child process: a crash fails that run only.
 * Prints KTAP as the kernel does and closes with one line
 * "kunit-user: N passed, N failed", counting each parameter of a
 * parameterised case as kunit.py does; exits non-zero on any failure.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kunit/test.h>

#define SW_UKUNIT_MAX_SUITES	32

struct kunit_resource {
	struct kunit_resource	*next;
	max_align_t		data[];
};

static struct kunit_suite *sw_suites[SW_UKUNIT_MAX_SUITES];
static size_t sw_nr_suites;

void kunit_register_suites(struct kunit_suite **suites, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (sw_nr_suites == SW_UKUNIT_MAX_SUITES) {
			fprintf(stderr, "kunit-user: more than %d suites\n", SW_UKUNIT_MAX_SUITES);
			exit(2);
		}
		sw_suites[sw_nr_suites++] = suites[i];
	}
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	struct kunit_resource *res;

	if (size && n > (SIZE_MAX - sizeof(*res)) / size)
		return NULL;
	res = malloc(sizeof(*res) + n * size);
	if (!res)
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(res->data, 0, n * size);
	res->next = test->resources;
	test->resources = res;
	return res->data;
}

static void sw_free_resources(struct kunit *test)
{
	while (test->resources) {
		struct kunit_resource *res = test->resources;

		test->resources = res->next;
		free(res);
	}
}

void kunit_report(struct kunit *test, bool assert, const char *file, int line,
		  const char *what, const char *values, const char *fmt, ...)
{
	va_list ap;

	test->failed = true;
	printf("        # %s: %s:%d: %s failed: %s\n", test->name, file, line,
	       assert ? "ASSERTION" : "EXPECTATION", what);
	if (*values)
		printf("        #     %s\n", values);
	if (fmt) {
		printf("        #     ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}

void kunit_abort(struct kunit *test)
{
	longjmp(test->abort, 1);
}

/* A child's exit status when its test case failed without crashing */
#define SW_UKUNIT_FAILED	10

static void sw_run_case(struct kunit_suite *suite, struct kunit_case *tc, struct kunit *test)
{
	if (!setjmp(test->abort)) {
		if (!suite->init || !suite->init(test))
			tc->run_case(test);
		else
			test->failed = true;
	}
	if (suite->exit)
		suite->exit(test);
	sw_free_resources(test);
}

/*
 * One run of @tc with @param, in a child process of its own, so that a
 * crash, or a sanitizer or valgrind stopping it, fails that run alone and
 * is reported as such. Return: true if it passed.
 */
static bool sw_run_one(struct kunit_suite *suite, struct kunit_case *tc, void *param)
{
	struct kunit test = { .name = tc->name, .param_value = param };
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("kunit-user: fork");
		exit(2);
	}
	if (!pid) {
		sw_run_case(suite, tc, &test);
		fflush(stdout);
		/* exit(), not _exit(): LeakSanitizer checks the child at exit */
		exit(test.failed ? SW_UKUNIT_FAILED : 0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("kunit-user: waitpid");
		exit(2);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return true;
	if (WIFSIGNALED(status))
		printf("        # %s: crashed: %s\n", tc->name, strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) != SW_UKUNIT_FAILED)
		printf("        # %s: crashed: exit status %d\n", tc->name, WEXITSTATUS(status));
	return false;
}

static bool sw_selected(const char *glob, struct kunit_suite *suite, struct kunit_case *tc)
{
	char name[512];

	snprintf(name, sizeof(name), "%s.%s", suite->name, tc->name);
	return !glob || !fnmatch(glob, name, 0);
}

static unsigned long sw_passed, sw_failed;

static void sw_count(bool ok)
{
	if (ok)
		sw_passed++;
	else
		sw_failed++;
}

/* Every parameter of @tc, as a subtest each; true if all passed */
static bool sw_run_params(struct kunit_suite *suite, struct kunit_case *tc)
{
	char desc[KUNIT_PARAM_DESC_SIZE];
	const void *param = NULL;
	unsigned int p = 0;
	bool all = true;

	printf("        KTAP version 1\n        # Subtest: %s\n", tc->name);
	for (;;) {
		bool ok;

		desc[0] = '\0';
		param = tc->generate_params(param, desc);
		if (!param)
			break;
		ok = sw_run_one(suite, tc, (void *)param);
		printf("        %s %u %s\n", ok ? "ok" : "not ok", ++p, desc);
		sw_count(ok);
		all &= ok;
	}
	printf("        1..%u\n", p);
	return all;
}

/* The cases of @suite that @glob selects; true if all passed */
static bool sw_run_suite(struct kunit_suite *suite, const char *glob)
{
	unsigned int nr_cases = 0, n = 0;
	struct kunit_case *tc;
	bool all = true;

	for (tc = suite->test_cases; tc->run_case; tc++)
		nr_cases += sw_selected(glob, suite, tc);
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", suite->name, nr_cases);
	for (tc = suite->test_cases; tc->run_case; tc++) {
		bool ok;

		if (!sw_selected(glob, suite, tc))
			continue;
		if (tc->generate_params) {
			ok = sw_run_params(suite, tc);
		} else {
			ok = sw_run_one(suite, tc, NULL);
			sw_count(ok);
		}
		printf("    %s %u %s\n", ok ? "ok" : "not ok", ++n, tc->name);
		all &= ok;
	}
	return all;
}

int main(int argc, char **argv)
{
	const char *glob = argc > 1 ? argv[1] : NULL;
	size_t s;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%zu\n", sw_nr_suites);
	for (s = 0; s < sw_nr_suites; s++) {
		bool ok = sw_run_suite(sw_suites[s], glob);

		printf("%s %zu %s\n", ok ? "ok" : "not ok", s + 1, sw_suites[s]->name);
	}
	printf("kunit-user: %lu passed, %lu failed\n", sw_passed, sw_failed);
	return sw_failed ? 1 : 0;
}
