/* SPDX-License-Identifier: Apache-2.0
** floor.c: the benchmark's throughput floor. libyaml's own event parser over the same bytes
** schedlint reads: every *.yaml / *.yml under the given paths (hidden directories skipped, as
** schedlint does), each file read whole into memory and parsed event by event to the end,
** nothing else. Prints "files bytes events errors" on stdout.
**
**   cc -O2 -o floor floor.c $(pkg-config --cflags --libs yaml-0.1)
**   floor PATH...
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

static unsigned long long n_files, n_bytes, n_events, n_errors;
static char *buf;
static size_t cap;

static int has_yaml_ext(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

static void parse_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
		n_errors++;
		return;
	}
	size_t len = 0, got;
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("floor");
				exit(2);
			}
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	n_files++;
	n_bytes += len;

	yaml_parser_t p;
	yaml_event_t ev;
	if (!yaml_parser_initialize(&p)) {
		fputs("floor: out of memory\n", stderr);
		exit(2);
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	for (;;) {
		if (!yaml_parser_parse(&p, &ev)) {
			n_errors++;   /* a syntax error ends the file, as in any parser */
			break;
		}
		n_events++;
		yaml_event_type_t t = ev.type;
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&p);
}

static void walk(const char *path, int top)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
		n_errors++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (top || has_yaml_ext(path))
			parse_file(path);
		return;
	}
	struct dirent **ents;
	int n = scandir(path, &ents, NULL, alphasort);
	if (n < 0) {
		n_errors++;
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		if (name[0] != '.') {
			char *child;
			if (asprintf(&child, "%s/%s", path, name) < 0)
				exit(2);
			struct stat cs;
			if (stat(child, &cs) == 0 && (S_ISDIR(cs.st_mode) || has_yaml_ext(name)))
				walk(child, 0);
			free(child);
		}
		free(ents[i]);
	}
	free(ents);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: floor PATH...\n", stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		walk(argv[i], 1);
	printf("%llu %llu %llu %llu\n", n_files, n_bytes, n_events, n_errors);
	free(buf);
	return 0;
}
