# SPDX-License-Identifier: Apache-2.0
"""cli_help.py: the command line as data, read from the built schedlint itself.

The one source of the man page schedlint(1) and of the shell completions is what the program
prints: `schedlint --help` (the commands and the options of check), `schedlint COMMAND --help`
(each command's usage line and option table) and `schedlint rules --format json` (rule ids and
categories). A new option appears in them as soon as its --help line does; nothing here names an
option. What the parser reads:

  - in "Usage:", a line `  schedlint [check] ARGS   summary` per command (brackets: the default
    command), continuation lines indented deeper, and `schedlint --version | --help`;
  - an option table line `  -f, --format ARG   description` (or `--long ARG` alone), its
    continuation lines indented deeper, under "Options of COMMAND:" or in COMMAND --help;
  - in `Usage: schedlint COMMAND [-c FILE] [--plugin PATH]... RULE`, the bracketed options and
    the positional arguments.

An option's argument says what completes it: `a|b|c` its values; `ID,...` rule ids and
categories (a comma list); FILE/PATH/NAME files, DIR directories, N nothing; another metavariable
(FORMAT[:FILE]) the values its description names, as `a|b|c` or after a colon as a comma list
(`report format: text (default), json, sarif`), and with `:FILE` files after the colon.
"""
import atexit
import json
import os
import re
import subprocess
import tempfile

# Run from an empty directory (no .schedlint.yaml's custom-rules: found) and, in a sanitizer
# build, without leak reports at exit.
_CWD = tempfile.mkdtemp(prefix='schedlint-cli-help.')
atexit.register(os.rmdir, _CWD)
_ENV = dict(os.environ)
_ENV.setdefault('ASAN_OPTIONS', 'detect_leaks=0')
_ENV.pop('NO_COLOR', None)

# an argument: an upper-case metavariable (FILE, ID,..., FORMAT[:FILE]) or a|b|c values
ARG = r'(?:[A-Z][A-Z0-9_]*(?:[,.:\[\]A-Z0-9_-]|\.\.\.)*|[a-z0-9][a-z0-9-]*(?:\|[a-z0-9][a-z0-9-]*)+)'
TABLE_LINE = re.compile(r'^(?P<indent> +)(?:(?P<short>-[A-Za-z0-9])(?:, |$))?(?P<long>--[a-z][a-z0-9-]*)?'
                        r'(?:[ =](?P<arg>' + ARG + r'))?(?:\s+(?P<desc>\S.*))?$')
BRACKET = re.compile(r'\[(?P<opt>--?[A-Za-z][A-Za-z0-9-]*)(?:[ =](?P<arg>[^\]\s]+))?\](?P<rep>\.\.\.)?')
VALUES_IN_TEXT = re.compile(r'\b[a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)+\b')
# or, after a colon, a comma list whose items may carry a remark: "FORMAT: text (default), json"
LIST_IN_TEXT = re.compile(r':\s+((?:[a-z][a-z0-9-]*(?: \([^)]*\))?, )+[a-z][a-z0-9-]*)\b')


class Option:
    def __init__(self, short, long, arg, desc):
        self.short, self.long, self.arg, self.desc = short, long, arg, desc or ''
        self.values, self.kind, self.comma, self.colon_file = None, 'none', False, False
        self.classify()

    def classify(self):
        arg = self.arg
        if not arg:
            return
        if '|' in arg:
            self.kind, self.values = 'enum', [v for v in re.split(r'[|\[\]]', arg) if v]
            return
        head = re.split(r'[,\[:]', arg)[0]
        self.comma = ',' in arg
        if head == 'ID' or head.endswith('_ID') or head == 'RULE':
            self.kind = 'rules'
        elif head in ('FILE', 'PATH', 'NAME'):
            self.kind = 'file'
        elif head == 'DIR':
            self.kind = 'dir'
        elif head in ('N', 'NUM', 'COUNT', 'MS'):
            self.kind = 'number'
        else:
            # values named in the description (a|b|c, or ": a (default), b, c"), else a file
            found = VALUES_IN_TEXT.search(self.desc)
            listed = LIST_IN_TEXT.search(self.desc)
            if found:
                self.kind, self.values = 'enum', found.group(0).split('|')
            elif listed:
                self.kind = 'enum'
                self.values = [re.sub(r' \(.*', '', v) for v in listed.group(1).split(', ')]
            else:
                self.kind, self.values = 'file', None
            # FORMAT[:FILE]: a value, then a file after the colon
            self.colon_file = ':FILE' in arg

    @property
    def names(self):
        return [n for n in (self.short, self.long) if n]

    @property
    def key(self):
        return self.long or self.short

    def merge(self, other):
        self.short = self.short or other.short
        self.long = self.long or other.long
        if len(other.desc) > len(self.desc):
            self.desc = other.desc
        if not self.arg and other.arg:
            self.arg = other.arg
            self.classify()


class Command:
    def __init__(self, name):
        self.name, self.usage, self.summary, self.default = name, '', '', False
        self.options, self.positional, self.help = [], None, ''

    def add(self, opt):
        for o in self.options:
            if (opt.long and o.long == opt.long) or (opt.short and o.short == opt.short):
                o.merge(opt)
                return
        self.options.append(opt)

    def positional_kind(self, args):
        """From the argument words of a usage line: PATH... files, RULE a rule id."""
        words = re.sub(r'\[-[^\]]*\](\.\.\.)?', ' ', args).replace('[', ' ').replace(']', ' ').split()
        for w in words:
            if w.startswith('-') or w == 'OPTIONS':
                continue
            if w.startswith('RULE'):
                self.positional = 'rules'
            elif w.startswith(('PATH', 'FILE', 'DIR')):
                self.positional = 'file'


class Cli:
    def __init__(self):
        self.commands, self.globals, self.help, self.rules, self.categories = {}, [], '', [], []

    def command(self, name):
        if name not in self.commands:
            self.commands[name] = Command(name)
        return self.commands[name]

    @property
    def default(self):
        return next((c for c in self.commands.values() if c.default), None)

    def all_long_options(self):
        return sorted({o.long for c in self.commands.values() for o in c.options if o.long} |
                      {o.long for o in self.globals if o.long})


def run(schedlint, *args):
    """stdout and stderr of schedlint ARGS (a usage error's usage goes to stderr)."""
    p = subprocess.run([schedlint, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60, cwd=_CWD, env=_ENV)
    return p.stdout + p.stderr


def parse_table(lines, cmd):
    """Option table lines (and their continuation lines) into cmd; returns the lines not used."""
    rest, last, last_indent = [], None, 0
    for line in lines:
        m = TABLE_LINE.match(line)
        if m and (m.group('short') or m.group('long')) and not line.strip().startswith('schedlint'):
            last = Option(m.group('short'), m.group('long'), m.group('arg'), m.group('desc'))
            last_indent = len(m.group('indent'))
            cmd.add(last)
            continue
        if last and line.startswith(' ' * (last_indent + 4)) and line.strip():
            last.desc = (last.desc + ' ' + line.strip()).strip()
            last.classify()   # values listed on a continuation line
            continue
        last = None
        rest.append(line)
    return rest


def split_usage(text):
    """A usage line's arguments and its summary: the summary starts at the first word outside
    brackets that is not an argument (lower case), or after two spaces."""
    depth, i = 0, 0
    while i < len(text):
        c = text[i]
        if c == '[':
            depth += 1
        elif c == ']':
            depth -= 1
        elif depth == 0 and text.startswith('  ', i):
            return text[:i].strip(), text[i:].strip()
        elif depth == 0 and (i == 0 or text[i - 1] == ' ') and re.match(r'[a-z]', c):
            return text[:i].strip(), text[i:].strip()
        i += 1
    return text.strip(), ''


def parse_main(cli, text):
    """schedlint --help: the commands of "Usage:", the global options, "Options of X:" tables."""
    cli.help = text
    lines = text.splitlines()
    section, cur = None, None
    for i, line in enumerate(lines):
        if not line.strip():
            section, cur = None, None
            continue
        if line.rstrip() == 'Usage:':
            section = 'usage'
            continue
        m = re.match(r'^Options of ([a-z]+):\s*$', line)
        if m:
            section, cur = 'table', cli.command(m.group(1))
            block = []
            for nxt in lines[i + 1:]:
                if not nxt.strip():
                    break
                block.append(nxt)
            parse_table(block, cur)
            section = 'skip'
            continue
        if section == 'usage':
            m = re.match(r'^ +schedlint (\[?)([a-z][a-z-]*)\]?(?: (.*))?$', line)
            g = re.match(r'^ +schedlint (--?[a-z].*)$', line)
            if g and not m:
                for name in re.findall(r'--?[A-Za-z][A-Za-z0-9-]*', g.group(1)):
                    cli.globals.append(Option(None, name, None, ''))
                cur = None
            elif m:
                cur = cli.command(m.group(2))
                cur.default = m.group(1) == '['
                args, cur.summary = split_usage(m.group(3) or '')
                cur.usage = ' '.join(['schedlint', line.split('schedlint ', 1)[1].split(' ')[0], args]).strip()
                cur.positional_kind(args)
            elif cur and line.startswith('    '):
                cur.summary = (cur.summary + ' ' + line.strip()).strip()


def parse_command(cli, name, text):
    """schedlint NAME --help: its usage line (bracketed options, positionals) and option table."""
    cmd = cli.command(name)
    if text == cli.help:
        return
    cmd.help = text
    lines = text.splitlines()
    m = re.match(r'^Usage: schedlint ' + re.escape(name) + r'\b(.*)$', lines[0]) if lines else None
    if m:
        args = split_usage(m.group(1).strip())[0]
        cmd.usage = ('schedlint ' + name + ' ' + args).strip()
        for b in BRACKET.finditer(args):
            opt = b.group('opt')
            short, long = (opt, None) if not opt.startswith('--') else (None, opt)
            cmd.add(Option(short, long, b.group('arg'), ''))
        cmd.positional_kind(args)
        lines = lines[1:]
    parse_table(lines, cmd)


def describe_from_others(cli):
    """An option a command's help only names (fmt's [--unsafe-fixes]) gets the description
    another command's table gives the same option."""
    for cmd in cli.commands.values():
        for opt in cmd.options:
            if opt.desc or '|' in (opt.arg or ''):   # values differ by command (--format)
                continue
            for c in cli.commands.values():
                o = next((o for o in c.options if o.desc and o.arg == opt.arg and
                          ((opt.long and o.long == opt.long) or
                           (opt.short and o.short == opt.short))), None)
                if c is not cmd and o:
                    opt.desc = 'as for %s: %s' % (c.name, o.desc)
                    break


def load(schedlint):
    schedlint = os.path.abspath(schedlint)
    cli = Cli()
    parse_main(cli, run(schedlint, '--help'))
    if not cli.commands or not cli.default:
        raise SystemExit('cli_help.py: no commands in `%s --help` (a "Usage:" line per command, '
                         'the default one in brackets)' % schedlint)
    for name in list(cli.commands):
        parse_command(cli, name, run(schedlint, name, '--help'))
    describe_from_others(cli)
    rules = json.loads(run_stdout(schedlint, 'rules', '--format', 'json'))
    cli.rules = sorted(r['id'] for r in rules)
    cli.categories = sorted({r['category'] for r in rules})
    return cli


def run_stdout(schedlint, *args):
    p = subprocess.run([schedlint, *args], stdout=subprocess.PIPE, text=True, timeout=60, check=True,
                       cwd=_CWD, env=_ENV)
    return p.stdout
