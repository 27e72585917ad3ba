// gtk-isolated.test.js — WebKitGTK's isolated-world script: it takes the relay's channel once, asks
// the host for a capability with the frame and origin the engine shows it, and reports only the top
// document's WebViewJavascriptBridge signals.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makeDocument, Comment, HTMLIFrameElement } = require('./support/gtk-worlds');

const TAG = '\u0001keystone:secret:top:https://app.example\n';

test('it takes the relay\'s channel, cancelling its introduction, and answers a request with a capability', () => {
  const doc = makeDocument({ nothing: true });
  doc.runIsolated();
  const node = new Comment();
  const taken = !doc.window.dispatchEvent(new (doc.pageWorld.FocusEvent)('keystone:channel', { relatedTarget: node, cancelable: true }));
  assert.ok(taken);
  node.dispatchEvent(new Event('keystone:capability'));
  assert.equal(node.data, '=' + 'c'.repeat(32));
  assert.deepEqual(doc.host.requests, [TAG + '\u0001capability']);
});

test('a second channel, or one that is not a comment node, is left alone', () => {
  const doc = makeDocument();  // the relay's channel is taken already
  const FocusEvent = doc.pageWorld.FocusEvent;
  const another = new Comment();
  assert.ok(doc.window.dispatchEvent(new FocusEvent('keystone:channel', { relatedTarget: another, cancelable: true })));
  another.dispatchEvent(new Event('keystone:capability'));
  assert.equal(another.data, '');
  const fresh = makeDocument({ nothing: true });
  fresh.runIsolated();
  assert.ok(fresh.window.dispatchEvent(new FocusEvent('keystone:channel', { relatedTarget: { data: '' }, cancelable: true })));
});

test('a subframe asks as a subframe, and a frame inside a frame as one', () => {
  const doc = makeDocument({ top: false });
  doc.page(`window.prompt('_dsbridge=m', '{}')`);
  assert.deepEqual(doc.host.requests, ['\u0001keystone:secret:sub:https://app.example\n\u0001capability']);
  const nested = makeDocument({ top: false, nested: 'https://ad.example', frameDocument: '7' });
  nested.page(`window.prompt('_dsbridge=m', '{}')`);
  assert.deepEqual(nested.host.requests, ['\u0001keystone:secret:nst#7:https://app.example https://ad.example\n\u0001capability']);
  // Where the engine names no ancestors, the parent's origin is left out.
  const unnamed = makeDocument({ top: false, nested: true, frameDocument: '7' });
  unnamed.page(`window.prompt('_dsbridge=m', '{}')`);
  assert.deepEqual(unnamed.host.requests, ['\u0001keystone:secret:nst#7:https://app.example\n\u0001capability']);
});

test('a subframe document the web-process extension numbered asks with its number; anything else is left out', () => {
  const numbered = makeDocument({ top: false, frameDocument: '9007199254740991' });
  numbered.page(`window.prompt('_dsbridge=m', '{}')`);
  assert.deepEqual(numbered.host.requests, ['\u0001keystone:secret:sub#9007199254740991:https://app.example\n\u0001capability']);
  for (const frameDocument of ['', '12a', '1'.repeat(21), 12, '-1', ':top']) {
    const doc = makeDocument({ top: false, frameDocument });
    doc.page(`window.prompt('_dsbridge=m', '{}')`);
    assert.deepEqual(doc.host.requests, ['\u0001keystone:secret:sub:https://app.example\n\u0001capability'], String(frameDocument));
  }
  // The main frame's document is the page's: it has no number.
  const top = makeDocument({ frameDocument: '5' });
  top.page(`window.prompt('_dsbridge=m', '{}')`);
  assert.deepEqual(top.host.requests, [TAG + '\u0001capability']);
});

test('a numbered subframe document says it is hidden for good, and nothing when it may come back', () => {
  const doc = makeDocument({ top: false, frameDocument: '7' });
  const hide = (persisted) => doc.window.dispatchEvent(Object.assign(new Event('pagehide'), { persisted }));
  hide(true);
  assert.deepEqual(doc.host.documentPosts, []);
  hide(false);
  assert.deepEqual(doc.host.documentPosts, ['\u0001keystone:secret:sub#7:https://app.example\nframe-end']);
  // The top document, and a subframe the extension did not number, say nothing of the kind.
  for (const options of [{}, { top: false }]) {
    const other = makeDocument(options);
    other.window.dispatchEvent(Object.assign(new Event('pagehide'), { persisted: false }));
    assert.ok(!other.host.documentPosts.some((text) => text.endsWith('frame-end')));
  }
});

test('without its message handler it says hello for the relay and gives no way to post', () => {
  const doc = makeDocument({ handlers: false, nothing: true });
  let hellos = 0;
  doc.window.addEventListener('keystone:hello', () => hellos++);
  doc.runIsolated();
  assert.equal(doc.post, null);
  assert.equal(hellos, 1);
});

test('what it posts carries its tag', () => {
  const doc = makeDocument();
  doc.post('start token');
  assert.deepEqual(doc.host.documentPosts, [TAG + 'start token']);
});

// WebViewJavascriptBridge's signals, as its dialect gives them (WVJBWire.signalPattern).
const WVJB_SIGNALS = '^(https|wvjbscheme)://__(wvjb_queue_message|bridge_loaded)__';

test('watching for a dialect\'s signals, it reports each signal of the top document once a turn', () => {
  const doc = makeDocument({ isolated: { signalPattern: WVJB_SIGNALS } });
  const frame = new HTMLIFrameElement('https://__wvjb_queue_message__');
  doc.mutate([{ type: 'childList', addedNodes: [frame, new HTMLIFrameElement('https://__WVJB_QUEUE_MESSAGE__')] }]);
  doc.mutate([
    { type: 'attributes', target: new HTMLIFrameElement('wvjbscheme://__bridge_loaded__') },
    { type: 'attributes', target: new HTMLIFrameElement('wvjbscheme://__bridge_loaded__') },
    { type: 'attributes', target: new HTMLIFrameElement('https://example.com/') },
    { type: 'childList', addedNodes: [{ src: 'https://__wvjb_queue_message__' }] },
  ]);
  assert.deepEqual(doc.host.documentPosts, [
    TAG + 'signal https://__wvjb_queue_message__', TAG + 'signal https://__WVJB_QUEUE_MESSAGE__', TAG + 'signal wvjbscheme://__bridge_loaded__',
  ]);
});

test('a subframe, or a host whose page dialect makes no signal, watches nothing', () => {
  for (const options of [{ top: false, isolated: { signalPattern: WVJB_SIGNALS } }, {}]) {
    const doc = makeDocument(options);
    assert.equal(doc.observers.length, 0);
  }
});
