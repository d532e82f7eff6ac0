#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""man.py BUILD_DIR: the man pages meson built, against what they are generated from.

- schedlint.1 and schedlint-config.5 render with no groff warning (`groff -man -ww -z`) and
  none from man(1) at 80 columns;
- every option that `schedlint --help` or a `schedlint COMMAND --help` names is in schedlint.1
  (an option of an option table or a usage line's brackets as an entry of its own), every command
  has an entry, and every line of the exit status is there;
- every key of docs/schedlint.schema.json is an entry of schedlint-config.5 and every enum value
  and description is in it;
- the checks fail on drift: with a fake option (tests/cli_docs/fake_schedlint) or a fake schema
  key, the built pages fail them; and the generator, run on the changed program or schema, makes
  pages that pass them with no edit.
The expectations are read from the help text and the schema with plain patterns here, not with
tools/cli_help.py, so a help line the generator misreads shows up as a missing option.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('man.py: FAIL: ' + msg, file=sys.stderr)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding='utf-8', **kw)


def helps(schedlint):
    """{name: help text}: the main help and each command's."""
    env = dict(os.environ, ASAN_OPTIONS='detect_leaks=0')
    main = run([schedlint, '--help'], env=env).stdout
    out = {'': main}
    for cmd in re.findall(r'^ +schedlint \[?([a-z]+)\]?', main, re.M):
        p = run([schedlint, cmd, '--help'], env=env)
        out[cmd] = p.stdout + p.stderr
    return out


def render(page):
    """The page as plain text: no hyphenation, lines as long as they come."""
    p = run(['groff', '-man', '-Tutf8', '-rHY=0', '-rLL=20000n', '-P-cbou', page])
    if p.returncode != 0:
        fail('groff cannot render %s: %s' % (page, p.stderr))
    return p.stdout


def check_renders(page):
    p = run(['groff', '-man', '-ww', '-z', page])
    if p.returncode != 0 or p.stderr.strip():
        fail('groff -man -ww -z %s: %s' % (page, p.stderr.strip()))
    p = run(['man', '-l', page], env=dict(os.environ, MANWIDTH='80'))
    if p.returncode != 0 or p.stderr.strip():
        fail('man -l %s: %s' % (page, p.stderr.strip()))
    if 'NAME' not in p.stdout:
        fail('man -l %s shows no NAME section' % page)


def tags(text):
    """The entry lines of a rendered page: a tagged paragraph's tag at the first indent."""
    return [line.strip() for line in text.splitlines()
            if re.match(r'^ {7}\S', line) and not re.match(r'^ {8}', line)]


def words(text):
    return ' '.join(text.split())


def check_man1(help_texts, text):
    """What of the help texts schedlint.1 (rendered) lacks."""
    missing = []
    entries = tags(text)
    flat = words(text)
    for name, h in help_texts.items():
        declared = set()
        for line in h.splitlines():
            m = re.match(r'^ +(?:(-[A-Za-z0-9]), )?(--[a-z][a-z0-9-]*)', line)
            if m:
                declared.update(x for x in m.groups() if x)
            m = re.match(r'^ +(-[A-Za-z0-9])(?: [A-Z]|  )', line)
            if m:
                declared.add(m.group(1))
            if line.startswith('Usage: schedlint'):
                declared.update(re.findall(r'\[(--?[A-Za-z][A-Za-z0-9-]*)', line))
        for opt in sorted(declared):
            if not any(re.search(r'(^|[ ,])' + re.escape(opt) + r'($|[ ,=])', e) for e in entries):
                missing.append('%s: option %s has no entry' % (name or 'schedlint', opt))
        for opt in sorted(set(re.findall(r'(?<![\w./$-])(--?[A-Za-z][A-Za-z0-9-]*)', h))):
            if not re.search(r'(?<![\w-])' + re.escape(opt) + r'(?![\w-])', flat):
                missing.append('%s: %s is not in the page' % (name or 'schedlint', opt))
    for cmd in re.findall(r'^ +schedlint \[?([a-z]+)\]?', help_texts[''], re.M):
        if cmd not in entries:
            missing.append('command %s has no entry' % cmd)
    m = re.search(r'^Exit status:(.*?)(?:\n\n|\Z)', help_texts[''], re.M | re.S)
    if m and words(m.group(1)) not in flat:
        missing.append('the exit status of --help')
    return missing


def schema_names(node, names, enums, descs):
    """Every property name, enum value and description anywhere in the schema."""
    if isinstance(node, dict):
        for k, v in node.get('properties', {}).items() if isinstance(node.get('properties'), dict) else []:
            names.add(k)
        for v in node.get('enum', []) if isinstance(node.get('enum'), list) else []:
            if isinstance(v, str):
                enums.add(v)
        if isinstance(node.get('description'), str):
            descs.add(node['description'])
        for v in node.values():
            schema_names(v, names, enums, descs)
    elif isinstance(node, list):
        for v in node:
            schema_names(v, names, enums, descs)


def check_man5(schema, text):
    missing = []
    names, enums, descs = set(), set(), set()
    schema_names(schema, names, enums, descs)
    entries = tags(text)
    flat = words(text)
    for n in sorted(names):
        if not any(re.search(r'(^|[.\]])' + re.escape(n) + '$', e) for e in entries):
            missing.append('key %s has no entry' % n)
    for v in sorted(enums):
        if not re.search(r'(?<![\w.-])' + re.escape(v) + r'(?![\w-])', flat):
            missing.append('value %s is not in the page' % v)
    for d in sorted(descs):
        if words(d) not in flat:
            missing.append('description "%s" is not in the page' % d[:60])
    return missing


def generate(args, out):
    p = run([sys.executable, os.path.join(ROOT, 'tools', 'gen_man.py')] + args +
            ['--scdoc', shutil.which('scdoc'), '--output', out])
    if p.returncode != 0:
        fail('gen_man.py %s: %s' % (' '.join(args), p.stderr.strip()))


def main():
    build = os.path.abspath(sys.argv[1])
    schedlint = os.path.join(build, 'schedlint')
    man1 = os.path.join(build, 'docs', 'man', 'schedlint.1')
    man5 = os.path.join(build, 'docs', 'man', 'schedlint-config.5')
    if not os.path.exists(man1):
        print('man.py: SKIP: no man pages in this build (-Dman=disabled or no scdoc)')
        return 77
    schema_path = os.path.join(ROOT, 'docs', 'schedlint.schema.json')
    with open(schema_path, encoding='utf-8') as f:
        schema = json.load(f)
    for page in (man1, man5):
        check_renders(page)
    real = helps(schedlint)
    text1, text5 = render(man1), render(man5)
    for m in check_man1(real, text1):
        fail('schedlint.1: ' + m)
    for m in check_man5(schema, text5):
        fail('schedlint-config.5: ' + m)

    with tempfile.TemporaryDirectory() as tmp:
        # a new option in --help: the built page fails the check; one generated from it passes
        fake = os.path.join(ROOT, 'tests', 'cli_docs', 'fake_schedlint')
        os.environ['SCHEDLINT_REAL'] = schedlint
        fake_helps = helps(fake)
        caught = check_man1(fake_helps, text1)
        for opt in ('--fake-drift-option', '--fake-format', '-F'):
            if not any(' ' + opt + ' has no entry' in m for m in caught):
                fail('the check does not catch %s missing from schedlint.1' % opt)
        page = os.path.join(tmp, 'schedlint.1')
        generate(['--schedlint', fake, '--template', os.path.join(ROOT, 'docs', 'man', 'schedlint.1.scd')], page)
        if os.path.exists(page):
            check_renders(page)
            for m in check_man1(fake_helps, render(page)):
                fail('schedlint.1 from a changed --help: ' + m)
        # a new key in the schema, the same way
        changed = json.loads(json.dumps(schema))
        changed['definitions']['cluster']['properties']['fake-drift-key'] = {
            'description': 'A key the man page must show.', 'enum': ['fake-value-1', 'fake-value-2']}
        changed_path = os.path.join(tmp, 'schema.json')
        with open(changed_path, 'w', encoding='utf-8') as f:
            json.dump(changed, f)
        caught = check_man5(changed, text5)
        for what in ('key fake-drift-key has no entry', 'value fake-value-2 is not in the page'):
            if what not in caught:
                fail('the check does not catch "%s" in schedlint-config.5' % what)
        page = os.path.join(tmp, 'schedlint-config.5')
        generate(['--schema', changed_path, '--template',
                  os.path.join(ROOT, 'docs', 'man', 'schedlint-config.5.scd')], page)
        if os.path.exists(page):
            check_renders(page)
            for m in check_man5(changed, render(page)):
                fail('schedlint-config.5 from a changed schema: ' + m)
            if 'cluster.fake-drift-key' not in tags(render(page)):
                fail('schedlint-config.5 from a changed schema has no cluster.fake-drift-key entry')
    if FAILS:
        return 1
    print('man.py: ok (%d help texts, %d options; the schema\'s keys; drift caught both ways)'
          % (len(real), len(set(re.findall(r'--[a-z][a-z0-9-]*', ''.join(real.values()))))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
