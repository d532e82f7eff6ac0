"""The e2e case output-full-kustomize's checks (run from the tree's root).

snippets: reads `schedlint --output-format full` on stdin; for each finding, whether its source
lines are the lines of the file and position its header names (the first at its line, each line
as the file has it, the caret row under its column), or says that it has none.
positions: path:line:col of each finding in the json, sarif and github reports named and in the
concise text report on stdin: the same in every format."""
import json
import re
import sys

HEAD = re.compile(r'^(\S.*?):(\d+):(\d+): (error|warning|info): .* \[([^\]]+)\]')
SNIP = re.compile(r'^ *(\d+) \| (.*)$')


def snippets():
    findings, cur = [], None
    for line in sys.stdin.read().split('\n'):
        m = HEAD.match(line)
        if m:
            cur = {'at': m[0].split(': ')[0], 'path': m[1], 'line': int(m[2]),
                   'col': int(m[3]), 'rule': m[5], 'lines': [], 'caret': None}
            findings.append(cur)
        elif cur is not None and SNIP.match(line):
            s = SNIP.match(line)
            cur['lines'].append((int(s[1]), s[2]))
            cur.setdefault('text', line.index(' | ') + 3)
        elif cur is not None and '^' in line and cur['caret'] is None:
            cur['caret'] = line.index('^') - cur['text']
        elif not line.strip():
            cur = None
    for f in findings:
        with open(f['path'], encoding='utf-8') as fh:
            text = fh.read().split('\n')
        if not f['lines']:
            print(f"{f['at']} [{f['rule']}]: no source lines")
            continue
        wrong = [n for n, t in f['lines'] if n > len(text) or text[n - 1] != t]
        if f['lines'][0][0] != f['line']:
            wrong.insert(0, f"first line {f['lines'][0][0]}")
        if f['caret'] != f['col'] - 1:
            wrong.append(f"caret at column {f['caret'] + 1 if f['caret'] is not None else '-'}")
        print(f"{f['at']} [{f['rule']}]: {'WRONG ' + str(wrong) if wrong else 'the file' + chr(39) + 's lines'}")


def positions(js, sarif, github):
    want = sorted(HEAD.match(l)[0].split(': ')[0] for l in sys.stdin if HEAD.match(l))
    with open(js) as fh:
        got = {'json': sorted(f"{f['path']}:{f['line']}:{f['column']}" for f in json.load(fh)['findings'])}
    with open(sarif) as fh:
        got['sarif'] = sorted(
            f"{r['locations'][0]['physicalLocation']['artifactLocation']['uri']}:"
            f"{r['locations'][0]['physicalLocation']['region']['startLine']}:"
            f"{r['locations'][0]['physicalLocation']['region']['startColumn']}"
            for r in json.load(fh)['runs'][0]['results'])
    with open(github) as fh:
        got['github'] = sorted(f"{m[1]}:{m[2]}:{m[3]}" for m in
                               re.finditer(r'^::\w+ file=([^,]+),line=(\d+),col=(\d+)', fh.read(), re.M))
    for name, v in got.items():
        print(f"{name}: {'the text report' + chr(39) + 's positions' if v == want else 'DIFFERENT: ' + str(sorted(set(v) ^ set(want)))}")


if sys.argv[1] == 'snippets':
    snippets()
else:
    positions(*sys.argv[2:])
