// SPDX-License-Identifier: Apache-2.0
// A whole `schedlint server` session driven by vscode-jsonrpc, the client library VS Code's
// language client is built on: initialize, open, change (incremental, and a burst that must be
// linted once), push and pull diagnostics with exact UTF-16 ranges (on a line with non-ASCII
// text, an astral character among it), hover, a quick fix applied and its diagnostic gone,
// "ignore on this line", formatting and source.fixAll equal to `schedlint fmt`, a broken
// document, a kustomization and its patch, JSON-RPC errors, shutdown and exit 0.
// Usage: node tests/lsp/session.js SCHEDLINT   (from the project root; tests/lsp/run runs it)
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = process.cwd();
let rpc;
try {
	rpc = require('module').createRequire(path.join(root, 'tools/package.json'))('vscode-jsonrpc/node');
} catch (e) {
	console.error('tests/lsp/session.js: vscode-jsonrpc is not installed in tools/node_modules; ' +
		'run tools/setup --test');
	process.exit(1);
}
const schedlint = path.resolve(process.argv[2] || process.env.SCHEDLINT || 'build/schedlint');
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlint-lsp-'));
fs.writeFileSync(path.join(ws, '.schedlint.yaml'), '{}\n');
const file = path.join(ws, 'pod.yaml');
// On disk: a clean pod. The buffer is what is linted, never this.
fs.writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: disk\nspec:\n' +
	'  containers:\n    - name: c\n      image: x\n');
const uri = 'file://' + file;
const TEXT = [
	'apiVersion: v1',
	'kind: Pod',
	'metadata:',
	'  name: gpu-pod',
	'spec:',
	'  nodeSelector: {zone: "Zürich 🚀", accelerated: true}',
	'  containers:',
	'    - name: c',
	'      image: x',
	'      resources:',
	'        requests:',
	'          nvidia.com/gpu: 1',
	''].join('\n');

const proc = cp.spawn(schedlint, ['server', '--debounce-ms', '150'], {
	cwd: ws, stdio: ['pipe', 'pipe', 'pipe']});
let stderr = '';
proc.stderr.on('data', d => { stderr += d; });
const exited = new Promise(res => proc.on('exit', (code, sig) => res({code, sig})));
const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout),
	new rpc.StreamMessageWriter(proc.stdin));

// Every publication, and waiters for the next one of a version.
const published = [];
let waiters = [];
conn.onNotification('textDocument/publishDiagnostics', p => {
	published.push(p);
	waiters = waiters.filter(w => !(w.test(p) && (w.res(p), true)));
});
function next(test, what) {
	const hit = published.find(test);
	if (hit)
		return Promise.resolve(hit);
	return new Promise((res, rej) => {
		const t = setTimeout(() => rej(new Error('no diagnostics published for ' + what)), 10000);
		waiters.push({test, res: p => { clearTimeout(t); res(p); }});
	});
}
const version = v => p => p.uri === uri && p.version === v;
let registered = null;
conn.onRequest('client/registerCapability', p => { registered = p; return null; });
// the first publication after the n-th that passes test
function nextAfter(n, test, what) {
	return next(p => published.indexOf(p) >= n && test(p), what);
}
conn.listen();
const watchdog = setTimeout(() => {
	console.error('tests/lsp/session.js: TIMEOUT; server stderr:\n' + stderr);
	process.exit(3);
}, 60000);

// Client-side TextEdit application, on UTF-16 positions as an editor does (JS strings are UTF-16).
function offsetOf(text, pos) {
	const lines = text.split('\n');
	let off = 0;
	for (let i = 0; i < pos.line && i < lines.length; i++)
		off += lines[i].length + 1;
	return off + pos.character;
}
function applyEdits(text, edits) {
	const sorted = [...edits].sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start));
	for (const e of sorted)
		text = text.slice(0, offsetOf(text, e.range.start)) + e.newText + text.slice(offsetOf(text, e.range.end));
	return text;
}
function slice(text, range) {
	return text.slice(offsetOf(text, range.start), offsetOf(text, range.end));
}
const codes = d => d.map(x => x.code).sort();
function fmt(text) {
	const r = cp.spawnSync(schedlint, ['fmt', '--stdin-filename', 'pod.yaml', '-'], {cwd: ws, input: text});
	assert.strictEqual(r.status, 0, 'schedlint fmt: ' + r.stderr);
	return r.stdout.toString();
}

let checks = 0;
function ok(cond, msg) {
	assert.ok(cond, msg);
	checks++;
}

(async () => {
	// Before initialize: -32002.
	await assert.rejects(conn.sendRequest('textDocument/hover', {textDocument: {uri}, position: {line: 0, character: 0}}),
		e => e.code === -32002);
	checks++;
	const init = await conn.sendRequest('initialize', {
		processId: process.pid, rootUri: 'file://' + ws, workspaceFolders: null,
		capabilities: {textDocument: {publishDiagnostics: {relatedInformation: true}},
			workspace: {didChangeWatchedFiles: {dynamicRegistration: true}}}});
	const c = init.capabilities;
	ok(init.serverInfo.name === 'schedlint', 'serverInfo');
	ok(c.textDocumentSync.change === 2 && c.textDocumentSync.openClose, 'incremental sync');
	ok(c.documentFormattingProvider && c.hoverProvider && c.diagnosticProvider, 'providers');
	ok(c.codeActionProvider.codeActionKinds.includes('source.fixAll.schedlint'), 'fixAll kind');
	ok(c.positionEncoding === 'utf-16', 'utf-16');
	conn.sendNotification('initialized', {});
	await assert.rejects(conn.sendRequest('initialize', {capabilities: {}}), e => e.code === -32600);
	await assert.rejects(conn.sendRequest('no/such/method', {}), e => e.code === -32601);
	await assert.rejects(conn.sendRequest('textDocument/hover', {textDocument: {uri: 'file:///nope.yaml'},
		position: {line: 0, character: 0}}), e => e.code === -32602);
	checks += 3;

	// Open: pushed at once, with exact ranges.
	conn.sendNotification('textDocument/didOpen', {textDocument: {uri, languageId: 'yaml', version: 1, text: TEXT}});
	let text = TEXT;
	let d = (await next(version(1), 'the open')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['gpu-request-without-limit', 'invalid-node-selector', 'schema-type']),
		'the buffer, not the disk: ' + JSON.stringify(codes(d)));
	const by = code => d.find(x => x.code === code);
	// code points: invalid-node-selector 6:24-6:34, schema-type 6:49-6:53 (1-based); 🚀 is 2 UTF-16 units
	assert.deepStrictEqual(by('invalid-node-selector').range, {start: {line: 5, character: 23}, end: {line: 5, character: 34}});
	assert.deepStrictEqual(by('schema-type').range, {start: {line: 5, character: 49}, end: {line: 5, character: 53}});
	assert.deepStrictEqual(by('gpu-request-without-limit').range, {start: {line: 11, character: 26}, end: {line: 11, character: 27}});
	checks += 3;
	ok(slice(text, by('invalid-node-selector').range) === '"Zürich 🚀"', 'the label value, quoted');
	ok(slice(text, by('schema-type').range) === 'true', 'the boolean');
	const st = by('schema-type');
	ok(st.source === 'schedlint' && st.severity === 1, 'source and severity');
	ok(st.codeDescription.href.endsWith('/docs/rules.md#schema-type'), 'doc link');
	ok(by('gpu-request-without-limit').message.includes('\n'), 'notes on the second line');

	// Hover on the boolean: the rule's doc.
	const h = await conn.sendRequest('textDocument/hover', {textDocument: {uri}, position: {line: 5, character: 50}});
	ok(h && h.contents.kind === 'markdown' && h.contents.value.includes('## schema-type'), 'hover: ' + JSON.stringify(h));
	ok(await conn.sendRequest('textDocument/hover', {textDocument: {uri}, position: {line: 0, character: 1}}) === null,
		'no hover where there is no diagnostic');

	// A burst of incremental edits (the name, one character at a time): linted once, after it.
	const before = published.length;
	let v = 1;
	for (const ch of '-two') {
		const at = {line: 3, character: text.split('\n')[3].length};
		text = applyEdits(text, [{range: {start: at, end: at}, newText: ch}]);
		conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v},
			contentChanges: [{range: {start: at, end: at}, text: ch}]});
	}
	d = (await next(version(v), 'the burst')).diagnostics;
	await new Promise(r => setTimeout(r, 400));
	ok(published.length === before + 1, `a burst of 4 changes published ${published.length - before} times`);
	ok(d.find(x => x.code === 'gpu-request-without-limit').message.includes('gpu-pod-two'), 'the edited name');
	// an edit that replaces a range holding the astral character
	{
		const line = text.split('\n')[5];
		const s = line.indexOf('🚀'), range = {start: {line: 5, character: s}, end: {line: 5, character: s + 2}};
		text = applyEdits(text, [{range, newText: 'ä'}]);
		conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{range, text: 'ä'}]});
		d = (await next(version(v), 'the astral edit')).diagnostics;
		const ns = d.find(x => x.code === 'invalid-node-selector');
		ok(slice(text, ns.range) === '"Zürich ä"', 'range after an edit of a surrogate pair: ' + slice(text, ns.range));
		ok(slice(text, d.find(x => x.code === 'schema-type').range) === 'true', 'the boolean, moved left');
	}

	// Pull diagnostics: the same as pushed.
	const pulled = await conn.sendRequest('textDocument/diagnostic', {textDocument: {uri}});
	ok(pulled.kind === 'full', 'pull: full report');
	assert.deepStrictEqual(pulled.items, d);
	checks++;

	// The quick fix of schema-type, applied: its diagnostic goes, the others stay.
	let acts = await conn.sendRequest('textDocument/codeAction', {textDocument: {uri},
		range: d.find(x => x.code === 'schema-type').range, context: {diagnostics: d}});
	const qf = acts.find(a => a.kind === 'quickfix' && a.title.includes('(schema-type)'));
	ok(qf && qf.isPreferred && qf.diagnostics[0].code === 'schema-type', 'a preferred quick fix: ' + JSON.stringify(acts.map(a => a.title)));
	ok(acts.some(a => a.title === 'Ignore schema-type on this line'), 'an ignore action');
	text = applyEdits(text, qf.edit.changes[uri]);
	ok(text.includes('accelerated: "true"'), 'the fix quotes the boolean');
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text}]});
	d = (await next(version(v), 'the quick fix')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['gpu-request-without-limit', 'invalid-node-selector']), 'fixed: ' + codes(d));

	// Ignore invalid-node-selector on its line: gone, and the suppression is used.
	acts = await conn.sendRequest('textDocument/codeAction', {textDocument: {uri},
		range: d.find(x => x.code === 'invalid-node-selector').range, context: {diagnostics: d}});
	const ig = acts.find(a => a.title === 'Ignore invalid-node-selector on this line');
	ok(ig, 'ignore action');
	text = applyEdits(text, ig.edit.changes[uri]);
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text}]});
	d = (await next(version(v), 'the ignore')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['gpu-request-without-limit']), 'ignored: ' + codes(d));

	// Formatting = fmt; source.fixAll the same; applied, nothing is left.
	const edits = await conn.sendRequest('textDocument/formatting', {textDocument: {uri}, options: {tabSize: 2, insertSpaces: true}});
	ok(edits.length > 0 && applyEdits(text, edits) === fmt(text), 'formatting = fmt');
	acts = await conn.sendRequest('textDocument/codeAction', {textDocument: {uri},
		range: {start: {line: 0, character: 0}, end: {line: 0, character: 0}}, context: {diagnostics: [], only: ['source.fixAll']}});
	ok(acts.length === 1 && acts[0].kind === 'source.fixAll.schedlint', 'only: fixAll: ' + JSON.stringify(acts));
	text = applyEdits(text, acts[0].edit.changes[uri]);
	ok(text === fmt(text) && text.includes('limits:'), 'fix all = fmt');
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text}]});
	d = (await next(version(v), 'the fix-all')).diagnostics;
	ok(d.length === 0, 'all fixed: ' + JSON.stringify(d));

	// A broken second document: its yaml-syntax, the first keeps its own; formatting does nothing.
	// (with a LINE SEPARATOR in a string before it: a line break to YAML, not to LSP)
	const broken = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {note: "a\u2028b"}\n' +
		'spec:\n  nodeSelector: {a: true}\n  containers: [{name: c, image: x}]\n---\nkind: [\n';
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text: broken}]});
	d = (await next(version(v), 'the broken text')).diagnostics;
	ok(codes(d).includes('yaml-syntax') && codes(d).includes('schema-type'), 'broken: ' + codes(d));
	ok(slice(broken, d.find(x => x.code === 'schema-type').range) === 'true', 'the boolean after a U+2028: ' +
		JSON.stringify(d.find(x => x.code === 'schema-type').range));
	ok((await conn.sendRequest('textDocument/formatting', {textDocument: {uri}, options: {tabSize: 2, insertSpaces: true}})).length === 0,
		'no formatting of a broken buffer');

	// Settings: ignore a rule, then none again.
	let n = published.length;
	conn.sendNotification('workspace/didChangeConfiguration', {settings: {schedlint: {ignore: ['schema-type']}}});
	d = (await nextAfter(n, p => p.uri === uri && !codes(p.diagnostics).includes('schema-type'), 'the settings')).diagnostics;
	ok(codes(d).includes('yaml-syntax'), 'settings: ignore schema-type: ' + codes(d));
	n = published.length;
	conn.sendNotification('workspace/didChangeConfiguration', {settings: {schedlint: {}}});
	await nextAfter(n, p => p.uri === uri && codes(p.diagnostics).includes('schema-type'), 'the settings reset');
	checks++;

	// The project on disk changes (a watched file): the buffer is linted with its new facts.
	ok(registered && registered.registrations[0].method === 'workspace/didChangeWatchedFiles', 'watchers registered');
	const pc = name => `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: ${name}\nvalue: 10\nglobalDefault: true\n`;
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text: pc('mine')}]});
	d = (await next(version(v), 'the PriorityClass')).diagnostics;
	ok(d.length === 0, 'one default PriorityClass: ' + JSON.stringify(d));
	fs.writeFileSync(path.join(ws, 'a-other.yaml'), pc('theirs'));
	n = published.length;
	conn.sendNotification('workspace/didChangeWatchedFiles', {changes: [{uri: 'file://' + path.join(ws, 'a-other.yaml'), type: 1}]});
	d = (await nextAfter(n, p => p.uri === uri && p.diagnostics.length > 0, 'the watched file')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['multiple-default-priority-classes']), 'the project read again: ' + codes(d));
	// Read once: a file gone from disk still counts until a save (or a watcher) says so.
	fs.rmSync(path.join(ws, 'a-other.yaml'));
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text: pc('mine') + '# edited\n'}]});
	d = (await next(version(v), 'an edit with the project cached')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['multiple-default-priority-classes']), 'the project is not read again at each edit: ' + codes(d));
	n = published.length;
	conn.sendNotification('textDocument/didSave', {textDocument: {uri}});
	d = (await nextAfter(n, p => p.uri === uri, 'the save')).diagnostics;
	ok(d.length === 0, 'a save reads the project again: ' + JSON.stringify(d));

	// A template (a Go template outside a chart): one Information diagnostic at its first marker,
	// nothing else of it (its GPU request without a limit included).
	const tmpl = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Name }}\nspec:\n  containers:\n' +
		'    - name: c\n      image: x\n      resources: {requests: {nvidia.com/gpu: 1}}\n';
	conn.sendNotification('textDocument/didChange', {textDocument: {uri, version: ++v}, contentChanges: [{text: tmpl}]});
	d = (await next(version(v), 'the template')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['template-not-rendered']), 'a template: ' + codes(d));
	ok(d[0].severity === 3 && slice(tmpl, d[0].range) === '{{ .Name }}', 'Information at the marker: ' +
		JSON.stringify(d[0]));

	// Kustomize (issue 29), as `schedlint check` lints it: a patch open in the editor shows the
	// finding of the build that uses it, at its own line; a kustomization its kustomize-invalid.
	// Kustomize builds from the disk: an unsaved kustomization keeps what it showed until saved.
	const kdir = path.join(ws, 'kust');
	const kfiles = {
		'base/kustomization.yaml': 'resources:\n- deploy.yaml\n',
		'base/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm\nspec:\n' +
			'  selector:\n    matchLabels: {app: llm}\n  template:\n    metadata:\n' +
			'      labels: {app: llm}\n    spec:\n      containers:\n      - name: main\n        image: x\n',
		'overlay/kustomization.yaml': 'resources:\n- ../base\npatches:\n- path: gpu.yaml\n',
		'overlay/gpu.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm\nspec:\n' +
			'  template:\n    spec:\n      containers:\n      - name: main\n        resources:\n' +
			'          requests:\n            nvidia.com/gpu: 1\n'};
	for (const [rel, t] of Object.entries(kfiles)) {
		fs.mkdirSync(path.dirname(path.join(kdir, rel)), {recursive: true});
		fs.writeFileSync(path.join(kdir, rel), t);
	}
	const kuri = rel => 'file://' + path.join(kdir, rel);
	conn.sendNotification('workspace/didChangeWatchedFiles', {changes: Object.keys(kfiles).map(
		rel => ({uri: kuri(rel), type: 1}))});   // what the client's watchers report
	const patch = kuri('overlay/gpu.yaml'), kust = kuri('overlay/kustomization.yaml');
	conn.sendNotification('textDocument/didOpen', {textDocument: {uri: patch, languageId: 'yaml', version: 1,
		text: kfiles['overlay/gpu.yaml']}});
	d = (await next(p => p.uri === patch, 'the patch')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['gpu-request-without-limit']) &&
		slice(kfiles['overlay/gpu.yaml'], d[0].range) === '1' && d[0].range.start.line === 11,
		'the patch shows its build\'s finding at its line: ' + JSON.stringify(d));
	conn.sendNotification('textDocument/didOpen', {textDocument: {uri: kust, languageId: 'yaml', version: 1,
		text: kfiles['overlay/kustomization.yaml']}});
	d = (await next(p => p.uri === kust, 'the kustomization')).diagnostics;
	ok(d.length === 0, 'a kustomization that builds: ' + JSON.stringify(d));
	// an unsaved patch: its diagnostic is the saved text's, so no edit is offered from its range
	conn.sendNotification('textDocument/didChange', {textDocument: {uri: patch, version: 2},
		contentChanges: [{text: '# moved\n' + kfiles['overlay/gpu.yaml']}]});
	const pacts = await conn.sendRequest('textDocument/codeAction', {textDocument: {uri: patch},
		range: {start: {line: 0, character: 0}, end: {line: 13, character: 0}},
		context: {diagnostics: [], only: ['quickfix']}});
	ok(pacts.length === 0, 'no quick fix from the ranges of a saved text: ' + JSON.stringify(pacts));
	conn.sendNotification('textDocument/didChange', {textDocument: {uri: patch, version: 3},
		contentChanges: [{text: kfiles['overlay/gpu.yaml']}]});
	n = published.length;
	conn.sendNotification('textDocument/didSave', {textDocument: {uri: patch}});   // the disk's text again
	d = (await nextAfter(n, p => p.uri === patch, 'the saved patch')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['gpu-request-without-limit']), 'saved: ' + codes(d));
	await nextAfter(n, p => p.uri === kust, 'the kustomization after the save of its patch');
	const kbroken = 'resources:\n- ../base\n- missing.yaml\npatches:\n- path: gpu.yaml\n';
	n = published.length;
	conn.sendNotification('textDocument/didChange', {textDocument: {uri: kust, version: 2},
		contentChanges: [{text: kbroken}]});
	const kpulled = await conn.sendRequest('textDocument/diagnostic', {textDocument: {uri: kust}});
	ok(kpulled.items.length === 0 && !published.slice(n).some(p => p.uri === kust),
		'unsaved, the kustomization keeps what the disk gave: ' + JSON.stringify(kpulled));
	fs.writeFileSync(path.join(kdir, 'overlay/kustomization.yaml'), kbroken);
	n = published.length;
	conn.sendNotification('textDocument/didSave', {textDocument: {uri: kust}});
	d = (await nextAfter(n, p => p.uri === kust, 'the saved kustomization')).diagnostics;
	ok(JSON.stringify(codes(d)) === JSON.stringify(['kustomize-invalid']) &&
		slice(kbroken, d[0].range) === 'missing.yaml', 'saved: kustomize-invalid on its entry: ' + JSON.stringify(d));
	d = (await nextAfter(n, p => p.uri === patch, 'the patch of a broken build')).diagnostics;
	ok(d.length === 0, 'nothing is built: the patch shows nothing: ' + JSON.stringify(d));
	for (const u of [patch, kust])
		conn.sendNotification('textDocument/didClose', {textDocument: {uri: u}});

	// Close: the diagnostics are cleared.
	conn.sendNotification('textDocument/didClose', {textDocument: {uri}});
	await next(p => p.uri === uri && p.diagnostics.length === 0 && p.version === undefined, 'the close');
	ok(await conn.sendRequest('shutdown') === null, 'shutdown');
	await assert.rejects(conn.sendRequest('textDocument/hover', {textDocument: {uri}, position: {line: 0, character: 0}}),
		e => e.code === -32600);
	conn.sendNotification('exit');
	const {code} = await exited;
	ok(code === 0, 'exit status ' + code);
	clearTimeout(watchdog);
	fs.rmSync(ws, {recursive: true, force: true});
	console.log(`tests/lsp/session.js: ${checks} checks passed`);
	process.exit(0);
})().catch(e => {
	console.error('tests/lsp/session.js: FAILED:', e && e.stack || e);
	console.error('server stderr:\n' + stderr);
	process.exit(1);
});
