#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""completions.py BUILD_DIR: the generated completions, completing in the real shells.

bash (with bash-completion loaded, and without: COMP_WORDS/COMP_CWORD set as bash splits the
line, then _schedlint), fish (`complete -C LINE`) and zsh (an interactive zsh in a zpty with compinit,
tests/cli_docs/zsh_capture.zsh) complete the same lines: subcommands, options, --format,
--fail-on and --color values, rule ids and categories for --select/--ignore (after a comma too),
rule ids for `explain RULE`, and files. The expected rule ids and categories are those of
`schedlint rules --format json`; every one must be offered, so a missing rule id fails. Then the
completions generated from tests/cli_docs/fake_schedlint (a new option and a new rule) offer
them, and the built ones are shown to fail the rule check against the fake's rule list.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, 'tests', 'cli_docs')
FAILS = []
QUIET = []   # non-empty while a failure is expected: not printed
BASH_COMPLETION = '/usr/share/bash-completion/bash_completion'


def fail(msg):
    FAILS.append(msg)
    if not QUIET:
        print('completions.py: FAIL: ' + msg, file=sys.stderr)


def run(cmd, **kw):
    # no time limit: meson's timeout ends a shell that hangs (and tests/harness.py its children)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding='utf-8',
                          cwd=ROOT, **kw)


def bash_words(line):
    """COMP_WORDS as bash makes them: split at blanks, and at = and : (COMP_WORDBREAKS)."""
    words = []
    for w in line.split(' '):
        parts = [p for p in re.split(r'([=:])', w) if p != ''] or ['']
        words.extend(parts)
    return words


def complete_bash(script, line, loaded=True):
    words = bash_words(line)
    qw = ' '.join("'" + w.replace("'", "'\\''") + "'" for w in words)
    prog = ('%s source %s; COMP_WORDS=(%s); COMP_CWORD=%d; COMP_LINE=%s; COMP_POINT=${#COMP_LINE}; '
            '_schedlint schedlint "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; '
            'printf "%%s\\n" "${COMPREPLY[@]}"') % (
        'source %s;' % BASH_COMPLETION if loaded else '',
        script, qw, len(words) - 1, "'" + line + "'")
    p = run(['bash', '--norc', '--noprofile', '-c', prog])
    if p.returncode != 0 or p.stderr.strip():
        fail('bash on "%s": %s' % (line, p.stderr.strip()))
    return [c for c in p.stdout.split('\n') if c]


def complete_bash_alone(script, line):
    """bash without bash-completion loaded: the script's own fallbacks."""
    return complete_bash(script, line, loaded=False)


def complete_fish(script, line):
    p = run(['fish', '--no-config', '-c', 'source %s; complete -C %s' % (script, fish_quote(line))])
    if p.returncode != 0 or p.stderr.strip():
        fail('fish on "%s": %s' % (line, p.stderr.strip()))
    return [c.split('\t')[0] for c in p.stdout.split('\n') if c]


def fish_quote(s):
    return "'" + s.replace('\\', '\\\\').replace("'", "\\'") + "'"


def complete_zsh(script, line):
    with tempfile.TemporaryDirectory() as fpath:
        shutil.copy(script, os.path.join(fpath, '_schedlint'))
        p = run(['zsh', '-f', os.path.join(HERE, 'zsh_capture.zsh'), fpath, line])
    if p.returncode != 0:
        fail('zsh on "%s": exit %d %s' % (line, p.returncode, p.stderr.strip()))
    return [c for c in p.stdout.split('\n') if c]


def last_item(c):
    """A candidate's last item: what follows the option's = and the list's last comma."""
    return re.split(r'[=,]', c)[-1]


def check(shell, complete, script, rules, categories, commands):
    def cands(line, strip=last_item):
        return sorted({strip(c) for c in complete(script, line)})

    def exact(line, want, strip=last_item):
        got = cands(line, strip)
        if got != sorted(set(want)):
            fail('%s: "%s" lacks %s, offers more: %s' % (
                shell, line, short(sorted(set(want) - set(got))), short(sorted(set(got) - set(want)))))

    def has(line, want, strip=last_item, absent=()):
        got = cands(line, strip)
        lacking = sorted(set(want) - set(got))
        if lacking:
            fail('%s: "%s" does not offer %s (offers %s)' % (shell, line, short(lacking), short(got)))
        extra = sorted(set(absent) & set(got))
        if extra:
            fail('%s: "%s" offers %s' % (shell, line, extra))

    exact('schedlint --select ', rules + categories)
    # zsh's _values leaves out what the list already holds
    has('schedlint --select gpu,', [x for x in rules + categories if x != 'gpu'])
    exact('schedlint check --ignore=gpu-req', [r for r in rules if r.startswith('gpu-req')])
    exact('schedlint explain ', rules)
    exact('schedlint --sel', ['--select'])
    exact('schedlint --fail-on ', ['error', 'warning', 'info'])
    exact('schedlint --color ', ['auto', 'always', 'never'])
    has('schedlint --format ', ['text', 'json', 'sarif'])
    has('schedlint rules --format ', ['text', 'json', 'markdown'], absent=['sarif'])
    has('schedlint ', commands)
    has('schedlint fmt --', ['--unsafe-fixes', '--stdin-filename'], absent=['--fix', '--select'])
    has('schedlint -c tests/cli_docs/zsh_cap', ['zsh_capture.zsh'], strip=os.path.basename)
    has('schedlint check tests/cli_docs/fake_sch', ['fake_schedlint'], strip=os.path.basename)


def short(xs):
    return xs if len(xs) < 8 else xs[:6] + ['... (%d in all)' % len(xs)]


def main():
    build = os.path.abspath(sys.argv[1])
    schedlint = os.path.join(build, 'schedlint')
    env = dict(os.environ, ASAN_OPTIONS='detect_leaks=0')
    rules_json = json.loads(subprocess.run([schedlint, 'rules', '--format', 'json'], cwd=tempfile.gettempdir(),
                                           stdout=subprocess.PIPE, check=True, env=env).stdout)
    rules = sorted(r['id'] for r in rules_json)
    categories = sorted({r['category'] for r in rules_json})
    main_help = subprocess.run([schedlint, '--help'], stdout=subprocess.PIPE, text=True, env=env).stdout
    commands = re.findall(r'^ +schedlint \[?([a-z]+)\]?', main_help, re.M)
    comp = os.path.join(build, 'completions')
    if not os.path.exists(BASH_COMPLETION):
        fail('%s is missing (tools/setup --test installs bash-completion)' % BASH_COMPLETION)
    shells = [('bash', complete_bash, os.path.join(comp, 'schedlint')),
              ('bash without bash-completion', complete_bash_alone, os.path.join(comp, 'schedlint')),
              ('fish', complete_fish, os.path.join(comp, 'schedlint.fish')),
              ('zsh', complete_zsh, os.path.join(comp, '_schedlint'))]
    for shell, complete, script in shells:
        if not shutil.which(shell.split()[0]):
            fail('%s is not installed (tools/setup --test installs it)' % shell)
            continue
        check(shell, complete, script, rules, categories, commands)

    # what another branch adds comes through with no edit; a rule missing from a completion fails
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(HERE, 'fake_schedlint')
        fenv = dict(env, SCHEDLINT_REAL=schedlint)
        for shell, complete, script in shells:
            if not shutil.which(shell.split()[0]):
                continue
            out = os.path.join(tmp, os.path.basename(script))
            p = subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'gen_completions.py'),
                                '--schedlint', fake, '--shell', shell.split()[0], '--output', out],
                               env=fenv, stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                fail('gen_completions.py --shell %s on fake_schedlint: %s' % (shell, p.stderr))
                continue
            before = len(FAILS)
            check(shell, complete, out, rules + ['fake-drift-rule'], categories + ['fakecat'], commands)
            got = complete(out, 'schedlint --fake-dr')
            if '--fake-drift-option' not in got:
                fail('%s: the new option --fake-drift-option is not completed (%s)' % (shell, got))
            got = {last_item(c) for c in complete(out, 'schedlint --fake-format ')}
            if 'fakefmt' not in got:
                fail('%s: the new option\'s values are not completed (%s)' % (shell, sorted(got)))
            got = {os.path.basename(c) for c in complete(out, 'schedlint --fake-format fakefmt:tests/cli_docs/zsh_cap')}
            if 'zsh_capture.zsh' not in got:
                fail('%s: no file after FORMAT: (%s)' % (shell, sorted(got)))
            if len(FAILS) > before:
                continue
            # the built completion lacks the fake rule: the same check must say so
            QUIET.append(1)
            check(shell, complete, script, rules + ['fake-drift-rule'], categories, commands)
            QUIET.clear()
            if not any('fake-drift-rule' in f for f in FAILS[before:]):
                FAILS.append('x')
                print('completions.py: FAIL: %s: a missing rule id is not caught' % shell,
                      file=sys.stderr)
            else:
                del FAILS[before:]
                print('completions.py: %s: a missing rule id is caught (expected)' % shell)
    if FAILS:
        return 1
    print('completions.py: ok (bash with and without bash-completion, fish, zsh; %d rule ids, %d categories, %d commands)'
          % (len(rules), len(categories), len(commands)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
