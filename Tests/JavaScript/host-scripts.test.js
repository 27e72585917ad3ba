// host-scripts.test.js — the scripts the host core has hosts evaluate in the page, run in a fresh
// context: the app's evaluation is measured before its value would cross to the app, and
// WebViewJavascriptBridge's queue is fetched only up to its limit.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'host-scripts.json'), 'utf8'));

/** A page's global scope, with a title, a sparse array and whatever `extra` adds. */
function run(script, extra = {}) {
  const context = vm.createContext({ document: { title: 'short' }, ...extra });
  vm.runInContext('window = this; window.sparse = []; window.sparse.length = 1e7;', context);
  return { value: vm.runInContext(script, context), context };
}

test('a value within the limit comes back as its JSON, with the completion value of statements', () => {
  assert.equal(run(fixture.measured.expression).value, '=3');
  assert.equal(run(fixture.measured.statements).value, '=42');
  assert.equal(run(fixture.measured.undefined).value, '=null');
  assert.equal(run(fixture.measured.title).value, '="short"');
});

test('a value past the limit is refused in the page, a sparse array before it is written out', () => {
  assert.equal(run(fixture.measured.title, { document: { title: 'x'.repeat(fixture.measuredLimit) } }).value, '\u0001large');
  // The sparse array of length 10,000,000 is refused by its length: never written out as JSON.
  const { value, context } = run(`var written = 0, write = JSON.stringify; JSON.stringify = function (v) { written++; return write(v); };` + fixture.measured.sparse);
  assert.equal(value, '\u0001large');
  assert.equal(vm.runInContext('written', context), 0);
});

test('a page that replaces JSON.stringify is measured all the same', () => {
  const { value } = run(`JSON.stringify = function () { return 'y'.repeat(1e6); };` + fixture.measured.expression);
  assert.equal(value, '\u0001large');
});

test('a value that is not JSON says so, and a script that throws throws', () => {
  assert.equal(run(fixture.measured.function).value, '\u0001notjson');
  assert.throws(() => run(fixture.measured.throws), /boom/);
});

test('the app\'s script is data to the wrapper: quotes in it never run as code', () => {
  const context = vm.createContext({ document: { title: 'short' } });
  vm.runInContext('window = this;', context);
  assert.throws(() => vm.runInContext(fixture.measured.breakout, context), (error) => error.name === 'SyntaxError');
  assert.equal(vm.runInContext('window.pwned', context), undefined);
});

test('where the page forbids eval, the wrapper says the value could not be measured', () => {
  const blocked = `eval = function () { throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source"); };`;
  assert.equal(run(blocked + fixture.measured.expression).value, '\u0001unmeasured');
});

test('WebViewJavascriptBridge\'s queue is fetched up to its limit, and a longer one never leaves the page', () => {
  const page = (text) => run(fixture.fetchQueue, { WebViewJavascriptBridge: { _fetchQueue: () => text } }).value;
  assert.equal(page('[]'), '[]');
  assert.equal(page('x'.repeat(1000)), 'x'.repeat(1000));
  assert.equal(page('x'.repeat(1001)), null);
  assert.equal(page({ length: 1, toString: () => 'x'.repeat(5000) }), null);  // not a string
});
