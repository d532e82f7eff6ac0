/* SPDX-License-Identifier: Apache-2.0
** lsp.h: `schedlint server`, the language server (spec/lsp.md), a client of libschedlint like the
** other commands. One noun per file:
**   cli/lsp/wire.c    the transport: Content-Length framed JSON-RPC messages over descriptors
**   cli/lsp/text.c    positions: line starts, UTF-16 code units <-> bytes, incremental edits
**   cli/lsp/docs.c    the open documents (URI, path, text, version, what was published)
**   cli/lsp/lint.c    the library over the open documents: diagnostics, code actions, formatting,
**                 hover
**   cli/lsp/server.c  the protocol: lifecycle, dispatch, debounce, JSON-RPC errors
** cmd_server.c parses the command line and runs the server. */
#ifndef SL_CLI_LSP_H
#define SL_CLI_LSP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- cli/lsp/wire.c: framing ------------------------------------------------------------------ */

/* A message body larger than this is refused (skipped unread, answered with an error). */
#define SL_LSP_WIRE_MAX ((size_t)64 << 20)

typedef struct sl_lsp_wire {
	int in, out;                 /* descriptors: messages are read from in, written to out */
	char *buf;                   /* bytes read and not yet consumed: buf[pos..len) */
	size_t len, pos, cap;
	size_t skip;                 /* body bytes of a refused message still to be discarded */
	bool eof;
	bool broken;                 /* writing failed (the client is gone) */
} sl_lsp_wire;

typedef enum sl_lsp_wire_status {
	SL_LSP_WIRE_MESSAGE,         /* *body (malloc'd, NUL-terminated) has *len bytes */
	SL_LSP_WIRE_TIMEOUT,         /* nothing complete within the timeout */
	SL_LSP_WIRE_EOF,             /* the input closed (a message cut short included) */
	SL_LSP_WIRE_BAD              /* a header block that frames nothing: *body is why */
} sl_lsp_wire_status;

void sl_lsp_wire_init(sl_lsp_wire *w, int in, int out);
void sl_lsp_wire_free(sl_lsp_wire *w);
/* The next message, waiting at most timeout_ms (-1: no limit) for its bytes. */
sl_lsp_wire_status sl_lsp_wire_read(sl_lsp_wire *w, int timeout_ms, char **body, size_t *len);
/* Writes msg framed, and decrefs it; false when writing failed (w->broken is set). */
bool sl_lsp_wire_send(sl_lsp_wire *w, json_t *msg);

/* --- cli/lsp/text.c: positions ---------------------------------------------------------------- */

/* The starts of a text's lines as LSP counts them (\n, \r\n and \r end a line). */
typedef struct sl_lsp_lines {
	size_t *start;
	size_t n;
} sl_lsp_lines;

bool sl_lsp_text_lines(const char *text, size_t len, sl_lsp_lines *out);
void sl_lsp_text_lines_free(sl_lsp_lines *l);
/* The byte offset of an LSP position (character in UTF-16 code units), clamped to the text:
** past the end of a line is the line's end, past the last line is the end of the text. */
size_t sl_lsp_text_offset(const char *text, size_t len, const sl_lsp_lines *l, uint32_t line,
			  uint32_t character);
/* The LSP position (UTF-16) of a byte offset. */
void sl_lsp_text_position(const char *text, size_t len, const sl_lsp_lines *l, size_t offset,
			  uint32_t *line, uint32_t *character);
/* {"line": , "character": } of a byte offset; {"start":, "end":} of a byte range. */
json_t *sl_lsp_text_range(const char *text, size_t len, const sl_lsp_lines *l, size_t from,
			  size_t to);
/* Reads an LSP Position object; false when it is not one. */
bool sl_lsp_text_read_position(const json_t *pos, uint32_t *line, uint32_t *character);
/* Replaces [from, to) of *text (*len bytes, malloc'd, NUL-terminated) with rep[0..rlen). */
bool sl_lsp_text_splice(char **text, size_t *len, size_t from, size_t to, const char *rep,
			size_t rlen);
/* The one TextEdit that turns old into new (their common start and end left out), or NULL
** when they are equal. */
json_t *sl_lsp_text_diff_edit(const char *old, size_t olen, const sl_lsp_lines *l,
			      const char *new_, size_t nlen);

/* --- cli/lsp/docs.c: the open documents ------------------------------------------------------- */

typedef struct sl_lsp_doc {
	char *uri;
	char *path;                  /* what the library is given: relative to the working
					directory when under it, else absolute */
	char *real;                  /* path's real path once looked up (sl_lsp_docs_find_path);
					NULL until then, or while it names no file */
	char *text;                  /* NUL-terminated */
	size_t len;
	sl_lsp_lines lines;          /* of text */
	int64_t version;
	int64_t due_ms;              /* lint at this time (monotonic ms); 0: not due */
	json_t *diagnostics;         /* the last published (or pulled) LSP diagnostics */
	json_t *entries;             /* per diagnostic: its range (bytes), rule and actions */
	bool synced;                 /* text is the file on disk: checked when opened, set by a
					save, cleared by a change */
	bool built;                  /* a kustomization, or a file a kustomization uses (a patch,
					a built resource): linted from the disk, as Kustomize
					builds it, so only while synced */
	uint64_t facts;              /* what the other documents see of it, as last linted: 0
					when it gives no cross-file fact, 1 when it gives some
					(which: gives), the digest of them (sl_run_file_facts)
					when gives could not tell; or SL_LSP_FACTS_PENDING,
					SL_LSP_FACTS_UNKNOWN */
	uint64_t disk_facts;         /* the same of the file on disk (the project's copy); 0: no
					file */
	bool edited;                 /* its text changed since it was last linted (opened,
					changed): only then can a change of its digest be news to
					the others (without it, the digest follows what every run
					recomputes from all the texts: which unit is the lowest) */
	struct sl_fact_digest *gives;   /* its facts one by one (sl_run_file_fact_digests), sorted by
					key, as last linted (none when opened): which of them an
					edit changed; meaningful while facts is a digest */
	size_t n_gives;
	bool gives_known;            /* false when the last lint could not tell them */
	uint64_t *reads;             /* the keys of the facts its last lint read of the others
					(sl_run_file_reads), sorted */
	size_t n_reads;
	bool reads_known;            /* false until linted, and for a kustomization or built file
					(the builds read for it) or a lint that could not tell:
					then any change of a fact is news to it */
	bool fresh;                  /* the last sl_lsp_lint_docs linted it */
	char **waits;                /* the real paths of the files its last lint's fixes edit that
					were not open: those fixes were left out (an edit needs the
					document's text), so opening one lints it again */
	size_t n_waits;
} sl_lsp_doc;

/* A digest not known yet: the next lint's, and no change (the others saw the same text). */
#define SL_LSP_FACTS_PENDING (~(uint64_t)0 - 1)
/* A digest that cannot be known (a file on disk the buffer differs from): any is a change. */
#define SL_LSP_FACTS_UNKNOWN (~(uint64_t)0)

/* The facts a lint found changed: by key, or all of them (a digest that could not be known). */
typedef struct sl_lsp_news {
	bool all;
	uint64_t *keys;              /* sorted, each once; malloc'd */
	size_t n;
} sl_lsp_news;
/* True when doc must be linted again for them: it read a key among them, or its reads are not
** known and something changed. */
bool sl_lsp_news_read_by(const sl_lsp_news *w, const sl_lsp_doc *doc);
void sl_lsp_news_free(sl_lsp_news *w);

typedef struct sl_lsp_docs {
	sl_lsp_doc **v;
	size_t n;
} sl_lsp_docs;

/* The path the library lints a URI's document under; NULL for memory. Non-file URIs get
** their text after the scheme as the name. */
char *sl_lsp_docs_path(const char *uri);
sl_lsp_doc *sl_lsp_docs_find(const sl_lsp_docs *d, const char *uri);
sl_lsp_doc *sl_lsp_docs_find_path(const sl_lsp_docs *d, const char *path);
/* Opens (or reopens: replaces) uri with text; NULL for memory. */
sl_lsp_doc *sl_lsp_docs_open(sl_lsp_docs *d, const char *uri, const char *text, size_t len,
			     int64_t version);
/* True when the file doc names holds exactly doc's text. */
bool sl_lsp_docs_on_disk(const sl_lsp_doc *doc);
/* Sets a document's text (the line index follows). */
bool sl_lsp_docs_set_text(sl_lsp_doc *doc, char *text, size_t len);
void sl_lsp_docs_close(sl_lsp_docs *d, const char *uri);
/* Notes that a fix of doc was left out because it edits the file at path, which is not open. */
void sl_lsp_docs_wait(sl_lsp_doc *doc, const char *path);
/* Forgets what doc waited for (it is linted again). */
void sl_lsp_docs_unwait(sl_lsp_doc *doc);
/* Makes due at `at` the documents that wait for opened, which was just opened. */
void sl_lsp_docs_opened(sl_lsp_docs *d, sl_lsp_doc *opened, int64_t at);
void sl_lsp_docs_free(sl_lsp_docs *d);

/* --- cli/lsp/lint.c: the library over the documents ------------------------------------------- */

typedef struct sl_lsp_settings {
	char *config;                /* a config file for every document; NULL: each file's own */
	char **select, **ignore;     /* rule ids or categories */
	size_t n_select, n_ignore;
	bool no_project;             /* do not read the project's other files for facts */
	struct sl_run *project;      /* the project read once (sl_run_read_project) and lent to
					every lint; NULL until the next lint reads it */
	struct sl_config *project_cfg;   /* the config it was read under */
} sl_lsp_settings;

/* Reads {"config":, "select": [], "ignore": [], "noProject":} into s (what is absent is
** reset); false (and *why) when a value has the wrong type. */
bool sl_lsp_lint_settings(sl_lsp_settings *s, const json_t *o, const char **why);
void sl_lsp_lint_settings_free(sl_lsp_settings *s);
/* The project's files changed (a save, a watched file): the next lint reads it again. */
void sl_lsp_lint_forget_project(sl_lsp_settings *s);
/* Lints the documents which[0..n) in one run and sets each one's diagnostics and entries: a
** document whose text is its file's, under a kustomization's directory (or one), by its path
** (as `schedlint check` lints it: Kustomize builds from the disk), another as its buffer, which
** replaces its file; the project's facts
** lent from the project read once; and the other documents whose unsaved text holds facts
** (or hides those of their file) as buffers, so every rule sees each open file as the editor
** has it; they are linted too, and set (each document linted: fresh). *news (started zeroed;
** sl_lsp_news_free) gets the facts the others see of an edited document that changed
** (sl_run_file_fact_digests): the documents that read them (sl_lsp_news_read_by) are due again;
** each document linted keeps the keys it read (sl_run_file_reads). */
bool sl_lsp_lint_docs(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *const *which, size_t n,
		      sl_lsp_news *news);
/* The facts that change for the others when doc, an unsaved buffer whose facts they were
** linted with, is closed and its file (or none) speaks for it again: those whose digests differ
** between its buffer, as last linted, and its file (linted for them in a run of its own), into
** *news (started zeroed; sl_lsp_news_free); all of them when that cannot be told (not linted
** since opened or changed, a config error, memory). */
void sl_lsp_lint_closing(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc, sl_lsp_news *news);
/* The code actions for doc at the byte range [from, to): fixes and ignores of the diagnostics
** there (when quickfix is wanted), the fix-all action (when fix_all is wanted). */
json_t *sl_lsp_lint_actions(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc,
			    size_t from, size_t to, bool quickfix, bool fix_all);
/* The edits `schedlint fmt` makes to doc: [] when nothing is fixable or the buffer does not
** parse; NULL for memory. */
json_t *sl_lsp_lint_format(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc);
/* The Hover of the diagnostics at byte offset at: their rules' documentation; json null when
** none is there. */
json_t *sl_lsp_lint_hover(const sl_lsp_doc *doc, size_t at);

/* --- cli/lsp/server.c: the protocol ----------------------------------------------------------- */

typedef struct sl_lsp_server_options {
	int debounce_ms;             /* quiet time after a change before it is linted */
} sl_lsp_server_options;

/* Serves on in/out until exit or the end of the input; the process exit status: 0 after
** shutdown, 1 otherwise. */
int sl_lsp_server_run(int in, int out, const sl_lsp_server_options *opts);

#endif
