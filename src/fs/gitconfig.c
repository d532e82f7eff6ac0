/* SPDX-License-Identifier: Apache-2.0
** gitconfig.c: the keys of git's config files that decide ignore rules (gitconfig.h), read as
** git-config(1) "Syntax" describes them: "[section]" or "[section \"sub\"]" headers, "name =
** value" or a valueless "name" (true), "#" and ";" comments, double quotes, the escapes \n \t \b
** \" \\, and a backslash before the end of a line continuing the value on the next. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fs/gitconfig.h"
#include "util/arena.h"

#define MAX_CONFIG (4u << 20)   /* a config larger than this is left to libgit2 */

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A value from *p (after the '='), up to the end of its line (or its last continued line):
** quotes removed, escapes decoded, trailing blanks outside quotes dropped; *p is moved past it.
** NULL on a syntax error (an unknown escape, an unclosed quote) or when out of memory. */
static char *value(const char **p)
{
	const char *s = *p;
	while (blank(*s))
		s++;
	size_t cap = strlen(s) + 1, n = 0, keep = 0;   /* keep: the length without trailing blanks */
	char *out = sl_xmalloc(cap);
	bool quoted = false;
	while (out) {
		char c = *s;
		if (c == '\0' || (c == '\n' && !quoted) || (!quoted && (c == '#' || c == ';'))) {
			if (quoted)
				break;   /* a quote still open at the end of the line */
			while (*s && *s != '\n')
				s++;
			*p = s;
			out[keep] = '\0';
			return out;
		}
		if (c == '\n')
			break;   /* a newline inside quotes */
		s++;
		if (c == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (c == '\\') {
			char e = *s++;
			if (e == '\n' || (e == '\r' && *s == '\n')) {   /* continued on the next line */
				if (e == '\r')
					s++;
				continue;
			}
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e == '"' || e == '\\' ? e
			    : '\0';
			if (c == '\0')
				break;
			out[n++] = c;
			keep = n;
			continue;
		}
		out[n++] = c;
		if (quoted || !blank(c))
			keep = n;
	}
	free(out);
	return NULL;
}

/* A boolean as git reads one: valueless, true/yes/on, false/no/off/empty, or an integer; -1 for
** anything else. */
static int boolean(const char *v)
{
	if (!v)
		return 1;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
		return 1;
	if (!*v || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off"))
		return 0;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	return errno || end == v || *end ? -1 : n != 0;
}

/* What the file's text sets, into c; false where this reader is unsure. */
static bool parse(const char *s, sl_gitconfig *c)
{
	enum { OTHER, CORE, EXTENSIONS } section = OTHER;
	if ((unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb && (unsigned char)s[2] == 0xbf)
		s += 3;   /* a UTF-8 byte-order mark */
	while (*s) {
		while (blank(*s))
			s++;
		if (*s == '\n') {
			s++;
			continue;
		}
		if (*s == '#' || *s == ';') {
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (*s == '[') {
			const char *name = ++s;
			while (alpha(*s) || digit(*s) || *s == '-' || *s == '.')
				s++;
			size_t len = (size_t)(s - name);
			bool sub = memchr(name, '.', len) != NULL;
			if (blank(*s)) {   /* [section "subsection"] */
				while (blank(*s))
					s++;
				if (*s++ != '"')
					return false;
				while (*s && *s != '"' && *s != '\n')
					s += *s == '\\' && s[1] && s[1] != '\n' ? 2 : 1;
				if (*s++ != '"')
					return false;
				sub = true;
			}
			if (*s++ != ']' || len == 0)
				return false;
			if ((len == 7 && !strncasecmp(name, "include", 7)) ||
			    (len == 9 && !strncasecmp(name, "includeif", 9)))
				return false;   /* another file read in: left to libgit2 */
			section = sub ? OTHER : len == 4 && !strncasecmp(name, "core", 4) ? CORE
				: len == 10 && !strncasecmp(name, "extensions", 10) ? EXTENSIONS : OTHER;
			while (blank(*s))
				s++;
			if (*s && *s != '\n' && *s != '#' && *s != ';')
				return false;   /* a variable after the header, on its line */
			continue;
		}
		if (!alpha(*s))
			return false;
		const char *name = s;
		while (alpha(*s) || digit(*s) || *s == '-')
			s++;
		size_t len = (size_t)(s - name);
		while (blank(*s))
			s++;
		char *v = NULL;
		if (*s == '=') {
			s++;
			if (!(v = value(&s)))
				return false;
		} else if (*s && *s != '\n' && *s != '#' && *s != ';') {
			return false;
		} else {
			while (*s && *s != '\n')
				s++;
		}
		bool ok = true;
#define IS(key) (len == sizeof key - 1 && !strncasecmp(name, key, len))
		if (section == EXTENSIONS) {
			c->extensions = true;
		} else if (section == CORE && IS("excludesfile")) {
			free(c->excludes_file);
			c->excludes_file = v;
			c->excludes_set = true;
			v = NULL;
		} else if (section == CORE && (IS("ignorecase") || IS("bare"))) {
			int b = boolean(v);
			ok = b >= 0;
			*(IS("bare") ? &c->bare : &c->ignore_case) = b == 1;
		} else if (section == CORE && IS("worktree")) {
			c->worktree = true;
		} else if (section == CORE && IS("repositoryformatversion")) {
			char *end = NULL;
			c->format_version = v ? strtol(v, &end, 10) : 0;
			ok = v && end != v && !*end;
		}
#undef IS
		free(v);
		if (!ok)
			return false;
	}
	return true;
}

bool sl_gitconfig_read(const char *path, sl_gitconfig *c)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR;
	struct stat st;
	char *text = NULL;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MAX_CONFIG &&
		  (text = sl_xmalloc((size_t)st.st_size + 1));
	size_t got = 0;
	ssize_t r = 0;
	while (ok && got < (size_t)st.st_size &&
	       (r = read(fd, text + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)r;
	close(fd);
	ok = ok && r >= 0 && got == (size_t)st.st_size && !memchr(text, '\0', got);
	if (ok) {
		text[got] = '\0';
		ok = parse(text, c);
	}
	free(text);
	return ok;
}

void sl_gitconfig_free(sl_gitconfig *c)
{
	free(c->excludes_file);
	c->excludes_file = NULL;
}

bool sl_gitconfig_user_files(const char *home, char *out[3])
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	out[0] = sl_xstrdup("/etc/gitconfig");
	out[1] = xdg && *xdg ? sl_xprintf("%s/git/config", xdg)
			     : sl_xprintf("%s/.config/git/config", home);
	out[2] = sl_xprintf("%s/.gitconfig", home);
	if (out[0] && out[1] && out[2])
		return true;
	for (int i = 0; i < 3; i++) {
		free(out[i]);
		out[i] = NULL;
	}
	return false;
}
