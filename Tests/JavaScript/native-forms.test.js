// native-forms.test.js — the node suites' native side (support/page.js) decides as Keystone does:
// each case Keystone itself recorded (fixtures/native-forms.json, NativeFormsFixtureTests), a text
// the page sends after its runtime announced itself, gets the same answer from it, and the page is
// handed the same scripts.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { makePage } = require('./support/page.js');

const { cases } = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'native-forms.json'), 'utf8'));

test('the recorded cases cover the native side\'s decisions', () => {
  assert.ok(cases.length >= 10);
  assert.ok(cases.some((c) => c.scripts.length > 0));
});

for (const recorded of cases) {
  test(`as Keystone: ${recorded.name}`, () => {
    const { native } = makePage({ runtime: false, byteChannel: recorded.channel });
    native.sync.pi = () => 3.14;
    native.async.later = () => {};
    if (recorded.method !== '_dsb.dsinit') native.handle('_dsb.dsinit', '{"data":{"runtime":"keystone","version":1}}');
    const scripts = [];
    native.send = (messages) => scripts.push(native.render(messages));
    assert.equal(native.handle(recorded.method, recorded.argument), recorded.answer);
    assert.deepEqual(scripts, recorded.scripts);
  });
}
