/* SPDX-License-Identifier: Apache-2.0
** labels.c: apimachinery's name checks (pkg/api/validate/content kube.go and dns.go, and
** pkg/util/validation) ported to C over PCRE2. The four patterns are compiled and JIT-ed once
** (pthread_once); each match uses its own match data, so calls may run concurrently. Patterns
** are anchored with \A...\z: Go's $ never matches before a trailing newline, PCRE2's would. */
#include "k8s/labels.h"
#include "k8s/text.h"
#include "util/regex.h"

#include <pthread.h>
#include <string.h>

#define LABEL_KEY_FMT "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define LABEL_VALUE_FMT "(" LABEL_KEY_FMT ")?"
#define DNS_LABEL_FMT "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define DNS_SUBDOMAIN_FMT DNS_LABEL_FMT "(\\." DNS_LABEL_FMT ")*"

#define LABEL_KEY_MSG "must consist of alphanumeric characters, '-', '_' or '.', and must " \
	"start and end with an alphanumeric character"
#define LABEL_VALUE_MSG "a valid label must be an empty string or consist of alphanumeric " \
	"characters, '-', '_' or '.', and must start and end with an alphanumeric character"
#define DNS_LABEL_MSG "a lowercase RFC 1123 label must consist of lower case alphanumeric " \
	"characters or '-', and must start and end with an alphanumeric character"
#define DNS_SUBDOMAIN_MSG "a lowercase RFC 1123 subdomain must consist of lower case " \
	"alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

/* RegexError(msg, fmt, examples...) of apimachinery, with its double spaces. */
#define REGEX_ERR(msg, fmt, ex) msg " (e.g. " ex "regex used for validation is '" fmt "')"
#define KEY_EXAMPLES "'MyName',  or 'my.name',  or '123-abc', "

static const char key_regex_msg[] = REGEX_ERR(LABEL_KEY_MSG, LABEL_KEY_FMT, KEY_EXAMPLES);
static const char value_regex_msg[] = REGEX_ERR(LABEL_VALUE_MSG, LABEL_VALUE_FMT,
	"'MyValue',  or 'my_value',  or '12345', ");
static const char dns_label_regex_msg[] = REGEX_ERR(DNS_LABEL_MSG, DNS_LABEL_FMT,
	"'my-name',  or '123-abc', ");
static const char dns_subdomain_regex_msg[] = REGEX_ERR(DNS_SUBDOMAIN_MSG, DNS_SUBDOMAIN_FMT,
	"'example.com', ");
static const char key_slashes_msg[] = "a valid label key "
	REGEX_ERR(LABEL_KEY_MSG, LABEL_KEY_FMT, KEY_EXAMPLES)
	" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

enum { RE_KEY, RE_VALUE, RE_DNS_LABEL, RE_DNS_SUBDOMAIN, RE__COUNT };

static const char *const patterns[RE__COUNT] = {
	"\\A" LABEL_KEY_FMT "\\z",
	"\\A" LABEL_VALUE_FMT "\\z",
	"\\A" DNS_LABEL_FMT "\\z",
	"\\A" DNS_SUBDOMAIN_FMT "\\z",
};

/* Process-lifetime compiled patterns: written once under pthread_once, then read-only. */
static pcre2_code *codes[RE__COUNT];
static pthread_once_t codes_once = PTHREAD_ONCE_INIT;

static void compile_all(void)
{
	for (int i = 0; i < RE__COUNT; i++) {
		int err;
		PCRE2_SIZE off;
		codes[i] = pcre2_compile((PCRE2_SPTR)patterns[i], PCRE2_ZERO_TERMINATED,
					 PCRE2_NO_UTF_CHECK, &err, &off, NULL);
		if (codes[i])
			sl_regex_jit(codes[i]);
	}
}

/* True when s[0..n) is a lowercase DNS label ([a-z0-9], inner '-'): the common case, which
** every one of the patterns accepts, so the engine is not needed for it. */
static bool plain_label(const char *s, size_t n)
{
	if (n == 0 || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
			return false;
	}
	return true;
}

/* 1 when s[0..n) matches pattern re, 0 when not, -1 when the engine is unavailable or the
** match could not be decided (regex.h limits). */
static int re_match(int re, const char *s, size_t n)
{
	pcre2_match_data *md;
	int rc;
	if (s && plain_label(s, n))
		return 1;
	pthread_once(&codes_once, compile_all);
	if (!codes[re])
		return -1;
	md = pcre2_match_data_create_from_pattern(codes[re], NULL);
	if (!md)
		return -1;
	rc = sl_regex_match(codes[re], s, n, 0, md);
	pcre2_match_data_free(md);
	return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

/* Collects messages joined with "; ". */
typedef struct msgs {
	sl_k8s__buf b;
	int count;
} msgs;

static void add_msg(msgs *m, const char *prefix, const char *text)
{
	if (m->count++ > 0)
		sl_k8s__buf_add(&m->b, "; ");
	sl_k8s__buf_add(&m->b, prefix);
	sl_k8s__buf_add(&m->b, text);
}

static void add_maxlen(msgs *m, const char *prefix, int max, const char *unit)
{
	if (m->count++ > 0)
		sl_k8s__buf_add(&m->b, "; ");
	sl_k8s__buf_add(&m->b, prefix);
	sl_k8s__buf_add(&m->b, "must be no more than ");
	sl_k8s__buf_int(&m->b, max);
	sl_k8s__buf_add(&m->b, unit);
}

static int engine_failed(msgs *m)
{
	sl_k8s__buf_init(&m->b, m->b.buf, m->b.cap);
	sl_k8s__buf_add(&m->b, "internal error: regular expression engine unavailable");
	return -1;
}

/* DNS-1123 subdomain with a unit word ("bytes" from content/, "characters" from
** util/validation) and a prefix for each message. Returns -1 on engine failure. */
static int subdomain(msgs *m, const char *s, size_t n, const char *prefix, const char *unit)
{
	int r;
	if (n > SL_K8S_DNS1123_SUBDOMAIN_MAX)
		add_maxlen(m, prefix, SL_K8S_DNS1123_SUBDOMAIN_MAX, unit);
	r = re_match(RE_DNS_SUBDOMAIN, s, n);
	if (r < 0)
		return -1;
	if (!r)
		add_msg(m, prefix, dns_subdomain_regex_msg);
	return 0;
}

int sl_k8s_check_qualified_name(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	const char *name = s, *slash = NULL;
	size_t name_n = n, slashes = 0;
	int r;
	sl_k8s__buf_init(&m.b, msg, msgsz);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '/') {
			if (!slash)
				slash = s + i;
			slashes++;
		}
	}
	if (slashes > 1) {
		add_msg(&m, "", key_slashes_msg);
		return m.count;
	}
	if (slash) {
		size_t pn = (size_t)(slash - s);
		if (pn == 0)
			add_msg(&m, "prefix part ", "must be non-empty");
		else if (subdomain(&m, s, pn, "prefix part ", " bytes") < 0)
			return engine_failed(&m);
		name = slash + 1;
		name_n = n - pn - 1;
	}
	if (name_n == 0)
		add_msg(&m, "name part ", "must be non-empty");
	else if (name_n > SL_K8S_LABEL_NAME_MAX)
		add_maxlen(&m, "name part ", SL_K8S_LABEL_NAME_MAX, " bytes");
	r = re_match(RE_KEY, name, name_n);
	if (r < 0)
		return engine_failed(&m);
	if (!r)
		add_msg(&m, "name part ", key_regex_msg);
	return m.count;
}

int sl_k8s_check_label_value(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	int r;
	sl_k8s__buf_init(&m.b, msg, msgsz);
	if (n > SL_K8S_LABEL_NAME_MAX)
		add_maxlen(&m, "", SL_K8S_LABEL_NAME_MAX, " bytes");
	r = re_match(RE_VALUE, s, n);
	if (r < 0)
		return engine_failed(&m);
	if (!r)
		add_msg(&m, "", value_regex_msg);
	return m.count;
}

int sl_k8s_check_dns1123_label(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	int r, sub;
	sl_k8s__buf_init(&m.b, msg, msgsz);
	if (n > SL_K8S_DNS1123_LABEL_MAX)
		add_maxlen(&m, "", SL_K8S_DNS1123_LABEL_MAX, " characters");
	r = re_match(RE_DNS_LABEL, s, n);
	if (r < 0)
		return engine_failed(&m);
	if (!r) {
		sub = re_match(RE_DNS_SUBDOMAIN, s, n);
		if (sub < 0)
			return engine_failed(&m);
		add_msg(&m, "", sub ? "must not contain dots" : dns_label_regex_msg);
	}
	return m.count;
}

int sl_k8s_check_dns1123_subdomain(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	sl_k8s__buf_init(&m.b, msg, msgsz);
	if (subdomain(&m, s, n, "", " characters") < 0)
		return engine_failed(&m);
	return m.count;
}

bool sl_k8s_is_qualified_name(const char *s, size_t n)
{
	return sl_k8s_check_qualified_name(s, n, NULL, 0) == 0;
}

bool sl_k8s_is_label_value(const char *s, size_t n)
{
	return sl_k8s_check_label_value(s, n, NULL, 0) == 0;
}

bool sl_k8s_parse_int64(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t v = 0, limit;
	if (n > 0 && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i >= n)
		return false;
	limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		unsigned d;
		if (s[i] < '0' || s[i] > '9')
			return false;
		d = (unsigned)(s[i] - '0');
		if (v > (limit - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (out) {
		if (neg)
			*out = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
		else
			*out = (int64_t)v;
	}
	return true;
}

bool sl_k8s_parse_canonical_int64(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	if (n == 0)
		return false;
	if (s[0] == '-') {
		if (n == 1)
			return false;
		i = 1;
	}
	if (s[i] == '0') {
		if (!(n == 1 && i == 0))
			return false;
	} else if (s[i] < '1' || s[i] > '9') {
		return false;
	}
	return sl_k8s_parse_int64(s, n, out);
}
