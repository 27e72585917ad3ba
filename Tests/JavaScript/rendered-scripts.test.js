// rendered-scripts.test.js — evaluates the scripts Keystone renders in a fresh JavaScript context
// and checks that every adversarial value arrives byte-exact and nothing runs as code.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const { makePage: makeRuntimePage, plain } = require('./support/page.js');

const cases = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'fixtures', 'rendered-scripts.json'), 'utf8'));

/** A fresh page: a global `window` with recording callbacks, as dsbridge.js would have it. */
function makePage(value) {
  const context = vm.createContext({});
  const window = vm.runInContext('this', context);
  context.window = window;
  const got = {};
  window.first = (v) => { got.first = v; };
  window.second = (v) => { got.second = v; };
  window.third = (...args) => { got.third = args; };
  window._handleMessageFromNative = (info) => { got.info = info; };
  window['named ' + value] = (v) => { got.named = v; };
  return { context, window, got };
}

const expected = (c) => String.fromCharCode(...c.codeUnits);

test('the fixture covers the adversarial table', () => {
  assert.ok(cases.length >= 20);
  assert.ok(cases.some((c) => c.name === 'line separator'));
});

for (const c of cases) {
  test(`"${c.name}" arrives byte-exact through every message kind`, () => {
    const value = expected(c);
    const { context, window, got } = makePage(value);
    vm.runInContext(c.script, context);

    assert.equal(got.first, value);
    assert.deepEqual(Object.keys(got.second), ['nested']);
    assert.equal(got.second.nested.length, 1);
    assert.equal(got.second.nested[0], value);
    assert.equal(got.third.length, 2);
    assert.equal(got.third[0], '');
    assert.equal(got.third[1].code, 1000);
    assert.equal(got.third[1].message, value);
    assert.equal(got.info.method, value);
    assert.equal(got.info.callbackId, 1);
    assert.equal(typeof got.info.data, 'string');
    // JSON.parse here runs in this realm, so structural equality is exact.
    assert.deepEqual(JSON.parse(got.info.data), [value, { k: value }]);
    assert.equal(got.named, 1);

    // Final results delete their callbacks; an intermediate result keeps it.
    assert.equal(typeof window.first, 'function');
    assert.equal(window.second, undefined);
    assert.equal(window.third, undefined);
    assert.equal(window['named ' + value], undefined);
    // Nothing in a value ran as code.
    assert.equal(window.pwned, undefined);
  });
}

test('a callback that throws does not stop the rest of the batch', () => {
  const c = cases.find((x) => x.name === 'emoji');
  const { context, window, got } = makePage(expected(c));
  window.first = () => { throw new Error('boom'); };
  window.second = undefined; // a callback the page already lost
  vm.runInContext(c.script, context);
  assert.equal(got.third[0], '');
  assert.ok(got.info);
  assert.equal(got.named, 1);
});

for (const c of cases) {
  test(`"${c.name}" arrives byte-exact through Keystone's runtime`, () => {
    const value = expected(c);
    const page = makeRuntimePage();
    const { window, native } = page;
    const got = {};
    window.first = (v) => { got.first = v; };
    window.second = (v) => { got.second = v; };
    window.third = (...args) => { got.third = args; };
    window['named ' + value] = (v) => { got.named = v; };
    window._dsf[value] = (...args) => args; // a page handler named by the value, answering its arguments
    window.dsBridge.on(value, (v) => { got.event = v; });
    page.evaluate(c.keystoneScript);

    assert.equal(got.first, value);
    assert.equal(got.second.nested[0], value);
    assert.equal(got.third[0], '');
    assert.equal(got.third[1].code, 1000);
    assert.equal(got.third[1].message, value);
    assert.equal(got.named, 1);
    assert.equal(got.event, value);
    // The handler's answer went back through prompt as JSON: parsed on the native side, exact.
    assert.deepEqual(native.returns, [{ id: 1, data: [value, { k: value }], complete: true }]);
    assert.equal(typeof window.first, 'function');
    assert.equal(window.second, undefined);
    assert.equal(window.third, undefined);
    assert.equal(window['named ' + value], undefined);
    assert.equal(window.pwned, undefined);
    assert.equal(plain(got.second).nested.length, 1);
  });
}
