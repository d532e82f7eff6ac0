#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen_man.py: the man pages, from the program and the config schema (meson runs it).

  gen_man.py --schedlint BIN --template docs/man/schedlint.1.scd --scdoc SCDOC --output schedlint.1
  gen_man.py --schema docs/schedlint.schema.json --template docs/man/schedlint-config.5.scd ...

The template is scdoc with hand-written prose; a line `@NAME@` is replaced with what this script
generates: for schedlint(1) from `schedlint --help` and each `schedlint COMMAND --help`
(tools/cli_help.py: @SUMMARY@, @SYNOPSIS@, @COMMANDS@, @OPTIONS@, @EXIT_STATUS@, @NOTES@), for
schedlint-config(5) from the schema (@SCHEMA_DESCRIPTION@, @KEYS@). scdoc makes the roff. So a
new option or key is in the man page when it is in --help or the schema, with no edit here.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_help  # noqa: E402


def esc(text):
    """Text as scdoc text: its markup characters literal."""
    return re.sub(r'([\\*_])', r'\\\1', text)


def para(text):
    """A paragraph's lines joined; help text wraps at 80 columns, the man page itself."""
    return ' '.join(line.strip() for line in text.splitlines() if line.strip())


def entry(tag, *paragraphs):
    """A tagged paragraph: the tag (scdoc markup), then its indented text."""
    body = [t for t in paragraphs if t]
    return tag + '\n' + ('\n\t\n'.join('\t' + esc(t) for t in body) if body else '\t') + '\n'


def option_tag(o):
    names = ', '.join('*' + esc(n) + '*' for n in o.names)
    return names + (' _' + esc(o.arg) + '_' if o.arg else '')


def paragraphs(text):
    out, cur = [], []
    for line in text.splitlines():
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def help_prose(cli):
    """The main help's paragraphs that are neither usage nor an option table: by command
    ("Options of fmt: ..." and the lines after it), exit status, the rest."""
    by_cmd, exit_status, notes = {}, [], []
    blocks = paragraphs(cli.help)
    for block in blocks[1:]:
        first = block[0]
        if first.rstrip() == 'Usage:' or re.match(r'^Options of [a-z]+:\s*$', first):
            continue
        m = re.match(r'^Options of ([a-z]+):\s*(.*)$', first)
        # a paragraph may hold several sentences' worth: split where an "Exit status:" starts
        text = '\n'.join(block)
        if text.startswith('Exit status:'):
            exit_status.append(para(text[len('Exit status:'):]))
        elif m:
            by_cmd.setdefault(m.group(1), []).append(para(text))
        else:
            notes.append(para(text))
    return by_cmd, exit_status, notes


def command_prose(cmd):
    """A command's own --help lines that are neither its usage line nor its option table."""
    if not cmd.help:
        return []
    lines = cmd.help.splitlines()[1:]
    lines = cli_help.parse_table(lines, cli_help.Command(cmd.name))
    return [para('\n'.join(b)) for b in paragraphs('\n'.join(lines))]


def gen_schedlint_1(cli):
    by_cmd, exit_status, notes = help_prose(cli)
    title = para('\n'.join(paragraphs(cli.help)[0]))
    summary = re.sub(r'^schedlint: ', '', title)
    out = {'SUMMARY': esc(summary[:1].upper() + summary[1:] + ('' if summary.endswith('.') else '.'))}
    synopsis = []
    for c in cli.commands.values():
        synopsis.append('*schedlint* ' + esc(c.usage[len('schedlint '):]))
    if cli.globals:
        synopsis.append('*schedlint* ' + ' | '.join('*' + esc(o.long) + '*' for o in cli.globals))
    out['SYNOPSIS'] = '\n\n'.join(synopsis)
    cmds = []
    for c in cli.commands.values():
        extra = command_prose(c) + by_cmd.get(c.name, [])
        default = 'The default command: *schedlint* _PATH..._ is *schedlint check* _PATH..._.' \
            if c.default else ''
        body = [c.summary[:1].upper() + c.summary[1:] if c.summary else '', 'Usage: ' + c.usage]
        tag = '*' + esc(c.name) + '*'
        text = entry(tag, *body, *extra)
        if default:
            text = text.rstrip('\n') + '\n\t\n\t' + default + '\n'
        cmds.append(text)
    out['COMMANDS'] = '\n'.join(cmds)
    opts = []
    for c in cli.commands.values():
        if not c.options:
            continue
        opts.append('## Options of ' + esc(c.name) + '\n')
        for o in c.options:
            desc = o.desc[:1].upper() + o.desc[1:] if o.desc else ''
            values = ''
            if o.values and '|' not in (o.arg or ''):
                values = 'Values: ' + ', '.join(o.values) + '.'
            opts.append(entry(option_tag(o), desc, values))
    out['OPTIONS'] = '\n'.join(opts)
    out['EXIT_STATUS'] = '\n\n'.join(esc(t) for t in exit_status)
    out['NOTES'] = '\n\n'.join(esc(t) for t in notes)
    return out


# --- schedlint-config(5) from the JSON Schema ---

def resolve(schema, node):
    while isinstance(node, dict) and '$ref' in node:
        ref = node['$ref']
        if not ref.startswith('#/'):
            raise SystemExit('gen_man.py: unsupported $ref ' + ref)
        target = schema
        for part in ref[2:].split('/'):
            target = target[part.replace('~1', '/').replace('~0', '~')]
        rest = {k: v for k, v in node.items() if k != '$ref'}
        node = {**target, **rest}
    return node


def alternatives(schema, node):
    """node and the alternatives of its anyOf/oneOf, resolved."""
    node = resolve(schema, node)
    alts = [node]
    for key in ('anyOf', 'oneOf'):
        for a in node.get(key, []):
            alts.extend(alternatives(schema, a))
    return alts


def type_of(schema, node):
    """A short description of what a value may be: string, array of string, one of the values."""
    names = []
    for a in alternatives(schema, node):
        t = a.get('type')
        ts = t if isinstance(t, list) else [t] if t else []
        if 'enum' in a and not ts:
            ts = sorted({'null' if v is None else type(v).__name__.replace('str', 'string')
                         .replace('bool', 'boolean').replace('int', 'integer') for v in a['enum']})
        for x in ts:
            if x == 'array':
                items = a.get('items')
                inner = type_of(schema, items) if items else 'any'
                x = 'array of ' + (inner if '|' not in inner else '(' + inner + ')')
            elif x == 'object' and 'properties' not in a and isinstance(a.get('additionalProperties'), dict):
                x = 'map of ' + type_of(schema, a['additionalProperties'])
            if x and x not in names:
                names.append(x)
    # null is "unset", which every key allows
    return ' | '.join(n for n in names if n != 'null') or 'null'


def keys(schema, node, path, out):
    """Every key under node, depth first: (path, node's alternatives, required)."""
    alts = alternatives(schema, node)
    seen = []
    for a in alts:
        for name, sub in a.get('properties', {}).items():
            p = path + '.' + name if path else name
            if p in seen:
                continue
            seen.append(p)
            out.append((p, [resolve(schema, x) for s in alts
                            for x in [s.get('properties', {}).get(name)] if x is not None],
                        any(name in s.get('required', []) for s in alts)))
            keys(schema, sub, p, out)
        items = a.get('items')
        if isinstance(items, dict):
            keys(schema, items, path + '[]', out)
    return out


def describe(schema, subs, required):
    texts, enums, defaults = [], [], []
    types = []
    for s in subs:
        for a in alternatives(schema, s):
            d = a.get('description')
            if d and d not in texts:
                texts.append(d)
            for v in a.get('enum', []):
                if v is not None and v not in enums:
                    enums.append(v)
            if 'default' in a and a['default'] not in defaults:
                defaults.append(a['default'])
            items = a.get('items')
            if isinstance(items, dict):
                kinds = alternatives(schema, items)
                label = 'Each item: ' if len(kinds) == 1 else 'One kind of item: '
                for i in kinds:
                    d = i.get('description')
                    if d and label + d not in texts:
                        texts.append(label + d)
                    for v in i.get('enum', []):
                        if v is not None and v not in enums:
                            enums.append(v)
        t = type_of(schema, s)
        if t not in types:
            types.append(t)
    lines = ['Type: ' + ' or '.join(types) + ('; required' if required else '') + '.']
    lines += texts
    if enums:
        lines.append('Values: ' + ', '.join(str(v) for v in enums) + '.')
    for d in defaults:
        lines.append('Default: ' + json.dumps(d) + '.')
    return lines


def gen_schedlint_config_5(schema):
    out = {'SCHEMA_DESCRIPTION': esc(schema.get('description', ''))}
    entries = []
    for path, subs, required in keys(schema, schema, '', []):
        entries.append(entry('*' + esc(path) + '*', *describe(schema, subs, required)))
    out['KEYS'] = '\n'.join(entries)
    return out


def fill(template, parts, template_name):
    def sub(m):
        name = m.group(1)
        if name not in parts:
            raise SystemExit('%s: unknown placeholder @%s@' % (template_name, name))
        return parts[name]
    return re.sub(r'^@([A-Z_]+)@$', sub, template, flags=re.M)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--schedlint', help='the built schedlint (for schedlint(1))')
    ap.add_argument('--schema', help='docs/schedlint.schema.json (for schedlint-config(5))')
    ap.add_argument('--template', required=True)
    ap.add_argument('--scdoc', help='scdoc; without it the scdoc source is written')
    ap.add_argument('--output', required=True)
    a = ap.parse_args()
    if bool(a.schedlint) == bool(a.schema):
        ap.error('give one of --schedlint and --schema')
    with open(a.template, encoding='utf-8') as f:
        template = f.read()
    if a.schedlint:
        parts = gen_schedlint_1(cli_help.load(a.schedlint))
    else:
        with open(a.schema, encoding='utf-8') as f:
            parts = gen_schedlint_config_5(json.load(f))
    scd = fill(template, parts, a.template)
    if a.scdoc:
        p = subprocess.run([a.scdoc], input=scd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode != 0:
            with open(a.output + '.scd', 'w', encoding='utf-8') as f:
                f.write(scd)
            raise SystemExit('gen_man.py: scdoc failed on %s.scd: %s' % (a.output, p.stderr.strip()))
        # roff in ASCII: a non-ASCII character as its groff escape, whatever the reader's locale
        scd = re.sub(r'[^\x00-\x7f]', lambda m: '\\[u%04X]' % ord(m.group()), p.stdout)
    with open(a.output, 'w', encoding='utf-8') as f:
        f.write(scd)


if __name__ == '__main__':
    main()
