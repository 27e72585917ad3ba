// data-values.test.js — values whose reading as JavaScript source differs from JSON.parse (a
// "__proto__" key sets a prototype in source) arrive exactly as JSON.parse gives them, through
// every message kind, in both page runtimes.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const { makePage } = require('./support/page.js');

const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'data-values.json'), 'utf8'));

/** Asserts that `actual` (from another realm) is what JSON.parse makes of `json`: same own
 *  members in the same order, nothing inherited but what a plain object or array inherits. */
function assertSameData(actual, json, where) {
  const expected = JSON.parse(json);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), where);
  (function walk(value, path) {
    if (value === null || typeof value !== 'object') return;
    const proto = Object.getPrototypeOf(value);
    const base = Array.isArray(value) ? 'Array' : 'Object';
    assert.equal(proto && proto.constructor && proto.constructor.name, base, `${where}: ${path} keeps its prototype`);
    for (const key in value) {
      assert.ok(Object.prototype.hasOwnProperty.call(value, key), `${where}: ${path}.${key} is its own`);
    }
    for (const key of Object.keys(value)) walk(value[key], `${path}.${key}`);
  })(actual, '$');
}

test('the fixture covers the __proto__ cases', () => {
  assert.ok(cases.some((c) => c.name === '__proto__ key'));
  assert.ok(cases.some((c) => c.json.includes('\\u005f_proto__')));
});

for (const c of cases) {
  test(`${c.name}: arrives as data through dsbridge.js scripts`, () => {
    const context = vm.createContext({});
    const window = vm.runInContext('this', context);
    context.window = window;
    const got = {};
    window.got = (v) => { got.result = v; };
    window._handleMessageFromNative = (info) => { got.args = JSON.parse(info.data); };
    vm.runInContext(c.script, context);
    assertSameData(got.result, c.json, 'result');
    assertSameData(got.args[0], c.json, 'argument');
    assert.equal(vm.runInContext('({}).x', context), undefined, 'no prototype was polluted');
  });

  test(`${c.name}: arrives as data through Keystone's runtime`, () => {
    const page = makePage();
    const { window, native } = page;
    const got = {};
    window.got = (v) => { got.result = v; };
    window.dsBridge.register('page.got', (v) => { got.args = [v]; return 'ok'; });
    window.dsBridge.on('got', (v) => { got.event = v; });
    page.evaluate(c.keystoneScript);
    assertSameData(got.result, c.json, 'result');
    assertSameData(got.args[0], c.json, 'argument');
    assertSameData(got.event, c.json, 'event');
    assert.deepEqual(native.returns, [{ id: 1, data: 'ok', complete: true }]);
    assert.equal(page.evaluate('({}).x'), undefined, 'no prototype was polluted');
  });
}
