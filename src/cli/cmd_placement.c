/* SPDX-License-Identifier: Apache-2.0
** cmd_placement.c: `schedlint placement`: where every unit can land, pool by pool
** (spec/cluster.md §3): a text grid that fits 80 columns with the reasons under it, JSON (every
** verdict with its reasons and positions), or a Markdown table for a pull request or
** $GITHUB_STEP_SUMMARY; with the pools of several clusters (eksctl ClusterConfigs), a table per
** cluster. Exits 1 when a unit lands nowhere (what no-matching-node-pool reports), 2 with a
** message when no pool is known. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

#define WIDTH 80
#define UNIT_COL 30   /* the unit column of the text grid */
#define CELL 9        /* a pool column: a word of up to 8 letters and a space */

/* False for a pool that does not apply to the unit: a Kueue flavor for a unit Kueue does not
** admit, the nodes KAITO provisions for another Workspace (or any pool but its own, for a
** Workspace with an instanceType). */
static bool applies(const sl_placement_cell *c)
{
	return !c->brief || (strcmp(c->brief, "queue") != 0 && strcmp(c->brief, "kaito") != 0);
}

/* True when some unit lands on some pool only as far as can be told (sl_placement_cell.unsure). */
static bool any_unsure(const sl_placement_row *rows, size_t nr, size_t np)
{
	for (size_t r = 0; r < nr; r++)
		for (size_t i = 0; rows[r].scheduled && rows[r].cells && i < np; i++)
			if (rows[r].cells[i].unsure)
				return true;
	return false;
}

#define UNSURE_LEGEND "it lands unless the rendered value of a placeholder in a taint or a " \
	"toleration (${X}, {{ ... }}) decides otherwise"

static const char *spot_word(int spot)
{
	return spot > 0 ? "spot" : spot < 0 ? "may be spot" : "on-demand";
}

static void size_text(char *buf, size_t n, const sl_pool_info *p)
{
	if (p->max_nodes < 0)
		snprintf(buf, n, "size unknown");
	else if (p->min_nodes >= 0 && p->min_nodes != p->max_nodes)
		snprintf(buf, n, "%ld-%ld nodes", p->min_nodes, p->max_nodes);
	else
		snprintf(buf, n, "%ld node%s", p->max_nodes, p->max_nodes == 1 ? "" : "s");
}

/* Prints s escaped, cut or padded to exactly w columns (ASCII-ish labels; a cut ends in "~");
** w 0: unpadded, at most a cell's width. */
static void cell(FILE *out, const char *s, int w)
{
	char *e = sl_escape_str(s ? s : "", SL_SINK_TEXT);
	const char *t = e ? e : "?";
	int len = (int)strlen(t);
	if (w == 0)   /* the last column: as it is, up to a cell's width */
		fprintf(out, "%.*s", CELL - 1, t);
	else if (len > w)
		fprintf(out, "%.*s~", w - 1, t);
	else
		fprintf(out, "%s%*s", t, w - len, "");
	free(e);
}

/* The clusters of the pools, in pool order (n of them; none when the pools name none), and
** room for the indexes of one table's pools (table_pools). */
struct clusters {
	const char **names;
	size_t n;
	size_t *idx;
};

static void clusters_free(struct clusters *c)
{
	free(c->names);
	free(c->idx);
}

/* False when out of memory. */
static bool clusters_of(struct clusters *c, const sl_pool_info *pools, size_t np)
{
	c->n = 0;
	c->names = calloc(np ? np : 1, sizeof *c->names);
	c->idx = calloc(np ? np : 1, sizeof *c->idx);
	if (!c->names || !c->idx) {
		clusters_free(c);
		return false;
	}
	for (size_t i = 0; i < np; i++) {
		bool seen = !pools[i].cluster;
		for (size_t k = 0; k < c->n && !seen; k++)
			seen = strcmp(c->names[k], pools[i].cluster) == 0;
		if (!seen)
			c->names[c->n++] = pools[i].cluster;
	}
	return true;
}

/* The tables to print: one per cluster when the pools name two or more, else one of all. */
static size_t tables(const struct clusters *cl)
{
	return cl->n > 1 ? cl->n : 1;
}

/* Table t's pools, their indexes into cl->idx; how many. *name is its cluster, NULL for the one
** table of all the pools. */
static size_t table_pools(struct clusters *cl, size_t t, const sl_pool_info *pools, size_t np,
			  const char **name)
{
	const char *c = cl->n > 1 ? cl->names[t] : NULL;
	size_t n = 0;
	for (size_t i = 0; i < np; i++)
		if (!c || !pools[i].cluster || strcmp(pools[i].cluster, c) == 0)
			cl->idx[n++] = i;
	*name = c;
	return n;
}

/* "training/gpu" when several clusters are shown, else "gpu" (escaped; free it). */
static char *pool_name(const sl_pool_info *p, bool clusters, sl_sink sink)
{
	char *n = NULL;
	if (clusters && p->cluster && asprintf(&n, "%s/%s", p->cluster, p->name) < 0)
		n = NULL;
	char *e = sl_escape_str(n ? n : p->name, sink);
	free(n);
	return e;
}

static size_t count_nowhere(const sl_placement_row *rows, size_t nr)
{
	size_t n = 0;
	for (size_t r = 0; r < nr; r++)
		n += rows[r].nowhere;
	return n;
}

/* Each line of reasons (one per failing filter), with a prefix. */
static void reason_lines(FILE *out, const char *prefix, const char *reasons, sl_sink sink)
{
	const char *s = reasons;
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *line = strndup(s, n);
		fputs(prefix, out);
		sl_escape_put(out, line ? line : "?", sink);
		fputc('\n', out);
		free(line);
		s = nl ? nl + 1 : NULL;
	}
}

/* The pools listing and the grid of the pools idx[0..np). */
static void text_table(FILE *out, const sl_pool_info *pools, const size_t *idx, size_t np,
		       const sl_placement_row *rows, size_t nr)
{
	fputs("Pools:\n", out);
	for (size_t k = 0; k < np; k++) {
		const sl_pool_info *p = &pools[idx[k]];
		char size[64];
		size_text(size, sizeof size, p);
		fputs("  ", out);
		cell(out, p->name, 16);
		fprintf(out, " %-8s %-3s %-11s %-14s ", p->source, p->gpu ? "GPU" : "",
			spot_word(p->spot), size);
		sl_escape_put(out, p->where, SL_SINK_TEXT);
		fputc('\n', out);
	}
	/* the grid, in blocks of as many pool columns as fit; the unit column takes the rest */
	size_t per = (WIDTH - UNIT_COL) / CELL;
	int ucol = WIDTH - (int)((np < per ? np : per) * CELL), longest = 5;
	for (size_t r = 0; r < nr; r++)
		if ((int)strlen(rows[r].unit) + 1 > longest)
			longest = (int)strlen(rows[r].unit) + 1;
	if (ucol > longest)
		ucol = longest;
	for (size_t first = 0; first < np; first += per) {
		size_t last = first + per < np ? first + per : np;
		fputc('\n', out);
		cell(out, "unit", ucol);
		for (size_t k = first; k < last; k++) {
			cell(out, pools[idx[k]].name, k + 1 < last ? CELL - 1 : 0);
			fputs(k + 1 < last ? " " : "\n", out);
		}
		for (size_t r = 0; r < nr; r++) {
			cell(out, rows[r].unit, ucol - 1);
			fputc(' ', out);
			for (size_t k = first; k < last; k++) {
				int w = k + 1 < last ? CELL - 1 : 0;   /* the last cell is not padded */
				const sl_placement_cell *c = rows[r].scheduled ? &rows[r].cells[idx[k]] : NULL;
				if (!c)
					cell(out, "nodeName", w);
				else if (c->lands)
					fprintf(out, c->unsure ? "\u2713?%*s" : "\u2713%*s",
						w > 1 + c->unsure ? w - 1 - c->unsure : 0, "");
				else
					cell(out, c->brief, w);
				fputs(k + 1 < last ? " " : "\n", out);
			}
		}
	}
}

/* How a grid report is written, text or Markdown: its tables, the legend of an unsure
** landing, and the "Lands nowhere" list (indented lines or a bullet list). */
struct grid_fmt {
	/* table t (0, 1, ...) of the pools idx[0..np), of cluster (NULL: the one table of all) */
	void (*table)(FILE *out, size_t t, const char *cluster, const sl_pool_info *pools,
		      const size_t *idx, size_t np, const sl_placement_row *rows, size_t nr);
	const char *unsure;                            /* the legend, when some landing is unsure */
	const char *heading, *unit_open, *unit_mid;   /* the unit as OPEN name MID path:line */
	void (*put)(FILE *out, const char *s);         /* a name or path, escaped for the sink */
	void (*reasons)(FILE *out, const char *pool, const char *reasons);
};

static void text_put(FILE *out, const char *s)
{
	sl_escape_put(out, s, SL_SINK_TEXT);
}

static void text_reasons(FILE *out, const char *pool, const char *reasons)
{
	char prefix[300];
	snprintf(prefix, sizeof prefix, "    %s: ", pool);
	reason_lines(out, prefix, reasons, SL_SINK_TEXT);
}

/* Table t: "Cluster NAME:" (when the pools name two or more), the pools and the grid. */
static void text_tables(FILE *out, size_t t, const char *cluster, const sl_pool_info *pools,
			const size_t *idx, size_t np, const sl_placement_row *rows, size_t nr)
{
	if (cluster) {
		fputs(t ? "\nCluster " : "Cluster ", out);
		sl_escape_put(out, cluster, SL_SINK_TEXT);
		fputs(":\n", out);
	}
	text_table(out, pools, idx, np, rows, nr);
}

static const struct grid_fmt grid_text = {
	text_tables, "\n\u2713?: " UNSURE_LEGEND ".\n",
	"\nLands nowhere:\n", "  ", " (", text_put, text_reasons,
};

/* Each unit that lands nowhere, with every pool's reasons; returns how many. */
static size_t lands_nowhere(FILE *out, const struct grid_fmt *f, const sl_pool_info *pools,
			    size_t np, bool clusters, const sl_placement_row *rows, size_t nr)
{
	size_t nowhere = 0;
	for (size_t r = 0; r < nr; r++) {
		if (!rows[r].nowhere)
			continue;
		if (nowhere++ == 0)
			fputs(f->heading, out);
		fputs(f->unit_open, out);
		f->put(out, rows[r].unit);
		fputs(f->unit_mid, out);
		f->put(out, rows[r].path);
		fprintf(out, ":%u)\n", rows[r].line);
		for (size_t i = 0; i < np; i++) {
			if (!applies(&rows[r].cells[i]))
				continue;   /* a flavor, a KAITO Workspace's nodes: not for it */
			char *name = pool_name(&pools[i], clusters, SL_SINK_TEXT);
			f->reasons(out, name ? name : "?", rows[r].cells[i].reasons);
			free(name);
		}
	}
	return nowhere;
}

/* The report in format f: a table per cluster (one of all the pools when they name fewer than
** two), the legend, the units that land nowhere. False, and nothing printed, when out of
** memory; else *nc is the clusters the pools name and *nowhere the units that land nowhere. */
static bool print_grid(FILE *out, const struct grid_fmt *f, const sl_pool_info *pools, size_t np,
		       const sl_placement_row *rows, size_t nr, size_t *nc, size_t *nowhere)
{
	struct clusters cl;
	if (!clusters_of(&cl, pools, np))
		return false;
	*nc = cl.n;
	for (size_t t = 0; t < tables(&cl); t++) {
		const char *name;
		size_t n = table_pools(&cl, t, pools, np, &name);
		f->table(out, t, name, pools, cl.idx, n, rows, nr);
	}
	if (any_unsure(rows, nr, np))
		fputs(f->unsure, out);
	*nowhere = lands_nowhere(out, f, pools, np, cl.n > 1, rows, nr);
	clusters_free(&cl);
	return true;
}

static void print_text(FILE *out, const sl_pool_info *pools, size_t np,
		       const sl_placement_row *rows, size_t nr)
{
	size_t nc, nowhere;
	if (!print_grid(out, &grid_text, pools, np, rows, nr, &nc, &nowhere))
		return;
	fprintf(out, "\n%zu unit%s, %zu pool%s", nr, nr == 1 ? "" : "s", np, np == 1 ? "" : "s");
	if (nc > 1)
		fprintf(out, " in %zu clusters", nc);
	fprintf(out, "; %zu unit%s land%s nowhere.\n", nowhere, nowhere == 1 ? "" : "s",
		nowhere == 1 ? "s" : "");
}

/* s for a Markdown table cell: escaped for a terminal, '|' and '<' made harmless. */
static void md(FILE *out, const char *s)
{
	for (const char *l = s ? s : ""; l; ) {   /* line by line: lines become <br> */
		const char *nl = strchr(l, '\n');
		char *line = strndup(l, nl ? (size_t)(nl - l) : strlen(l));
		char *e = line ? sl_escape_str(line, SL_SINK_TEXT) : NULL;
		for (const char *p = e ? e : "?"; *p; p++) {
			if (*p == '|')
				fputs("\\|", out);
			else if (*p == '<')
				fputs("&lt;", out);
			else
				fputc(*p, out);
		}
		free(e);
		free(line);
		if (nl)
			fputs("<br>", out);
		l = nl ? nl + 1 : NULL;
	}
}

/* A pool's reasons in the "Lands nowhere" list: a nested bullet. */
static void md_reasons(FILE *out, const char *pool, const char *reasons)
{
	fputs("  - ", out);
	md(out, pool);
	fputs(": ", out);
	md(out, reasons);
	fputc('\n', out);
}

/* The grid and the pools table of the pools idx[0..np), under a heading naming cluster. */
static void md_table(FILE *out, const char *cluster, const sl_pool_info *pools, const size_t *idx,
		     size_t np, const sl_placement_row *rows, size_t nr)
{
	fputs("### Where each unit can land", out);
	if (cluster) {
		fputs(": cluster ", out);
		md(out, cluster);
	}
	fputs("\n\n| unit |", out);
	for (size_t k = 0; k < np; k++) {
		fputc(' ', out);
		md(out, pools[idx[k]].name);
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (size_t k = 0; k < np; k++)
		fputs("---|", out);
	fputc('\n', out);
	for (size_t r = 0; r < nr; r++) {
		fputs("| ", out);
		md(out, rows[r].unit);
		fputs(" |", out);
		for (size_t k = 0; k < np; k++) {
			const sl_placement_cell *c = rows[r].scheduled ? &rows[r].cells[idx[k]] : NULL;
			if (!c)
				fputs(" nodeName |", out);
			else if (c->lands)
				fputs(c->unsure ? " \u2705? |" : " \u2705 |", out);
			else {
				fputs(" \u274c ", out);
				md(out, c->brief);
				fputs(" |", out);
			}
		}
		fputc('\n', out);
	}
	fputs("\n| pool | source | GPU | capacity | size | defined at |\n|---|---|---|---|---|---|\n", out);
	for (size_t k = 0; k < np; k++) {
		const sl_pool_info *p = &pools[idx[k]];
		char size[64];
		size_text(size, sizeof size, p);
		fputs("| ", out);
		md(out, p->name);
		fprintf(out, " | %s | %s | %s | %s | ", p->source, p->gpu ? "yes" : "no",
			spot_word(p->spot), size);
		md(out, p->where);
		fputs(" |\n", out);
	}
}

/* Table t: a blank line between tables, then the grid and the pools table. */
static void md_tables(FILE *out, size_t t, const char *cluster, const sl_pool_info *pools,
		      const size_t *idx, size_t np, const sl_placement_row *rows, size_t nr)
{
	if (t)
		fputc('\n', out);
	md_table(out, cluster, pools, idx, np, rows, nr);
}

static const struct grid_fmt grid_md = {
	md_tables, "\n\u2705?: " UNSURE_LEGEND ".\n",
	"\n#### Lands nowhere\n", "\n- **", "** (", md, md_reasons,
};

static void print_markdown(FILE *out, const sl_pool_info *pools, size_t np,
			   const sl_placement_row *rows, size_t nr)
{
	size_t nc, nowhere;
	print_grid(out, &grid_md, pools, np, rows, nr, &nc, &nowhere);
}

/* A JSON string holding s (schedlint/escape.h's SL_SINK_JSON: valid UTF-8); null for NULL. */
static json_t *jstr(const char *s)
{
	char *u = s ? sl_escape_str(s, SL_SINK_JSON) : NULL;
	json_t *j = u ? json_string(u) : json_null();
	free(u);
	return j;
}

static void print_json(FILE *out, const sl_pool_info *pools, size_t np,
		       const sl_placement_row *rows, size_t nr)
{
	json_t *jp = json_array(), *ju = json_array();
	for (size_t i = 0; i < np; i++)
		json_array_append_new(jp, json_pack("{s:o, s:s, s:o, s:o, s:i, s:b, s:s, s:I, s:I, s:o}",
			"name", jstr(pools[i].name), "source", pools[i].source,
			"where", jstr(pools[i].where),
			"path", jstr(pools[i].path ? pools[i].path : ""),
			"line", (int)pools[i].line, "gpu", pools[i].gpu,
			"spot", pools[i].spot > 0 ? "yes" : pools[i].spot < 0 ? "maybe" : "no",
			"min_nodes", (json_int_t)pools[i].min_nodes, "max_nodes",
			(json_int_t)pools[i].max_nodes, "cluster",
			jstr(pools[i].cluster)));
	for (size_t r = 0; r < nr; r++) {
		json_t *v = json_array();
		for (size_t i = 0; rows[r].scheduled && i < np; i++) {
			const sl_placement_cell *c = &rows[r].cells[i];
			json_t *reasons = json_array();
			const char *s = c->reasons;
			while (s && *s) {
				const char *nl = strchr(s, '\n');
				char *line = strndup(s, nl ? (size_t)(nl - s) : strlen(s));
				json_array_append_new(reasons, jstr(line ? line : "?"));
				free(line);
				s = nl ? nl + 1 : NULL;
			}
			json_array_append_new(v, json_pack("{s:o, s:b, s:b, s:o, s:o}", "pool",
				jstr(pools[i].name), "lands", c->lands, "unsure", c->unsure, "brief",
				c->brief ? json_string(c->brief) : json_null(), "reasons", reasons));
		}
		json_array_append_new(ju, json_pack("{s:o, s:o, s:i, s:i, s:b, s:b, s:o}", "unit",
			jstr(rows[r].unit), "path", jstr(rows[r].path),
			"line", (int)rows[r].line, "column", (int)rows[r].column,
			"scheduled", rows[r].scheduled, "lands_nowhere", rows[r].nowhere,
			"verdicts", v));
	}
	json_t *doc = json_pack("{s:o, s:o}", "pools", jp, "units", ju);
	json_dumpf(doc, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(doc);
}

static int usage(FILE *out)
{
	fputs("Usage: schedlint placement [OPTIONS] [PATH...]   where every unit can land, pool by pool\n"
	      "  -f, --format text|json|markdown   markdown: a table for a pull request or\n"
	      "                                    $GITHUB_STEP_SUMMARY (default text)\n"
	      "  -c, --config FILE                 the config whose cluster: (node-pools) applies\n"
	      "                                    (default: the nearest .schedlint.yaml from\n"
	      "                                    the current directory up)\n"
	      "      --no-project                  read only PATH..., not the project's other files\n"
	      "Pools come from cluster.node-pools, Karpenter NodePools, eksctl ClusterConfigs,\n"
	      "`kubectl get nodes -o yaml` dumps and Kueue ResourceFlavors among the files, and the\n"
	      "nodes KAITO provisions for a Workspace's resource.instanceType. Exit 1\n"
	      "when a unit lands nowhere, 2 on errors and when no pool is known.\n", out);
	return out == stdout ? EXIT_CLEAN : EXIT_USAGE;
}

int sl_cmd_placement(int argc, char **argv)
{
	const char *format = "text", *config_path = NULL;
	bool no_project = false;
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"config", required_argument, NULL, 'c'},
		{"no-project", no_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:c:h", longopts, NULL)) != -1) {
		if (c == 'f')
			format = optarg;
		else if (c == 'c')
			config_path = optarg;
		else if (c == 'P')
			no_project = true;
		else if (c == 'h')
			return usage(stdout);
		else
			return usage(stderr);
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0 &&
	    strcmp(format, "markdown") != 0) {
		fprintf(stderr, "schedlint: error: unknown format \"");
		sl_escape_put(stderr, format, SL_SINK_TEXT);
		fputs("\" (expected text, json or markdown)\n", stderr);
		return EXIT_USAGE;
	}
	sl_config *cfg = NULL;
	int status = sl_cli_load_config(config_path, NULL, &cfg);
	if (status != EXIT_CLEAN)
		return status;
	sl_run_options opts = SL_RUN_OPTIONS_INIT;
	sl_run *run = NULL;
	char *msg = NULL;
	sl_err err = sl_run_new(cfg, &opts, &run, &msg);
	for (int i = optind; !err && i < argc; i++)
		err = strcmp(argv[i], "-") == 0 ? sl_run_add_fd(run, STDIN_FILENO, "-")
						: sl_run_add_path(run, argv[i]);
	if (!err && optind == argc)
		err = sl_run_add_path(run, ".");
	if (!err && !no_project)
		err = sl_run_add_project(run, NULL);
	if (!err)
		err = sl_run_lint(run);
	const sl_pool_info *pools = NULL;
	const sl_placement_row *rows = NULL;
	size_t np = 0, nr = 0;
	if (!err)
		err = sl_run_placement(run, &pools, &np, &rows, &nr);
	if (err) {
		fputs("schedlint: error: ", stderr);
		sl_escape_put(stderr, msg ? msg : sl_strerror(err), SL_SINK_TEXT);
		fputc('\n', stderr);
		status = err == SL_ENOMEM || err == SL_EINTERNAL ? EXIT_INTERNAL : EXIT_USAGE;
	} else if (np == 0) {
		fputs("schedlint: error: no node pools known: set cluster.node-pools in .schedlint.yaml, "
		      "or lint a Karpenter NodePool, an eksctl ClusterConfig or a `kubectl get nodes -o "
		      "yaml` dump with the manifests\n", stderr);
		status = EXIT_USAGE;
	} else {
		if (strcmp(format, "json") == 0)
			print_json(stdout, pools, np, rows, nr);
		else if (strcmp(format, "markdown") == 0)
			print_markdown(stdout, pools, np, rows, nr);
		else
			print_text(stdout, pools, np, rows, nr);
		if (count_nowhere(rows, nr))
			status = EXIT_FINDINGS;   /* as check does: a unit stays Pending */
	}
	free(msg);
	sl_run_free(run);
	sl_config_free(cfg);
	return status;
}
