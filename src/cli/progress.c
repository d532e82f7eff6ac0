/* SPDX-License-Identifier: Apache-2.0
** progress.c: the progress line of a long lint on a terminal (cli.h). It goes to stderr only
** when stderr is a terminal, so never into a report, a pipe, a file or a CI log; it is drawn
** with a carriage return and erased (spaces, then a carriage return: no escape sequence a dumb
** terminal would print) before anything else is written. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sl_progress_start(sl_progress *p, bool quiet)
{
	const char *term = getenv("TERM");
	memset(p, 0, sizeof *p);
	p->on = !quiet && isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
	p->start_ms = now_ms();
}

void sl_progress_update(void *ctx, size_t done, size_t total)
{
	sl_progress *p = ctx;
	if (!p->on)
		return;
	long long t = now_ms();
	if (t - p->start_ms < SL_PROGRESS_DELAY_MS && total <= SL_PROGRESS_FILES)
		return;
	if (p->shown && t - p->drawn_ms < 50 && done < total)
		return;   /* redrawn at most 20 times a second */
	char num[32];
	int w = snprintf(num, sizeof num, "%zu", total);
	p->width = fprintf(stderr, "\r[%*zu/%zu files]", w, done, total) - 1;
	fflush(stderr);
	p->shown = true;
	p->drawn_ms = t;
}

void sl_progress_clear(sl_progress *p)
{
	if (!p->shown)
		return;
	fprintf(stderr, "\r%*s\r", p->width, "");
	fflush(stderr);
	p->shown = false;
}
