// page-runtime-bytes.test.js — bytes as values in Keystone's runtime: every bytes value anywhere in
// a call's argument a part, announced by size and posted in pieces under one ticket; every Data in a
// result, handler argument or event a Uint8Array in its place; base64 where there is no byte
// channel, as native said when the runtime announced itself.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { MARKER, makePage, settle, plain } = require('./support/page.js');

async function readyPage(byteChannel = true) {
  const page = makePage({ byteChannel });
  await settle();
  assert.equal(page.native.runtime, 'keystone');
  return page;
}

const inPage = (page, source) => page.evaluate(source);

test('bytes are announced by their size, the value names them by index, and they go under the ticket native answers with', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const bytes = inPage(page, 'new Uint8Array([1, 2, 3, 250])');
  assert.equal(await page.window.dsBridge.invoke('count', bytes), 4);
  const call = page.native.prompts.find((p) => p.method === 'count');
  assert.equal(call.arg.data, 0);
  assert.deepEqual(call.arg._dsparts, [4]);
  assert.deepEqual([...page.native.posted], [1, 2, 3, 250]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('bytes anywhere in the argument are parts: nested, in arrays, beside other values', async () => {
  const page = await readyPage();
  let seen;
  page.native.async.attach = (data, reply, parts) => { seen = { data, parts: parts.map((p) => [...p]) }; reply.result('ok'); };
  const value = inPage(page, `({ id: 7, name: 'photo.png', photo: new Uint8Array([1, 2]),
    thumbs: [new Uint8Array([3]).buffer, new DataView(new Uint8Array([4, 5]).buffer)], none: new Uint8Array(0), when: null })`);
  assert.equal(await page.window.dsBridge.invoke('attach', value), 'ok');
  assert.deepEqual(seen.data, { id: 7, name: 'photo.png', photo: 0, thumbs: [1, 2], none: 3, when: null });
  assert.deepEqual(seen.parts, [[1, 2], [3], [4, 5], []]);
  assert.deepEqual(page.native.prompts.find((p) => p.method === 'attach').arg._dsparts, [2, 1, 2, 0]);
  assert.ok(value.photo instanceof page.window.Uint8Array, 'the page\'s own value is left as it was');
});

test('every kind of bytes goes as its bytes', async () => {
  const page = await readyPage();
  page.native.async.echoBytes = (bytes, reply) => reply.result([...bytes]);
  const kinds = {
    'an ArrayBuffer': 'new Uint8Array([7, 8]).buffer',
    'a view into a larger buffer': 'new Uint8Array([0, 7, 8, 0]).subarray(1, 3)',
    'a DataView': 'new DataView(new Uint8Array([7, 8]).buffer)',
    'a 16-bit array': 'new Uint16Array([0x0807])',
  };
  for (const [kind, source] of Object.entries(kinds)) {
    assert.deepEqual(plain(await page.window.dsBridge.invoke('echoBytes', inPage(page, source))), [7, 8], kind);
  }
  assert.deepEqual(plain(await page.window.dsBridge.invoke('echoBytes', new Blob([new Uint8Array([7, 8])]))), [7, 8], 'a Blob');
});

test('parts past 1 MiB go in pieces of 1 MiB, across parts, and progress is told after each and at the end', async () => {
  const page = await readyPage();
  page.native.async.sizes = (data, reply, parts) => reply.result(parts.map((p) => p.length));
  const progress = [];
  const big = inPage(page, `new Uint8Array(${(2 << 20) + 5}).map((_, i) => i % 251)`);
  const sizes = await page.window.dsBridge.invoke('sizes', { a: inPage(page, 'new Uint8Array(10)'), b: big }, { onProgress: (sent, total) => progress.push([sent, total]) });
  assert.deepEqual(plain(sizes), [10, (2 << 20) + 5]);
  assert.deepEqual(page.native.pieces, [1 << 20, 1 << 20, 15]);
  assert.equal(page.native.posted[10 + 300], 300 % 251, 'in order');
  const total = (2 << 20) + 15;
  assert.deepEqual(progress, [[1 << 20, total], [2 << 20, total], [total, total]]);
});

test('where the host carries pieces without copying them (pieceBytes), parts go in its larger pieces, never past 64 MiB', async () => {
  for (const [said, pieces] of [[3 << 20, [3 << 20, (1 << 20) + 25]], [1 << 10, [1 << 20, 3 << 20, 25]]]) {
    const page = makePage({ byteChannel: true, hostDownload: () => Promise.resolve(undefined), hostPieceBytes: said });
    await settle();
    page.native.async.sizes = (data, reply, parts) => reply.result(parts.map((p) => p.length));
    const sizes = await page.window.dsBridge.invoke('sizes', { a: inPage(page, 'new Uint8Array(10)'), b: inPage(page, `new Uint8Array(${(4 << 20) + 15})`) });
    assert.deepEqual(plain(sizes), [10, (4 << 20) + 15]);
    // A host that says less than the runtime's own pieces gets the runtime's.
    assert.deepEqual(page.native.pieces, said > 1 << 20 ? pieces : [1 << 20, 1 << 20, 1 << 20, 1 << 20, 25]);
  }
});

test('a Data result is fetched from the byte channel and resolves a Uint8Array', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  const made = await page.window.dsBridge.invoke('make', 300);
  assert.equal(made.constructor.name, 'Uint8Array');
  assert.equal(made.length, 300);
  assert.equal(made[299], 299 % 251);
  assert.deepEqual(page.native.prompts.find((p) => p.method === 'make').arg._dsparts, []);
  assert.deepEqual(page.native.downloads, {}, 'fetched once');
});

test('Data anywhere in a result is a Uint8Array in its place; a string that only looks like a marker stays a string', async () => {
  const page = await readyPage();
  page.native.async.bundle = (_, reply) => reply.parts(
    { name: 'b', parts: [MARKER + '0', MARKER + '1'], cover: MARKER + '2', note: MARKER + '9', other: 'keystone-part:x:0' },
    [new Uint8Array([1]), new Uint8Array([2, 3]), new Uint8Array(0)]);
  const bundle = await page.window.dsBridge.invoke('bundle');
  assert.deepEqual(plain(bundle.parts.map((p) => [...p])), [[1], [2, 3]]);
  assert.equal(bundle.cover.length, 0);
  assert.equal(bundle.parts[0].constructor.name, 'Uint8Array');
  assert.equal(bundle.note, MARKER + '9', 'an index no part has');
  assert.equal(bundle.other, 'keystone-part:x:0', 'another marker');
});

test('a stream keeps its order when a result with parts comes before one without', async () => {
  const page = await readyPage();
  page.native.async.mixed = (_, reply) => {
    reply.bytes(new Uint8Array([1, 2]), false);
    reply.result('after', true);
  };
  const seen = [];
  for await (const value of page.window.dsBridge.stream('mixed')) seen.push(typeof value === 'string' ? value : [...value]);
  assert.deepEqual(seen, [[1, 2], 'after']);
});

test('without a byte channel, as native said at the start, bytes go as base64 in their places in one call: nothing is asked twice', async () => {
  const page = await readyPage(false);
  let seen;
  page.native.async.attach = (data, reply) => { seen = data; reply.bytes(new Uint8Array([9, 8])); };
  const result = await page.window.dsBridge.invoke('attach', inPage(page, '({ id: 1, photo: new Uint8Array([1, 2, 3]), thumbs: [new Uint8Array(0)] })'));
  const calls = page.native.prompts.filter((p) => p.method === 'attach');
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0].arg._dsparts, []);
  assert.deepEqual(seen, { id: 1, photo: 'AQID', thumbs: [''] });
  assert.equal(result.constructor.name, 'Uint8Array', 'a Data result is a Uint8Array either way');
  assert.deepEqual([...result], [9, 8]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a call made before the runtime announced itself waits for native\'s word on the byte channel', async () => {
  const page = makePage({ byteChannel: true });
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const call = page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(3)'));
  assert.equal(page.native.prompts.filter((p) => p.method === 'count').length, 0, 'not sent yet');
  await settle();
  assert.equal(await call, 3);
  assert.deepEqual(page.native.prompts.find((p) => p.method === 'count').arg._dsparts, [3]);
});

test('a channel the page cannot reach withdraws the ticketed call and sends base64 from then on', async () => {
  const page = await readyPage();
  page.native.async.count = (value, reply) => reply.result(typeof value === 'string' ? 'base64' : 'bytes');
  page.native.fetch = () => Promise.reject(new TypeError('refused by the content security policy'));
  assert.equal(await page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(2)')), 'base64');
  assert.equal(page.native.cancels.length, 1);
  assert.equal(await page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(2)')), 'base64');
  assert.equal(page.native.cancels.length, 1, 'the next call goes as base64 at once');
  assert.deepEqual(page.liveCallbacks(), []);
});

test('dsBridge.call keeps dsbridge.js behaviour: no parts asked for', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.result('AAEC');
  await new Promise((resolve) => page.window.dsBridge.call('make', 3, resolve));
  assert.equal(page.native.prompts.find((p) => p.method === 'make').arg._dsparts, undefined);
});

/** A ReadableStream of `chunks`, noting whether it was cancelled. */
function streamOf(chunks) {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream({
    pull(controller) {
      if (state.pulled < chunks.length) controller.enqueue(chunks[state.pulled++]);
      else controller.close();
    },
    cancel() { state.cancelled = true; },
  });
  return { stream, state };
}

test('a ReadableStream goes in numbered pieces under its ticket, then its end', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const big = new Uint8Array((2 << 20) + 5).map((_, i) => i % 251);
  const { stream } = streamOf([new Uint8Array(0), new Uint8Array([1, 2, 3]), new Uint8Array(0), big]);
  const progress = [];
  const count = await page.window.dsBridge.invoke('count', stream, { onProgress: (sent, total) => progress.push([sent, total]) });
  assert.equal(count, 3 + big.length);
  const call = page.native.prompts.find((p) => p.method === 'count');
  assert.equal(call.arg._dsparts, 'stream');
  assert.equal(call.arg.data, 0);
  assert.deepEqual(page.native.pieces, [3, 1 << 20, 1 << 20, 5], 'a chunk over 1 MiB goes in pieces of 1 MiB; an empty one not at all');
  assert.equal(page.native.posted[3 + 300], 300 % 251, 'in order');
  assert.deepEqual(progress.map((p) => p[0]), [3, 3 + (1 << 20), 3 + (2 << 20), 3 + big.length, 3 + big.length]);
  assert.equal(progress[0][1], undefined, 'a stream has no known total until its end');
  assert.deepEqual(progress[4], [3 + big.length, 3 + big.length]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('when native stops reading, the page stops sending and cancels its stream', async () => {
  const page = await readyPage();
  page.native.stopAfter = 1;
  page.native.async.first = (bytes, reply) => reply.result(bytes.length);
  const { stream, state } = streamOf([new Uint8Array(4), new Uint8Array(5), new Uint8Array(6)]);
  assert.equal(await page.window.dsBridge.invoke('first', stream), 4);
  await settle();
  assert.deepEqual(page.native.pieces, [4]);
  assert.equal(state.cancelled, true);
  assert.ok(state.pulled < 3, 'the rest was never read');
});

test('a piece refused for its ticket (native stopped reading as it was posted) ends the sending, and the callback answers the call', async () => {
  const page = await readyPage();
  page.native.async.first = () => {};
  const { stream, state } = streamOf([new Uint8Array(4), new Uint8Array(5), new Uint8Array(6)]);
  // Native takes the first piece, its method returns, and the ticket it handed out is withdrawn.
  let stub = null;
  const realFetch = page.native.fetch.bind(page.native);
  page.native.fetch = (url, init) => {
    const ticket = page.native.tickets[0];
    const answered = realFetch(url, init);
    if (ticket && !stub) {
      stub = ticket.stub;
      page.native.tickets = [];
    }
    return answered;
  };
  const call = page.window.dsBridge.invoke('first', stream);
  for (let turn = 0; turn < 5 && !stub; turn++) await settle();
  assert.ok(stub, 'the first piece arrived');
  await settle();
  page.native.reply(stub).result(4);
  assert.equal(await call, 4);
  await settle();
  assert.equal(state.cancelled, true);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a chunk that is not bytes fails the call, and native is told', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const { stream } = streamOf(['text']);
  await assert.rejects(page.window.dsBridge.invoke('count', stream), (error) => error.code === 2);
  assert.equal(page.native.cancels.length, 1);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('without a byte channel, a stream is gathered and goes as base64, in one call', async () => {
  const page = await readyPage(false);
  page.native.async.count = (text, reply) => reply.result(Buffer.from(text, 'base64').length);
  const { stream } = streamOf([new Uint8Array(2), new Uint8Array(3)]);
  assert.equal(await page.window.dsBridge.invoke('count', stream), 5);
  assert.deepEqual(page.native.prompts.filter((p) => p.method === 'count').map((c) => c.arg._dsparts), [[]]);
});

test('onProgress hears a small transfer once at its end, and a result as it is fetched and at its end', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count));
  const sent = [];
  await page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(7)'), { onProgress: (moved, total) => sent.push([moved, total]) });
  assert.deepEqual(sent, [[7, 7]]);
  const origin = page.native.fetch.bind(page.native);
  page.native.fetch = (url, init) => origin(url, init).then((response) => {
    if (!response.arrayBuffer) return response;
    return response.arrayBuffer().then((buffer) => ({
      ok: true, status: 200,
      body: new ReadableStream({ start(c) { c.enqueue(new Uint8Array(buffer, 0, 4)); c.enqueue(new Uint8Array(buffer, 4)); c.close(); } }),
    }));
  });
  const fetched = [];
  const made = await page.window.dsBridge.invoke('make', 10, { onProgress: (moved, total) => fetched.push([moved, total]) });
  assert.equal(made.length, 10);
  assert.deepEqual(fetched, [[4, 10], [10, 10]]);
  const whole = [];
  page.native.fetch = origin;
  await page.window.dsBridge.invoke('make', 3, { onProgress: (moved, total) => whole.push([moved, total]) });
  assert.deepEqual(whole, [[3, 3]], 'a result read whole is told at its end');
});

test('a page handler Swift calls with Data gets a Uint8Array in its place, in order with the next call', async () => {
  const page = await readyPage();
  const seen = [];
  page.window.dsBridge.register('show', (photo, n) => { seen.push([photo.bytes.constructor.name, [...photo.bytes], photo.name, n]); return 'shown'; });
  page.window.dsBridge.register('after', () => { seen.push('after'); return 'after'; });
  page.native.downloads['keystone://transfer/arg1'] = new Uint8Array([4, 5, 6]);
  page.evaluate(`window._keystone.deliver(${JSON.stringify([
    { method: 'show', callbackId: 1, args: [{ name: 'p', bytes: MARKER + '0' }, 3], parts: { marker: MARKER, sizes: [3], ticket: 'keystone://transfer/arg1' } },
    { method: 'after', callbackId: 2, args: [] },
  ])})`);
  await settle();
  await settle();
  assert.deepEqual(seen, [['Uint8Array', [4, 5, 6], 'p', 3], 'after']);
  assert.deepEqual(page.native.returns.map((r) => r.data), ['shown', 'after']);
  assert.deepEqual(page.native.downloads, {}, 'fetched once');
});

test('an event whose value has parts reaches its listeners with them in place, in order', async () => {
  const page = await readyPage(false);
  const seen = [];
  page.window.dsBridge.on('photo', (value) => seen.push([...value.bytes]));
  page.window.dsBridge.on('plain', (value) => seen.push(value));
  page.evaluate(`window._keystone.deliver(${JSON.stringify([
    { event: 'photo', value: { bytes: MARKER + '0' }, parts: { marker: MARKER, sizes: [2], base64: ['AQI='] } },
    { event: 'plain', value: 'after' },
  ])})`);
  await settle();
  assert.deepEqual(seen, [[1, 2], 'after']);
});

test('a call of a handler the page lacks fetches nothing, and parts that cannot be fetched fail the call, which native hears its handler never saw', async () => {
  const page = await readyPage();
  page.native.downloads['keystone://transfer/arg1'] = new Uint8Array([1]);
  page.window.dsBridge.register('show', () => 'never');
  page.evaluate(`window._keystone.deliver(${JSON.stringify([
    { method: 'missing', callbackId: 1, args: [MARKER + '0'], parts: { marker: MARKER, sizes: [1], ticket: 'keystone://transfer/arg1' } },
    { method: 'show', callbackId: 2, args: [MARKER + '0'], parts: { marker: MARKER, sizes: [1], ticket: 'keystone://transfer/forged' } },
  ])})`);
  await settle();
  await settle();
  assert.ok(page.native.downloads['keystone://transfer/arg1'], 'never fetched');
  assert.deepEqual(page.native.returns.map((r) => r.error && r.error.code), [1, 11]);
  // Only the fetch that failed says so: a missing handler is the document's answer.
  assert.deepEqual(page.native.returns.map((r) => r.undelivered === true), [false, true]);
});

test('a host that hands Swift\'s bytes over itself is asked first, and the address is never fetched', async () => {
  const asked = [];
  const page = makePage({ byteChannel: true, hostDownload: (address, size) => {
    asked.push([address, size]);
    const bytes = page.native.downloads[address];
    delete page.native.downloads[address];
    return Promise.resolve(page.evaluate('new Uint8Array(' + JSON.stringify(Array.from(bytes)) + ')'));
  } });
  await settle();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  const fetched = [];
  const fetch = page.native.fetch.bind(page.native);
  page.native.fetch = (url, init) => { fetched.push(url); return fetch(url, init); };
  const made = await page.window.dsBridge.invoke('make', 300);
  assert.equal(made.length, 300);
  assert.equal(made[299], 299 % 251);
  assert.equal(asked.length, 1);
  assert.equal(asked[0][1], 300);
  assert.deepEqual(fetched, []);
});

test('where the host hands nothing over, the bytes are fetched from the address', async () => {
  const page = makePage({ byteChannel: true, hostDownload: () => Promise.resolve(undefined) });
  await settle();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  const made = await page.window.dsBridge.invoke('make', 10);
  assert.deepEqual(Array.from(made), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(page.native.downloads, {}, 'fetched');
});

test('a host\'s refusal fails the call with its code, and bytes of the wrong size fail it too', async () => {
  let outcome = { error: '{"code":11,"message":"no such transfer"}' };
  const page = makePage({ byteChannel: true, hostDownload: () => Promise.resolve(outcome) });
  await settle();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count));
  await assert.rejects(page.window.dsBridge.invoke('make', 4), (error) => error.code === 11);
  outcome = page.evaluate('new Uint8Array(3)');
  await assert.rejects(page.window.dsBridge.invoke('make', 4), (error) => error.code === 5);
});

test('whatever throws on the way to a result\'s bytes fails the call rather than leaving it waiting', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count));
  page.evaluate(`(function () {
    var RealString = String;
    String = function (value) { var text = RealString(value); if (text.indexOf('keystone:') === 0) throw new TypeError('caught'); return text; };
    Object.setPrototypeOf(String, RealString);
  })()`);
  await assert.rejects(page.window.dsBridge.invoke('make', 4), /caught/);
});

test('a result\'s bytes go into the page\'s own buffer when they fit, each part a view of its place', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  page.native.async.pair = (_, reply) => reply.parts({ a: MARKER + '0', b: MARKER + '1' }, [new Uint8Array([1, 2]), new Uint8Array([3, 4, 5])]);
  const into = page.evaluate('new Uint8Array(16)');
  const made = await page.window.dsBridge.invoke('make', 10, { into });
  assert.equal(made.buffer, into.buffer);
  assert.deepEqual(Array.from(into.subarray(0, 10)), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const pair = await page.window.dsBridge.invoke('pair', 0, { into });
  assert.deepEqual([Array.from(pair.a), Array.from(pair.b)], [[1, 2], [3, 4, 5]]);
  assert.equal(pair.a.buffer, into.buffer);
  assert.equal(pair.b.byteOffset - into.byteOffset, 2, 'each part a view of its place');
  // Too large for the buffer: a new array.
  const other = await page.window.dsBridge.invoke('make', 20, { into });
  assert.notEqual(other.buffer, into.buffer);
  assert.equal(other.length, 20);
});

test('a buffer of any kind is taken as its bytes, and one that only looks like a buffer is refused before the call goes', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  const buffer = page.evaluate('new ArrayBuffer(8)');
  const made = await page.window.dsBridge.invoke('make', 4, { into: buffer });
  assert.equal(made.buffer, buffer);
  const words = page.evaluate('new Uint16Array(4)');
  assert.equal((await page.window.dsBridge.invoke('make', 8, { into: words })).buffer, words.buffer);
  const sent = page.native.prompts.length;
  for (const fake of ['new Proxy(new Uint8Array(16), {})', '({ length: 16, set() {}, subarray() {} })', 'Object.create(Uint8Array.prototype)', '"16 bytes"']) {
    await assert.rejects(page.window.dsBridge.invoke('make', 4, { into: page.evaluate(fake) }), (error) => error.code === 2, fake);
  }
  assert.equal(page.native.prompts.length, sent, 'none of them was sent');
  assert.deepEqual(page.liveCallbacks(), []);
});

test('without a byte channel the base64 parts go into the page\'s buffer the same way', async () => {
  const page = await readyPage(false);
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  const into = page.evaluate('new Uint8Array(8)');
  const made = await page.window.dsBridge.invoke('make', 5, { into });
  assert.equal(made.buffer, into.buffer);
  assert.deepEqual(Array.from(made), [0, 1, 2, 3, 4]);
});
