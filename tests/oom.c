/* SPDX-License-Identifier: Apache-2.0
** oom.c: allocation failure. For N = 1, 2, ... the Nth allocation of a whole lint + fix + report
** of a representative input fails; the library must return an error (never crash), and leave
** nothing allocated. In a normal build this test replaces malloc, calloc, realloc and free for
** the whole process, so libyaml's, PCRE2's and jansson's allocations fail too and every live
** block is counted. Sanitizer builds own malloc; there the library's own hook
** (sl_arena_fail_after) injects the failures and LeakSanitizer checks for leaks. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "util/arena.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifdef SANITIZED
#include <sanitizer/lsan_interface.h>
#else
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static atomic_long live;          /* blocks allocated and not freed */
static atomic_long countdown;     /* fail when it reaches 1; 0 = off */

static int fail_now(void)
{
	long n = atomic_load(&countdown);
	while (n > 0)
		if (atomic_compare_exchange_weak(&countdown, &n, n - 1))
			return n == 1;
	return 0;
}

void *malloc(size_t n)
{
	if (fail_now())
		return NULL;
	void *p = __libc_malloc(n);
	if (p)
		atomic_fetch_add(&live, 1);
	return p;
}

void *calloc(size_t a, size_t b)
{
	if (fail_now())
		return NULL;
	void *p = __libc_calloc(a, b);
	if (p)
		atomic_fetch_add(&live, 1);
	return p;
}

void *realloc(void *q, size_t n)
{
	if (fail_now())
		return NULL;
	void *p = __libc_realloc(q, n);
	if (p && !q)
		atomic_fetch_add(&live, 1);
	else if (!p && q && n == 0)
		atomic_fetch_sub(&live, 1);
	return p;
}

void free(void *p)
{
	if (p)
		atomic_fetch_sub(&live, 1);
	__libc_free(p);
}
#endif

static const char *const INPUT =
	"# a representative file: several kinds, a fix, a suppression, an anchor\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: inference-critical}\n"
	"value: 1000000\n---\n"
	"apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: llm\n"
	"  labels: {gpu: true}\nspec:\n  predictor:\n    priorityClassName: inference-critical\n"
	"    tolerations: &t\n      - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
	"    model:\n      modelFormat: {name: huggingface}\n      resources:\n        requests:\n"
	"          nvidia.com/gpu: 1   # schedlint: ignore[gpu-request-limit-mismatch]\n"
	"  transformer:\n    tolerations: *t\n    containers: [{name: kserve-container, image: t}]\n---\n"
	"apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: embed}\nspec:\n  template:\n"
	"    spec:\n      nodeSelector: {pool: cpu}\n      containers: [{image: e}]\n---\n"
	"a: [broken\n";

/* A file with no looked-up kind: a streamed run frees its tree after pass 1 and parses it again. */
static const char *const RELEASED =
	"apiVersion: apps/v1\nkind: Job\nmetadata: {name: train}\nspec:\n  template:\n    spec:\n"
	"      priorityClassName: inference-critical\n      tolerations: [{key: spot, operator: Exists}]\n"
	"      containers: [{name: t, image: t, resources: {requests: {nvidia.com/gpu: 1}}}]\n---\n"
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\nmetadata: {name: mlserver}\nspec: {replicas: 3}\n";

/* One complete use of the library (streamed: lint only; else lint + fix). Returns the first
** error. */
static bool streamed;

static sl_err use_library(void)
{
	sl_config *cfg = NULL;
	sl_run *run = NULL;
	char *msg = NULL, *buf = NULL;
	size_t len = 0;
	sl_err err = sl_config_new_default(&cfg);
	sl_run_options ro_run = {.version = SL_RUN_OPTIONS_VERSION, .low_memory = streamed, .jobs = 1};
	if (!err)
		err = sl_run_new(cfg, &ro_run, &run, &msg);
	if (!err)
		err = sl_run_add_buffer(run, "oom.yaml", INPUT, strlen(INPUT));
	if (!err)
		err = sl_run_add_buffer(run, "released.yaml", RELEASED, strlen(RELEASED));
	if (!err)
		err = sl_run_lint(run);
	if (!err && !streamed) {
		sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = true};
		err = sl_run_fix(run, &fo, NULL, NULL);
	}
	if (!err) {
		FILE *mem = open_memstream(&buf, &len);
		if (!mem) {
			err = SL_ENOMEM;
		} else {
			sl_output_options ro = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_JSON};
			err = sl_run_write_output(run, &ro, mem);
			if (fclose(mem) != 0 && !err)
				err = SL_ENOMEM;
		}
	}
	free(buf);
	free(msg);
	sl_run_free(run);
	sl_config_free(cfg);
	return err;
}

static void every_allocation_fails_once(void);

Test(oom, every_allocation_fails_once)
{
	streamed = false;
	every_allocation_fails_once();
}

Test(oom, every_allocation_fails_once_streaming)
{
	streamed = true;
	every_allocation_fails_once();
}

static void every_allocation_fails_once(void)
{
	cr_assert_eq(use_library(), SL_OK, "the input must lint cleanly without failures");
	/* Once more, so process-lifetime data (compiled regexes) exists before counting. */
	cr_assert_eq(use_library(), SL_OK);
	unsigned long n;
	unsigned long failures = 0;
	for (n = 1; n < 200000; n++) {
#ifdef SANITIZED
		sl_arena_fail_after(n);
		sl_err err = use_library();
		sl_arena_fail_after(0);
		cr_expect_eq(__lsan_do_recoverable_leak_check(), 0, "leak after failing allocation %lu", n);
#else
		long before = atomic_load(&live);
		atomic_store(&countdown, (long)n);
		sl_err err = use_library();
		int reached = atomic_load(&countdown) == 0;
		atomic_store(&countdown, 0);
		long after = atomic_load(&live);
		cr_expect_eq(after, before, "allocation %lu failed: %ld blocks leaked", n, after - before);
		if (!reached) {
			/* no allocation was failed: every N has been tried */
			cr_expect_eq(err, SL_OK);
			break;
		}
#endif
		if (err == SL_OK) {
#ifdef SANITIZED
			/* the injected failure was never reached */
			break;
#endif
		} else {
			failures++;
			cr_expect(err == SL_ENOMEM || err == SL_EIO, "allocation %lu: unexpected error %s", n,
				  sl_strerror(err));
		}
	}
	cr_log_info("tried %lu failure points, %lu reported an error", n, failures);
	cr_expect_gt(n, 100, "too few allocations were tried");
}
