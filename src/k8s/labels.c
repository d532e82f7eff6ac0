/* SPDX-License-Identifier: Apache-2.0
** labels.c: apimachinery's name checks (pkg/api/validate/content kube.go and dns.go, and
** pkg/util/validation) ported to C. Their four regular expressions (kept below: the messages
** quote them) are matched by a hand-written scanner, exact and linear, with no state: calls
** may run concurrently. Go anchors them with ^...$, and Go's $ never matches before a trailing
** newline: neither does the scanner. */
#include "k8s/labels.h"
#include "k8s/text.h"
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

/* apimachinery's patterns, matched by hand: each is a run of allowed bytes whose first and last
** are alphanumeric (a DNS subdomain: DNS labels joined by single dots), so one pass over the
** bytes decides it, exactly and in linear time. */
static bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
static bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

/* s[0..n) is LABEL_KEY_FMT: alphanumerics, '-', '_', '.', alphanumeric at both ends. */
static bool key_syntax(const char *s, size_t n)
{
	if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* s[0..n) is DNS_LABEL_FMT, or with dots DNS_SUBDOMAIN_FMT: lower-case alphanumerics and '-',
** each dot-separated label alphanumeric at both ends. */
static bool dns_syntax(const char *s, size_t n, bool dots)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (is_lower_alnum(c))
			continue;
		bool first = i == 0 || s[i - 1] == '.', last = i + 1 == n || s[i + 1] == '.';
		if ((c != '-' && !(dots && c == '.')) || first || last)
			return false;
	}
	return true;
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

/* DNS-1123 subdomain with a unit word ("bytes" from content/, "characters" from
** util/validation) and a prefix for each message. */
static void subdomain(msgs *m, const char *s, size_t n, const char *prefix, const char *unit)
{
	if (n > SL_K8S_DNS1123_SUBDOMAIN_MAX)
		add_maxlen(m, prefix, SL_K8S_DNS1123_SUBDOMAIN_MAX, unit);
	if (!dns_syntax(s, n, true))
		add_msg(m, prefix, dns_subdomain_regex_msg);
}

int sl_k8s_check_qualified_name(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	const char *name = s, *slash = NULL;
	size_t name_n = n, slashes = 0;
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
		else
			subdomain(&m, s, pn, "prefix part ", " bytes");
		name = slash + 1;
		name_n = n - pn - 1;
	}
	if (name_n == 0)
		add_msg(&m, "name part ", "must be non-empty");
	else if (name_n > SL_K8S_LABEL_NAME_MAX)
		add_maxlen(&m, "name part ", SL_K8S_LABEL_NAME_MAX, " bytes");
	if (!key_syntax(name, name_n))
		add_msg(&m, "name part ", key_regex_msg);
	return m.count;
}

int sl_k8s_check_label_value(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	sl_k8s__buf_init(&m.b, msg, msgsz);
	if (n > SL_K8S_LABEL_NAME_MAX)
		add_maxlen(&m, "", SL_K8S_LABEL_NAME_MAX, " bytes");
	if (n != 0 && !key_syntax(s, n))
		add_msg(&m, "", value_regex_msg);
	return m.count;
}

int sl_k8s_check_dns1123_label(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	sl_k8s__buf_init(&m.b, msg, msgsz);
	if (n > SL_K8S_DNS1123_LABEL_MAX)
		add_maxlen(&m, "", SL_K8S_DNS1123_LABEL_MAX, " characters");
	if (!dns_syntax(s, n, false))
		add_msg(&m, "", dns_syntax(s, n, true) ? "must not contain dots" : dns_label_regex_msg);
	return m.count;
}

int sl_k8s_check_dns1123_subdomain(const char *s, size_t n, char *msg, size_t msgsz)
{
	msgs m = { { 0 }, 0 };
	sl_k8s__buf_init(&m.b, msg, msgsz);
	subdomain(&m, s, n, "", " characters");
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
