// SPDX-License-Identifier: Apache-2.0
// validate.js SCHEMA FILE...: validates each YAML file against the JSON Schema with ajv, as
// yaml-language-server would read it (js-yaml, YAML 1.2's core schema), and prints one line per
// file: "FILE<TAB>valid", "FILE<TAB>invalid<TAB>ajv's errors" or "FILE<TAB>unparsable<TAB>why".
// ajv-cli stops at the first file it cannot parse; this goes on. Used by config_schema.py.
'use strict';
const fs = require('fs');
const path = require('path');
const modules = path.join(__dirname, '..', '..', 'tools', 'node_modules');
const Ajv = require(path.join(modules, 'ajv')).default;
const yaml = require(path.join(modules, 'js-yaml'));

const [schemaPath, ...files] = process.argv.slice(2);
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
for (const f of files) {
  let data;
  try {
    data = yaml.load(fs.readFileSync(f, 'utf8'));
  } catch (e) {
    console.log(`${f}\tunparsable\t${String(e.message).split('\n')[0]}`);
    continue;
  }
  if (data === undefined)
    data = null;   // an empty file, or comments alone
  if (validate(data))
    console.log(`${f}\tvalid`);
  else
    console.log(`${f}\tinvalid\t${ajv.errorsText(validate.errors)}`);
}
