// gtk-relay.test.js — WebKitGTK's page-world relay: every bridge prompt and message reaches the host
// with the document's capability, batched by turn, and no page script can read the capability.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makeDocument, turn, RELAY_SETTINGS } = require('./support/gtk-worlds');

const CAPABILITY = RELAY_SETTINGS.capabilityPrefix + 'c'.repeat(32) + '\n';

for (const relayFirst of [false, true]) {
  test(`a bridge prompt goes to the host with the capability and its lengths (${relayFirst ? 'relay' : 'isolated world'} first)`, () => {
    const doc = makeDocument({ relayFirst });
    const answer = doc.page(`window.prompt('_dsbridge=math.add', '{"data":[1,2]}')`);
    assert.equal(answer, '{"code":0,"data":"sync"}');
    assert.deepEqual(doc.host.prompts, [{ text: CAPABILITY + '18,14\n_dsbridge=math.add', defaultText: '{"data":[1,2]}' }]);
    assert.equal(doc.host.requests.length, 1);
    assert.ok(doc.host.requests[0].startsWith('\u0001keystone:secret:top:https://app.example\n'));
  });
}

test('a prompt that is not the bridge passes unchanged, and the capability is asked for once', () => {
  const doc = makeDocument();
  doc.page(`window.prompt('Your name?', 'x')`);
  doc.page(`window.prompt('_dsbridge=a', '{}'); window.prompt('_dsbridge=b', '{}')`);
  assert.deepEqual(doc.host.prompts[0], { text: 'Your name?', defaultText: 'x' });
  assert.equal(doc.host.requests.length, 1);
});

test('without the isolated world no capability exists: the prompt reaches the host bare, which refuses it', () => {
  const doc = makeDocument({ isolated: { documentChannel: 'none' }, relayFirst: true, skipIsolated: true });
  doc.page(`window.prompt('_dsbridge=math.add', '{}')`);
  assert.deepEqual(doc.host.prompts, [{ text: '_dsbridge=math.add', defaultText: '{}' }]);
  assert.equal(doc.host.requests.length, 0);
});

test('when the host has forgotten the capability, the relay asks for a new one and sends again, once', () => {
  const doc = makeDocument();
  let calls = 0;
  doc.host.answerPrompt = () => (++calls === 1 ? '\u0001forgotten' : '{"code":0,"data":2}');
  assert.equal(doc.page(`window.prompt('_dsbridge=m', '{}')`), '{"code":0,"data":2}');
  assert.equal(doc.host.requests.length, 2);
  doc.host.answerPrompt = () => '\u0001forgotten';
  // Forgotten twice: the relay gives up and the plain prompt goes, unattested.
  doc.page(`window.prompt('_dsbridge=m', '{}')`);
  assert.equal(doc.host.prompts.at(-1).text, '_dsbridge=m');
});

test('messages of one turn go as one batch, and each call gets its own answer', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => '3:one3:two';
  const answers = doc.page(`Promise.all([window._keystoneHost.send('a', '{"data":1}'), window._keystoneHost.send('b', '{}')])`);
  assert.deepEqual(Array.from(await answers), ['one', 'two']);
  assert.deepEqual(doc.host.posts, [CAPABILITY + '\u0001batch\n' + '12:a\n{"data":1}' + '4:b\n{}']);
});

test('a lone message goes unframed, and a batch answer that ends early gives the rest its last answer', async () => {
  const doc = makeDocument();
  doc.host.answerPost = (text) => (text.includes('\u0001batch') ? '4:fail' : 'alone');
  assert.equal(await doc.page(`window._keystoneHost.send('m', '1')`), 'alone');
  assert.equal(doc.host.posts[0], CAPABILITY + 'm\n1');
  const answers = await doc.page(`Promise.all([window._keystoneHost.send('a', '1'), window._keystoneHost.send('b', '2'), window._keystoneHost.send('c', '3')])`);
  assert.deepEqual(Array.from(answers), ['fail', 'fail', 'fail']);
});

test('a batch holds at most messagesPerPost messages', async () => {
  const doc = makeDocument();
  doc.host.answerPost = (text) => text.split('\u0001batch\n')[1]?.replace(/\d+:([^\d]+)/g, '1:x') ?? 'x';
  await doc.page(`Promise.all([1, 2, 3, 4, 5, 6].map(function (n) { return window._keystoneHost.send('m', n); }))`);
  assert.equal(doc.host.posts.length, 2);
});

test('a prompt first posts the messages waiting, so it never overtakes an earlier call', async () => {
  const doc = makeDocument();
  doc.page(`window._keystoneHost.send('early', '{}'); window.prompt('_dsbridge=late', '{}')`);
  assert.deepEqual(doc.host.posts, [CAPABILITY + 'early\n{}']);
  assert.equal(doc.host.prompts.length, 1);
  await turn();
});

test('a forgotten capability on a message asks again once, then answers that the frame has no channel', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => '\u0001forgotten';
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{}')`));
  assert.equal(answer.error.code, 11);
  assert.equal(doc.host.posts.length, 2);
  assert.equal(doc.host.requests.length, 2);
});

test('without the message handler a message is answered at once that the frame has no channel', async () => {
  const doc = makeDocument({ handlers: false });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{}')`));
  assert.equal(answer.error.code, 11);
});

test('a message with a lone surrogate is made well-formed before it is framed', async () => {
  const doc = makeDocument();
  await doc.page(`window._keystoneHost.send('m', '"\\ud800"')`);
  assert.equal(doc.host.posts[0], CAPABILITY + 'm\n"\ufffd"');
});

test('console lines reach the host with the capability only when the host relays the console', () => {
  const relaying = makeDocument({ relay: { relaysConsole: true } });
  relaying.page(`console.warn('saved', 3, { a: 1 })`);
  assert.deepEqual(relaying.host.posts, [CAPABILITY + '\u0001console\nwarn\nsaved 3 {"a":1}']);
  const quiet = makeDocument();
  quiet.page(`console.warn('saved')`);
  assert.deepEqual(quiet.host.posts, []);
});

test('a page that replaces the built-ins after document start never sees the capability', async () => {
  const doc = makeDocument();
  const dispatchEvent = EventTarget.prototype.dispatchEvent;  // shared with the page: put back after
  const seen = doc.page(`
    var seen = [], join = Array.prototype.join, apply = Reflect.apply;
    function spy(name, original) { return function () { seen.push(name + ':' + apply(join, arguments, [','])); return apply(original, this, arguments); }; }
    String.prototype.slice = spy('slice', String.prototype.slice);
    Function.prototype.call = spy('call', Function.prototype.call);
    EventTarget.prototype.dispatchEvent = spy('dispatch', EventTarget.prototype.dispatchEvent);
    Promise.prototype.then = spy('then', Promise.prototype.then);
    window.prompt('_dsbridge=m', '{}');
    window._keystoneHost.send('m', '{}');
    seen;`);
  await turn();
  EventTarget.prototype.dispatchEvent = dispatchEvent;
  assert.ok(doc.host.prompts[0].text.startsWith(CAPABILITY));
  assert.ok(doc.host.posts[0].startsWith(CAPABILITY));
  assert.ok(!seen.some((entry) => entry.includes('c'.repeat(32))), seen.join('\n'));
});

test('_keystoneHost cannot be replaced by the page', () => {
  const doc = makeDocument();
  assert.throws(() => doc.page(`'use strict'; window._keystoneHost = { send: function () {} }`));
  assert.throws(() => doc.page(`'use strict'; window._keystoneHost.send = function () {}`));
});

test("a ticket to send bytes stays in the relay: the page gets a handle, and each piece goes as a buffer of its own", async () => {
  const doc = makeDocument();
  const address = 'keystone://transfer/' + '0123456789abcdef'.repeat(2);
  doc.host.answerPost = () => JSON.stringify({ code: 0, data: '', ticket: address });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{"data":0,"_dscbstub":"dscb1_x","_dsparts":[3]}')`));
  assert.equal(answer.ticket, 'relay:1');
  assert.ok(!JSON.stringify(doc.page('Object.getOwnPropertyNames(window)')).includes('0123456789abcdef'));
  doc.host.answerFetch = () => ({ status: 200, body: { more: true } });
  const first = JSON.parse(await doc.page(`window._keystoneHost.upload('relay:1', '?piece=0', new Blob([new Uint8Array([1, 2, 3])]))`));
  assert.deepEqual(first, { ok: true, answer: { more: true } });
  doc.host.answerFetch = () => ({ status: 200, body: { more: false } });
  const last = JSON.parse(await doc.page(`window._keystoneHost.upload('relay:1', '?piece=1', new Uint8Array(2))`));
  assert.deepEqual(last, { ok: true, answer: { more: false } });
  assert.deepEqual(doc.host.fetches.map((f) => [f.url, f.method]), [[address + '?piece=0', 'POST'], [address + '?piece=1', 'POST']]);
  assert.equal(Object.prototype.toString.call(doc.host.fetches[0].body), '[object ArrayBuffer]', 'never a Blob');
  // Native wanted no more: the ticket is spent, and a further piece posts nothing.
  const again = JSON.parse(await doc.page(`window._keystoneHost.upload('relay:1', '?piece=2', new Uint8Array(3))`));
  assert.equal(again.answer.code, 11);
  assert.equal(doc.host.fetches.length, 2);
});

test('where the host takes a piece through its web-process extension, the relay offers it and posts nothing', async () => {
  const doc = makeDocument();
  const address = 'keystone://transfer/' + 'ab'.repeat(16);
  doc.host.answerPost = () => JSON.stringify({ code: 0, data: '', ticket: address });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{"data":0,"_dscbstub":"dscb1_x","_dsparts":[3]}')`));
  // The extension asks the relay for the offered piece while the host holds the offer.
  let given = null;
  doc.host.answerUpload = (body) => {
    const name = body.split('\n')[1];
    given = doc.page(`(function () { var bytes = window._keystoneHost.outgoing(${JSON.stringify(name)}); return JSON.stringify([Object.prototype.toString.call(bytes), Array.from(bytes)]); })()`);
    return JSON.stringify({ ok: true, answer: { more: false } });
  };
  const view = 'new DataView(new Uint8Array([9, 1, 2, 3, 9]).buffer, 1, 3)';
  const reply = JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?piece=0', ${view})`));
  assert.deepEqual(reply, { ok: true, answer: { more: false } });
  assert.deepEqual(JSON.parse(given), ['[object Uint8Array]', [1, 2, 3]], 'exactly the view\'s bytes');
  assert.equal(doc.host.offers.length, 1);
  assert.ok(doc.host.offers[0].endsWith('\n' + address + '?piece=0'));
  assert.equal(doc.host.fetches.length, 0, 'nothing posted to the scheme');
  // Taken once: the offer is gone, and native wanted no more, so the ticket is spent.
  assert.equal(doc.page(`window._keystoneHost.outgoing(${JSON.stringify(doc.host.offers[0].split('\n')[0])})`), undefined);
  assert.equal(JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?piece=1', new Uint8Array(1))`)).answer.code, 11);
});

test('a prompt whose answer carries a ticket gets a handle too', () => {
  const doc = makeDocument();
  doc.host.answerPrompt = () => '{"code":0,"data":"","ticket":"keystone://transfer/secret"}';
  const answer = JSON.parse(doc.page(`window.prompt('_dsbridge=m', '{"data":0,"_dscbstub":"dscb2_x","_dsparts":[3]}')`));
  assert.equal(answer.ticket, 'relay:1');
});

test('a buffer or a view of one goes as it is; what only looks like one is read into a buffer', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => JSON.stringify({ code: 0, data: '', ticket: 'keystone://transfer/a' });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{}')`));
  const sources = ['new Uint8Array([1, 2])', 'new Uint8Array([1, 2]).buffer', '({ byteLength: 2, buffer: new ArrayBuffer(2) })'];
  for (const [piece, source] of sources.entries()) {
    assert.equal(JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?piece=${piece}', ${source})`)).ok, true, source);
  }
  const bodies = doc.host.fetches.map((f) => Object.prototype.toString.call(f.body));
  assert.deepEqual(bodies, ['[object Uint8Array]', '[object ArrayBuffer]', '[object ArrayBuffer]']);
  // What cannot be read as bytes at all is refused, coded, and nothing is posted.
  const refused = JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?piece=3', Object.setPrototypeOf({}, Uint8Array.prototype))`));
  assert.equal(refused.answer.code, 2);
  assert.equal(doc.host.fetches.length, 3);
});

test('a piece goes only with a piece number or an end: no other address is reached with a ticket', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => JSON.stringify({ code: 0, data: '', ticket: 'keystone://transfer/a' });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{}')`));
  for (const query of ['', '?piece=', '?piece=x', '/../x', '?piece=1&x=2', '?end=1234567890']) {
    const refused = JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', ${JSON.stringify(query)}, new Uint8Array(1))`));
    assert.equal(refused.ok, false, query);
  }
  assert.equal(doc.host.fetches.length, 0);
  doc.host.answerFetch = () => ({ status: 200, body: { more: false } });
  assert.equal(JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?end=0', new Uint8Array(0))`)).ok, true);
  assert.equal(doc.host.fetches[0].url, 'keystone://transfer/a?end=0');
});

test('a refused piece spends the ticket in the relay', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => JSON.stringify({ code: 0, data: '', ticket: 'keystone://transfer/a' });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('m', '{}')`));
  doc.host.answerFetch = () => ({ status: 413, body: { code: 10, message: 'too large' } });
  assert.deepEqual(JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?piece=0', new Uint8Array(1))`)), { ok: false, answer: { code: 10, message: 'too large' } });
  assert.equal(JSON.parse(await doc.page(`window._keystoneHost.upload('${answer.ticket}', '?piece=1', new Uint8Array(1))`)).answer.code, 11);
  assert.equal(doc.host.fetches.length, 1);
});

test('the relay posts through the isolated world, which hands each answer back to its own call', async () => {
  const doc = makeDocument();
  doc.host.answerPost = (text) => 'answer to ' + text.slice(CAPABILITY.length);
  const first = doc.page(`window._keystoneHost.send('a', '1')`);
  await turn();
  const second = doc.page(`window._keystoneHost.send('b', '2')`);
  assert.deepEqual([await first, await second], ['answer to a\n1', 'answer to b\n2']);
  assert.deepEqual(doc.host.posts, [CAPABILITY + 'a\n1', CAPABILITY + 'b\n2']);
});

test('a message longer than the hub would ever read is refused in the isolated world, unposted', async () => {
  const doc = makeDocument();
  const long = 'x'.repeat(1 << 16);
  assert.equal(await doc.page(`window._keystoneHost.send('a', '${long}')`), JSON.parse(JSON.stringify(require('./support/gtk-worlds').ISOLATED_SETTINGS.tooLong)));
  assert.deepEqual(doc.host.posts, []);
});

test('without an isolated world to take its messages, the relay answers that the frame has no channel', async () => {
  const doc = makeDocument({ isolated: { messageHandler: 'none' } });
  const answer = JSON.parse(await doc.page(`window._keystoneHost.send('a', '1')`));
  assert.equal(answer.error.code, 11);
  assert.deepEqual(doc.host.posts, []);
});

test('Swift\'s bytes asked for by address come from the web-process extension once the host has sent them', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => RELAY_SETTINGS.downloadSent;
  const bytes = doc.page(`window.downloaded = window._keystoneHost.download('keystone://transfer/abc', 3)`);
  await turn();
  const [capability, method, request, address] = doc.host.posts.at(-1).split('\n');
  assert.equal(capability + '\n' + method, CAPABILITY + RELAY_SETTINGS.downloadMethod);
  assert.match(request, /^[0-9a-z]+\.1$/, 'the document\'s name, then the count');
  assert.equal(address, 'keystone://transfer/abc');
  // Bytes for a request of another document are not taken for this one's.
  doc.page(`window._keystoneHost.received('other.1', new Uint8Array([1]))`);
  // The extension hands the bytes to the relay in the page's world.
  doc.page(`window._keystoneHost.received('${request}', new Uint8Array([7, 8, 9]))`);
  assert.deepEqual(Array.from(await bytes), [7, 8, 9]);
  // A request answered once is answered no more.
  doc.page(`window._keystoneHost.received('${request}', new Uint8Array([1]))`);
  assert.deepEqual(Array.from(await doc.page('window.downloaded')), [7, 8, 9]);
});

test('a host that sends nothing leaves the fetch to the page, and a refusal comes as its JSON', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => '';
  assert.equal(await doc.page(`window._keystoneHost.download('keystone://transfer/abc', 3)`), undefined);
  doc.host.answerPost = () => '{"code":11,"message":"no such transfer"}';
  const refused = await doc.page(`window._keystoneHost.download('keystone://transfer/abc', 3)`);
  assert.equal(refused.error, '{"code":11,"message":"no such transfer"}');
});

test('bytes the extension could not read fail the request, and a request nobody made takes nothing', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => RELAY_SETTINGS.downloadSent;
  const bytes = doc.page(`window._keystoneHost.download('keystone://transfer/abc', 3)`);
  await turn();
  const request = doc.host.posts.at(-1).split('\n')[2];
  doc.page(`window._keystoneHost.received('99', new Uint8Array([1]))`);
  doc.page(`window._keystoneHost.received('${request}', null)`);
  assert.equal((await bytes).error, '');
});

test('the extension\'s receiver cannot be replaced by the page', () => {
  const doc = makeDocument();
  assert.throws(() => doc.page(`'use strict'; window._keystoneHost.received = function () {}`));
});

test('the page\'s own buffer for a request is handed to the extension, and the bytes come back as a view of it', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => RELAY_SETTINGS.downloadSent;
  const bytes = doc.page(`window.into = new Uint8Array(8); window._keystoneHost.download('keystone://transfer/abc', 3, window.into)`);
  await turn();
  const request = doc.host.posts.at(-1).split('\n')[2];
  assert.equal(doc.page(`window._keystoneHost.target('${request}') === window.into`), true);
  // The extension writes into it and hands it back.
  doc.page(`window.into.set([4, 5, 6]); window._keystoneHost.received('${request}', window.into)`);
  const view = await bytes;
  assert.deepEqual(Array.from(view), [4, 5, 6]);
  assert.equal(doc.page(`window.into.buffer`), view.buffer);
});

test('a buffer too small for the bytes is not handed over', async () => {
  const doc = makeDocument();
  doc.host.answerPost = () => RELAY_SETTINGS.downloadSent;
  doc.page(`window._keystoneHost.download('keystone://transfer/abc', 9, new Uint8Array(8))`);
  await turn();
  const request = doc.host.posts.at(-1).split('\n')[2];
  assert.equal(doc.page(`window._keystoneHost.target('${request}')`), undefined);
});
