/* SPDX-License-Identifier: Apache-2.0
** positions.c: where every node of a config stands: a cheap libyaml pass over the bytes
** libcyaml then binds, which checks the syntax and the nesting and expansion limits, and
** records each node's line and column by its path ("cluster.node-pools[0].name"). */
#include "config/load.h"

static void posmap_free(struct posmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
}

/* The last node recorded at path, or NULL. */
const struct pos *sl_config__posmap_find(const struct posmap *m, const char *path)
{
	for (size_t i = m->n; i > 0; i--)
		if (strcmp(m->v[i - 1].path, path) == 0)
			return &m->v[i - 1];
	return NULL;
}

/* parent + "." + key (just key at the root), malloc'd. */
char *sl_config__path_key(const char *parent, const char *key)
{
	char *p;

	if (!(p = sl_xprintf("%s%s%s", parent, *parent ? "." : "", key)))
		return NULL;
	return p;
}

char *sl_config__path_index(const char *parent, size_t i)
{
	char *p;

	if (!(p = sl_xprintf("%s[%zu]", parent, i)))
		return NULL;
	return p;
}

void sl_config__scan_free(struct scan *s)
{
	posmap_free(&s->map);
	for (size_t i = 0; i < s->depth; i++) {
		free(s->stack[i].path);
		free(s->stack[i].key);
		free(s->stack[i].anchor);
	}
	for (size_t i = 0; i < s->n_anchors; i++)
		free(s->anchors[i].name);
	free(s->anchors);
}

static sl_err add_anchor(struct scan *s, const char *name, size_t nodes)
{
	if (s->n_anchors == s->cap_anchors) {
		size_t cap = s->cap_anchors ? 2 * s->cap_anchors : 8;
		struct anchor *v = sl_xrealloc(s->anchors, cap * sizeof *v);

		if (v == NULL)
			return SL_ENOMEM;
		s->anchors = v;
		s->cap_anchors = cap;
	}
	s->anchors[s->n_anchors].name = sl_xstrdup(name);
	if (s->anchors[s->n_anchors].name == NULL)
		return SL_ENOMEM;
	s->anchors[s->n_anchors++].nodes = nodes;
	return SL_OK;
}

static size_t anchor_nodes(const struct scan *s, const char *name)
{
	for (size_t i = s->n_anchors; i > 0; i--)
		if (strcmp(s->anchors[i - 1].name, name) == 0)
			return s->anchors[i - 1].nodes;
	return 1;
}

/* Adds n nodes to every open container and to the total. */
static void count_nodes(struct scan *s, size_t n)
{
	for (size_t i = 0; i < s->depth; i++)
		s->stack[i].nodes += n;
	s->total += n;
}

/* Appends a node at path (taking ownership of path, freed on failure). */
static sl_err posmap_add(struct posmap *m, char *path, unsigned sl_config__key_line, unsigned key_col,
			 const yaml_event_t *ev, enum node_kind kind)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 32;
		struct pos *v = sl_xrealloc(m->v, cap * sizeof *v);

		if (v == NULL) {
			free(path);
			return SL_ENOMEM;
		}
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n++] = (struct pos){
		.path = path, .key_line = sl_config__key_line, .key_col = key_col,
		.line = ev->start_mark.line + 1, .col = ev->start_mark.column + 1,
		.kind = kind,
	};
	return SL_OK;
}

/* Records one node event (scalar, alias, sequence or mapping start): its path and position,
** and pushes a frame for a container. A scalar in key position becomes the pending key.
** Returns SL_OK, SL_ENOMEM, or SL_ECONFIG with *why set (too deep, a non-scalar key). */
static sl_err scan_node(struct scan *s, const yaml_event_t *ev, enum node_kind kind,
			const char **why)
{
	struct frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
	struct frame *f;
	char *path;
	unsigned sl_config__key_line = 0, key_col = 0;
	const yaml_char_t *anchor;
	sl_err err;

	if (top != NULL && top->is_map && top->want_key) {
		if (kind != NODE_SCALAR) {
			*why = "a mapping key must be a plain string";   /* libcyaml fails on these */
			return SL_ECONFIG;
		}
		top->key = sl_xstrdup((const char *)ev->data.scalar.value);
		if (top->key == NULL)
			return SL_ENOMEM;
		top->key_line = ev->start_mark.line + 1;
		top->key_col = ev->start_mark.column + 1;
		top->want_key = false;
		return SL_OK;
	}
	if (top != NULL && top->is_map) {
		path = sl_config__path_key(top->path, top->key);
		sl_config__key_line = top->key_line;
		key_col = top->key_col;
		free(top->key);
		top->key = NULL;
		top->want_key = true;
	} else if (top != NULL) {
		path = sl_config__path_index(top->path, top->index++);
		sl_config__key_line = ev->start_mark.line + 1;
		key_col = ev->start_mark.column + 1;
	} else {
		path = sl_xstrdup("");
	}
	if (path == NULL)
		return SL_ENOMEM;
	err = posmap_add(&s->map, path, sl_config__key_line, key_col, ev, kind);
	if (err != SL_OK)
		return err;

	switch (kind) {
	case NODE_ALIAS:
		count_nodes(s, anchor_nodes(s, (const char *)ev->data.alias.anchor));
		return SL_OK;
	case NODE_SCALAR:
		count_nodes(s, 1);
		anchor = ev->data.scalar.anchor;
		return anchor != NULL ? add_anchor(s, (const char *)anchor, 1) : SL_OK;
	case NODE_MAP:
		anchor = ev->data.mapping_start.anchor;
		break;
	case NODE_LIST:
	default:
		anchor = ev->data.sequence_start.anchor;
		break;
	}
	count_nodes(s, 1);
	if (s->depth == MAX_DEPTH) {
		*why = "nesting too deep";
		return SL_ECONFIG;
	}
	f = &s->stack[s->depth];
	*f = (struct frame){ .is_map = kind == NODE_MAP, .want_key = kind == NODE_MAP, .nodes = 1 };
	s->depth++;
	f->path = sl_xstrdup(path);
	if (f->path == NULL)
		return SL_ENOMEM;
	if (anchor != NULL) {
		f->anchor = sl_xstrdup((const char *)anchor);
		if (f->anchor == NULL)
			return SL_ENOMEM;
	}
	return SL_OK;
}

/* Pops the container that ends, remembering its size when it is anchored. */
static sl_err scan_end(struct scan *s)
{
	struct frame f = s->stack[--s->depth];
	sl_err err = SL_OK;

	if (f.anchor != NULL)
		err = add_anchor(s, f.anchor, f.nodes);
	free(f.path);
	free(f.key);
	free(f.anchor);
	return err;
}

/* Line and column (1-based) of a libyaml error. */
static void yaml_error_pos(const yaml_parser_t *p, const char *buf, unsigned *line, unsigned *col)
{
	if (p->error == YAML_READER_ERROR) {
		/* reader errors carry a byte offset only */
		*line = 1;
		*col = 1;
		for (size_t i = 0; i < p->problem_offset && buf[i] != '\0'; i++) {
			if (buf[i] == '\n') {
				(*line)++;
				*col = 1;
			} else {
				(*col)++;
			}
		}
		return;
	}
	*line = p->problem_mark.line + 1;
	*col = p->problem_mark.column + 1;
}

/* Checks the YAML and fills s->map. SL_ECONFIG on invalid YAML, more than one document or
** limits exceeded, with the message in *error_out. */
sl_err sl_config__scan_file(struct scan *s, const char *path, const char *buf, size_t len,
			    char **error_out)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	sl_err err = SL_OK;
	int docs = 0;
	bool done = false;
	const char *why = NULL;

	if (!yaml_parser_initialize(&parser))
		return SL_ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done && err == SL_OK) {
		if (!yaml_parser_parse(&parser, &ev)) {
			unsigned line, col;

			if (parser.error == YAML_MEMORY_ERROR) {
				err = SL_ENOMEM;
				break;
			}
			yaml_error_pos(&parser, buf, &line, &col);
			if (parser.context != NULL)
				err = sl_config__fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid YAML: %s (%s)",
					path, line, col, parser.problem, parser.context);
			else
				err = sl_config__fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid YAML: %s",
					path, line, col,
					parser.problem ? parser.problem : "syntax error");
			break;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				err = sl_config__fail(error_out, SL_ECONFIG,
					"%s:%zu:%zu: error: more than one YAML document in the configuration",
					path, ev.start_mark.line + 1, ev.start_mark.column + 1);
			break;
		case YAML_SCALAR_EVENT:
			err = scan_node(s, &ev, NODE_SCALAR, &why);
			break;
		case YAML_ALIAS_EVENT:
			err = scan_node(s, &ev, NODE_ALIAS, &why);
			break;
		case YAML_SEQUENCE_START_EVENT:
			err = scan_node(s, &ev, NODE_LIST, &why);
			break;
		case YAML_MAPPING_START_EVENT:
			err = scan_node(s, &ev, NODE_MAP, &why);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			err = scan_end(s);
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		if (err == SL_OK && s->total > MAX_EXPANDED)
			why = "too many nodes (aliases expand to more than 100000)";
		if (why != NULL)
			err = sl_config__fail(error_out, SL_ECONFIG, "%s:%zu:%zu: error: %s",
				path, ev.start_mark.line + 1, ev.start_mark.column + 1, why);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return err;
}
