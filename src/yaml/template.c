/* SPDX-License-Identifier: Apache-2.0
** template.c: template markers in text, and when they make a file a template, not a manifest
** (template.h says what counts and why). */
#include <stdint.h>
#include <string.h>
#include "util/v16.h"
#include "yaml/template.h"

/* --- markers ------------------------------------------------------------------------------ */

static bool is_upper(char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word(char c) { return is_alpha(c) || is_digit(c); }

/* The end of the first `close` after from in s[0..n), on the same line; 0 when none. */
static size_t closing(const char *s, size_t n, size_t from, const char *close)
{
	size_t cl = strlen(close);
	for (size_t j = from; j + cl <= n && s[j] != '\n'; j++)
		if (memcmp(s + j, close, cl) == 0)
			return j + cl;
	return 0;
}

/* Go's template keywords and the functions a chart or an operator's assets begin an action with. */
static bool go_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"if", "else", "end", "range", "with", "define", "template", "block", "include", "tpl",
		"toYaml", "toJson", "fromYaml", "printf", "print", "quote", "squote", "default",
		"required", "lookup", "and", "or", "not", "eq", "ne", "lt", "gt", "le", "ge", "len",
		"index", "nindent", "indent", "trim", "upper", "lower", "b64enc", "semverCompare",
		"hasKey", "ternary", "list", "dict", "get", "coalesce", "empty", "until", "break",
		"continue",
	};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

/* The family of the action inside "{{ }}": Go when it reads as Go's ({{ .X }}, {{- if }},
** {{ $v }}, a pipe), else a token ({{HF_TOKEN}}, {{ graph_name }}, {{inputs.parameters.x}}). */
static sl_template_family action_family(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == '-' || s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && (s[i] == '.' || s[i] == '$' || s[i] == '(' || s[i] == '"' ||
		      (s[i] == '/' && i + 1 < n && s[i + 1] == '*')))
		return SL_TEMPLATE_GO;
	size_t w = i;
	while (w < n && is_word(s[w]))
		w++;
	if (go_word(s + i, w - i))
		return SL_TEMPLATE_GO;
	return memchr(s, '|', n) ? SL_TEMPLATE_GO : SL_TEMPLATE_TOKEN;
}

/* "${...}": envsubst's name with an optional shell default (${NAME}, ${NAME:-x}, ${NAME=x},
** ${NAME:?}), Terraform's expression (${var.x}, ${f(x)}, ${ x }); NONE for what is neither
** (a regex's ${1}, a shell's ${x##*y}). */
static sl_template_family dollar_family(const char *s, size_t n)
{
	if (!n || !is_alpha(s[0])) {
		size_t i = 0;
		while (i < n && s[i] == ' ')
			i++;
		return i && i < n && is_alpha(s[i]) ? SL_TEMPLATE_TERRAFORM : SL_TEMPLATE_NONE;
	}
	size_t i = 0;
	while (i < n && is_word(s[i]))
		i++;
	if (i == n)
		return SL_TEMPLATE_ENVSUBST;
	if (strchr("-=?+", s[i]) || (s[i] == ':' && i + 1 < n && strchr("-=?+", s[i + 1])))
		return SL_TEMPLATE_ENVSUBST;
	return strchr(".([\" ", s[i]) ? SL_TEMPLATE_TERRAFORM : SL_TEMPLATE_NONE;
}

/* The marker that starts at s[i], if any: its end and family (0 when none starts there). A
** bare "$NAME" is a marker only when weak is true. */
static size_t marker_at(const char *s, size_t n, size_t i, bool weak, sl_template_family *fam)
{
	char c = s[i], d = i + 1 < n ? s[i + 1] : '\0';
	bool after_dollar = i > 0 && s[i - 1] == '$';
	size_t e;
	if (c == '{' && d == '{') {
		if ((e = closing(s, n, i + 2, "}}"))) {
			*fam = action_family(s + i + 2, e - i - 4);
			return e;
		}
		/* an action broken over lines: "{{- if and" */
		size_t j = i + 2;
		while (j < n && (s[j] == '-' || s[j] == ' '))
			j++;
		if (j < n && (s[j] == '.' || s[j] == '$' || is_alpha(s[j]))) {
			*fam = SL_TEMPLATE_GO;
			e = j;
			while (e < n && s[e] != '\n')
				e++;
			return e;
		}
		return 0;
	}
	if (c == '{' && (d == '%' || d == '#') && (e = closing(s, n, i + 2, d == '%' ? "%}" : "#}"))) {
		*fam = SL_TEMPLATE_JINJA;
		return e;
	}
	if (c == '%' && d == '{' && !after_dollar && (e = closing(s, n, i + 2, "}"))) {
		*fam = SL_TEMPLATE_TERRAFORM;
		return e;
	}
	if (c == '$' && d == '{' && !after_dollar && (e = closing(s, n, i + 2, "}"))) {
		*fam = dollar_family(s + i + 2, e - i - 3);
		return *fam ? e : 0;
	}
	if (c == '{' && is_alpha(d) && !(i > 0 && strchr("{$%", s[i - 1]))) {
		/* "{IMAGE_REGISTRY}", or "{username}" glued to more text ("{username}/model:1"):
		** a document's "fill this in"; a flow mapping is neither */
		size_t j = i + 1;
		bool upper = true;
		while (j < n && (is_word(s[j]) || s[j] == '-')) {
			upper &= !(s[j] >= 'a' && s[j] <= 'z');
			j++;
		}
		char after = j + 1 < n ? s[j + 1] : '\0';
		if (j < n && s[j] == '}' && after != '}' && j - i > 2 &&
		    (upper || is_word(after) || (after && strchr("/.:@-", after)))) {
			*fam = SL_TEMPLATE_TOKEN;
			return j + 1;
		}
		return 0;
	}
	if (weak && c == '$' && is_upper(d) && !after_dollar) {
		size_t j = i + 1;
		while (j < n && (is_upper(s[j]) || is_digit(s[j])))
			j++;
		if (j < n && (is_alpha(s[j]) || s[j] == '('))
			return 0;   /* "$Foo" is a word, "$(" Kubernetes' own */
		*fam = SL_TEMPLATE_ENVSUBST;
		return j;
	}
	return 0;
}

/* The first marker in s[from..to) of s[0..n). */
static bool find_in(const char *s, size_t n, size_t from, size_t to, bool weak,
		    sl_template_marker *m)
{
	for (size_t i = from; i < to; i++) {
		if (s[i] != '{' && s[i] != '$' && s[i] != '%')
			continue;
		sl_template_family fam = SL_TEMPLATE_NONE;
		size_t e = marker_at(s, n, i, weak, &fam);
		if (e) {
			*m = (sl_template_marker){i, e, fam};
			return true;
		}
	}
	return false;
}

bool sl_template_find(const char *s, size_t n, sl_template_marker *m)
{
	return s && find_in(s, n, 0, n, true, m);
}

bool sl_template_in_value(const char *s, size_t n)
{
	sl_template_marker m;
	return sl_template_find(s, n, &m);
}

/* --- next to a syntax error ---------------------------------------------------------------- */

/* Where a comment starts on the line [ls, le) of s: a '#' first on it or after a blank; le
** when none. */
static size_t comment_start(const char *s, size_t ls, size_t le)
{
	for (size_t i = ls; i < le; i++)
		if (s[i] == '#' && (i == ls || s[i - 1] == ' ' || s[i - 1] == '\t'))
			return i;
	return le;
}

/* An excerpt's elision on the line [ls, le) of s: the line, indented, is "..." or "…" and
** nothing else but a comment (at column 0 "..." ends a YAML document: that is YAML). */
static bool elision(const char *s, size_t ls, size_t le, sl_template_marker *m)
{
	size_t i = ls, end = comment_start(s, ls, le);
	while (i < end && (s[i] == ' ' || s[i] == '\t'))
		i++;
	size_t j = end;
	while (j > i && (s[j - 1] == ' ' || s[j - 1] == '\t' || s[j - 1] == '\n' || s[j - 1] == '\r'))
		j--;
	bool dots = (j - i == 3 && memcmp(s + i, "...", 3) == 0) ||
		    (j - i == 3 && memcmp(s + i, "\xe2\x80\xa6", 3) == 0);
	if (!dots || i == ls)
		return false;
	*m = (sl_template_marker){i, j, SL_TEMPLATE_ELISION};
	return true;
}

bool sl_template_near(const sl_source *src, size_t off, sl_template_marker *m)
{
	if (!src->n_lines)
		return false;
	size_t l = sl_source_line_of(src, off < src->len ? off : src->len);
	size_t first = l ? l - 1 : 0, last = l + 1 < src->n_lines ? l + 1 : l;
	for (size_t k = first; k <= last; k++) {
		size_t ls = k ? src->line_start[k] : src->bom;
		size_t le = k + 1 < src->n_lines ? src->line_start[k + 1] : src->len;
		if (find_in(src->data, src->len, ls, comment_start(src->data, ls, le), false, m) ||
		    elision(src->data, ls, le, m))
			return true;
	}
	return false;
}

/* --- in a parsed document ------------------------------------------------------------------ */

/* Keys under which everything is text for someone else to read. */
static bool payload_key(const char *k)
{
	static const char *const keys[] = {
		"annotations", "data", "stringData", "binaryData", "command", "args", "env",
		"script", "scripts",
	};
	for (size_t i = 0; k && i < sizeof keys / sizeof *keys; i++)
		if (strcmp(k, keys[i]) == 0)
			return true;
	return false;
}

typedef struct walk {
	const sl_source *src;
	sl_arena *a;
	bool values;                 /* a whole value counts */
	bool nested_metadata;        /* a pod template's metadata counts as the object's does */
	sl_template_evidence *ev;
} walk;

/* The marker in node n's text as written (quotes and all), with why; true when found. */
static bool in_node(walk *w, const sl_node *n, bool weak, const char *why)
{
	sl_template_marker m;
	if (!n || n->type != SL_NODE_SCALAR || !find_in(w->src->data, n->end, n->start, n->end, weak, &m))
		return false;
	*w->ev = (sl_template_evidence){true, m, why};
	return true;
}

/* A scalar that is one placeholder, and nothing else: "${REPLICAS}", "{{ .Values.cpu }}". */
static bool whole(walk *w, const sl_node *n)
{
	if (n->type != SL_NODE_SCALAR || n->style == SL_STYLE_LITERAL || n->style == SL_STYLE_FOLDED)
		return false;
	const char *s = n->u.scalar.s;
	size_t len = n->u.scalar.len, i = 0;
	while (i < len && s[i] == ' ')
		i++;
	while (len > i && s[len - 1] == ' ')
		len--;
	sl_template_marker m;
	if (i >= len || !find_in(s, len, i, i + 1, true, &m) || m.end != len)
		return false;
	/* the marker's place in the file: its text as written holds it too */
	if (!in_node(w, n, true, NULL))
		return false;
	w->ev->why = sl_arena_printf(w->a, "the whole value at line %zu is a placeholder",
				     sl_source_line_of(w->src, n->start) + 1);
	return true;
}

static bool metadata(walk *w, const sl_node *md)
{
	static const char *const names[] = {"name", "namespace", "generateName"};
	for (size_t i = 0; i < 3; i++)
		if (in_node(w, sl_node_deref(sl_map_get(md, names[i])), true, NULL)) {
			w->ev->why = sl_arena_printf(w->a, "metadata.%s holds it", names[i]);
			return true;
		}
	size_t n;
	const sl_pair *p = sl_map_entries(sl_map_get(md, "labels"), &n);
	for (size_t i = 0; i < n; i++)
		if (in_node(w, p[i].key, true, "a label holds it") ||
		    in_node(w, sl_node_deref(p[i].value), true, "a label holds it"))
			return true;
	return false;
}

static bool walk_node(walk *w, const sl_node *n, bool payload, bool top)
{
	if (!n || n->type == SL_NODE_ALIAS)
		return false;
	if (n->type == SL_NODE_SCALAR)
		return !payload && w->values && whole(w, n);
	if (n->type == SL_NODE_SEQ) {
		for (size_t i = 0; i < n->u.seq.n; i++)
			if (walk_node(w, n->u.seq.items[i], payload, false))
				return true;
		return false;
	}
	for (size_t i = 0; i < n->u.map.n; i++) {
		const sl_node *k = n->u.map.pairs[i].key, *v = n->u.map.pairs[i].value;
		if (in_node(w, k, true, "a mapping key holds it"))
			return true;
		const char *key = sl_scalar(k);
		if (!payload && key && strcmp(key, "metadata") == 0 && (top || w->nested_metadata) &&
		    sl_node_deref(v) && sl_node_deref(v)->type == SL_NODE_MAP &&
		    metadata(w, sl_node_deref(v)))
			return true;
		if (walk_node(w, v, payload || payload_key(key), false))
			return true;
	}
	return false;
}

/* A marker may start at s[i] (one of '{', '$', '%'): the test of sl_template_may_hold. */
static bool may_start_at(const char *s, size_t i, size_t to)
{
	char c = s[i], d = i + 1 < to ? s[i + 1] : '\0';
	if (c == '%' ? d == '{' : c == '$' ? d == '{' || is_upper(d)
	    : d == '{' || d == '%' || d == '#')
		return true;
	if (c == '{' && is_alpha(d)) {
		size_t j = i + 1;
		while (j < to && (is_word(s[j]) || s[j] == '-'))
			j++;
		if (j < to && s[j] == '}')
			return true;
	}
	return false;
}

/* Where a '{', '$' or '%' is in the sixteen bytes at p: '$' and '%' differ in their last bit
** alone, so two compares find the three. */
static inline sl_v16 lead_bytes(const char *p)
{
	sl_v16 v = sl_v16_load(p);
	return (sl_v16)(v == '{') | (sl_v16)((v | 1) == '%');
}

bool sl_template_may_hold(const char *s, size_t from, size_t to)
{
	size_t i = from;
	/* sixteen bytes at a time: where is a '{', '$' or '%' (sixty-four at a time while none
	** is: most text has none) */
	for (;;) {
		while (to - i >= 64 && i < to &&
		       !sl_v16_mask(lead_bytes(s + i) | lead_bytes(s + i + 16) |
				    lead_bytes(s + i + 32) | lead_bytes(s + i + 48)))
			i += 64;
		if (i >= to)
			return false;
		unsigned m;
		size_t at = i, width;   /* the block starts at at, and i moves on by width */
		if (to - i >= 16) {
			m = sl_v16_mask(lead_bytes(s + i));
			width = 16;
		} else if (to - from >= 16) {
			/* the last bytes: the sixteen that end at to, but for those before i (looked
			** at already) */
			at = to - 16;
			m = sl_v16_mask(lead_bytes(s + at)) & ~((1u << (i - at)) - 1);
			width = to - i;
		} else {
			m = s[i] == '{' || s[i] == '$' || s[i] == '%';
			width = 1;
		}
		for (; m; m &= m - 1)
			if (may_start_at(s, at + (size_t)__builtin_ctz(m), to))
				return true;
		i += width;
	}
}

bool sl_template_in_doc(const sl_source *src, const sl_node *root, bool modelled, bool fills_own,
			sl_arena *a, sl_template_evidence *ev)
{
	walk w = {src, a, modelled && !fills_own, modelled, ev};
	root = sl_node_deref(root);
	if (!root || root->type != SL_NODE_MAP)
		return false;
	/* every marker the walk below finds starts in the document's text: the file's text is
	** looked at once, then the document's (most files have no marker at all) */
	sl_source *s = (sl_source *)src;   /* a cache: the text does not change */
	if (!s->may_template)
		s->may_template = sl_template_may_hold(src->data, 0, src->len) ? 2 : 1;
	const sl_doc *doc = sl_node_doc(root);
	if (s->may_template == 1 ||
	    (doc && !sl_template_may_hold(src->data, doc->start < root->start ? doc->start : root->start,
					  doc->end > root->end ? doc->end : root->end)))
		return false;
	if (in_node(&w, sl_map_get(root, "apiVersion"), true, "apiVersion holds it") ||
	    in_node(&w, sl_map_get(root, "kind"), true, "kind holds it"))
		return true;
	return walk_node(&w, root, false, true);
}

/* --- the notice ---------------------------------------------------------------------------- */

/* The family the whole file shows: a Jinja statement or a Terraform directive anywhere says
** what its other markers are. */
static sl_template_family file_family(const sl_source *src, sl_template_family f)
{
	if (f == SL_TEMPLATE_GO || f == SL_TEMPLATE_JINJA || f == SL_TEMPLATE_TERRAFORM)
		return f;
	for (size_t i = 0; i + 1 < src->len; i++) {
		sl_template_family g = SL_TEMPLATE_NONE;
		if ((src->data[i] == '{' && src->data[i + 1] == '%') ||
		    (src->data[i] == '%' && src->data[i + 1] == '{'))
			if (marker_at(src->data, src->len, i, false, &g) &&
			    (g == SL_TEMPLATE_JINJA || g == SL_TEMPLATE_TERRAFORM))
				return g;
	}
	return f;
}

const char *sl_template_message(const sl_source *src, const sl_template_evidence *ev,
				const char *path, sl_arena *a, const char **notes)
{
	sl_template_family f = file_family(src, ev->m.family);
	/* the marker as written, at most 40 bytes of it (on a character boundary) */
	size_t n = ev->m.end - ev->m.start, cut = n > 40 ? 37 : n;
	while (cut < n && cut && ((unsigned char)src->data[ev->m.start + cut] & 0xC0) == 0x80)
		cut--;
	const char *shown = sl_arena_printf(a, "%.*s%s", (int)cut, src->data + ev->m.start,
					    cut < n ? "..." : "");
	static const struct {
		const char *what, *how, *fill;
	} fam[] = {
		[SL_TEMPLATE_GO] = {"Go template", "lint what it renders",
				    "render it with the program that fills it (helm template, the operator "
				    "that owns it, the test harness)"},
		[SL_TEMPLATE_JINJA] = {"Jinja template", "lint what it renders",
				       "render it with what fills it (Ansible's template module, j2)"},
		[SL_TEMPLATE_TERRAFORM] = {"Terraform template", "lint what templatefile() renders",
					   "render it as Terraform does (templatefile(), e.g. in terraform console)"},
		[SL_TEMPLATE_ENVSUBST] = {"envsubst placeholder", "lint it filled", NULL},
		[SL_TEMPLATE_TOKEN] = {"placeholder", "lint it filled",
				       "fill it with what replaces it (a script, sed, the test harness)"},
		[SL_TEMPLATE_ELISION] = {"excerpt with an elision", "lint it completed",
					 "write out what the elision leaves out"},
	};
	if (f == SL_TEMPLATE_NONE)
		f = SL_TEMPLATE_TOKEN;
	const char *msg = f == SL_TEMPLATE_ENVSUBST
		? sl_arena_printf(a, "%s (%s): not linted as written; %s: envsubst < FILE | schedlint "
				  "--stdin-filename FILE -", fam[f].what, shown, fam[f].how)
		: f == SL_TEMPLATE_ELISION
		? sl_arena_printf(a, "%s (%s): not linted as written; %s", fam[f].what, shown,
				  fam[f].how)
		: sl_arena_printf(a, "%s (%s): not linted as written; %s: ... | schedlint "
				  "--stdin-filename FILE -", fam[f].what, shown, fam[f].how);
	uint32_t line = 0, col = 0;
	sl_source_position(src, ev->m.start, &line, &col);
	const char *cmd = f == SL_TEMPLATE_ENVSUBST
		? sl_arena_printf(a, "Fill it and lint the result: envsubst < %s | schedlint "
				  "--stdin-filename %s -", path, path)
		: sl_arena_printf(a, "To lint what it deploys, %s, then: ... | schedlint "
				  "--stdin-filename %s -", fam[f].fill, path);
	*notes = sl_arena_printf(a, "%s at line %u, column %u (%s): this file is %s, not YAML the "
				 "API server reads, so no rule reads it and its objects are not among the "
				 "project's facts.\n%s\n"
				 "A file that is not meant to be linted: exclude it in .schedlint.yaml "
				 "(exclude:), or silence this notice with "
				 "`# schedlint: ignore-file[template-not-rendered]`.",
				 fam[f].what, line, col, ev->why ? ev->why : "here",
				 f == SL_TEMPLATE_ELISION ? "an excerpt that leaves something out"
							  : "text for a program to fill", cmd ? cmd : "");
	return msg && *notes && cmd ? msg : NULL;
}
