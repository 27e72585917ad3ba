// gtk-worlds.js — a document with WebKitGTK's two script worlds, for the host's relay and isolated
// scripts: one shared DOM (window events, nodes), each world's script run in a vm context of its
// own, and a scripted host behind `prompt` and the two script message handlers.
'use strict';
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');

const RESOURCES = path.join(__dirname, '..', '..', '..', 'Sources', 'KeystoneGTK', 'Resources');
const RELAY = fs.readFileSync(path.join(RESOURCES, 'gtk-relay.js'), 'utf8');
const ISOLATED = fs.readFileSync(path.join(RESOURCES, 'gtk-isolated.js'), 'utf8');

/** The relay's settings as WebKitGTKHost writes them (four messages a post, no console), from the
 *  fixture Swift writes (HostScriptFixtureTests). */
const RELAY_SETTINGS = require('../fixtures/host-scripts.json').relay;
const ISOLATED_SETTINGS = {
  tagPrefix: '\u0001keystone:secret:', capabilityRequest: '\u0001capability', documentChannel: 'keystoneDocument',
  documentGlobal: RELAY_SETTINGS.extension.documentGlobal,
  signalPrefix: 'signal ', messageHandler: 'keystone', frameEnded: 'frame-end', maximumPostLength: 1 << 16,
  batchAt: '\u0001keystone-capability:'.length + 33, batchHeader: '\u0001batch\n',
  tooLong: '{"code":-1,"data":"","error":{"code":12,"message":"too long"}}',
  tooLongBatch: '62:{"code":-1,"data":"","error":{"code":12,"message":"too long"}}',
};
const ORIGIN = 'https://app.example';

class CharacterData extends EventTarget {
  #data = '';
  get data() { return this.#data; }
  set data(value) { this.#data = String(value); }
}
class Comment extends CharacterData {}
class FocusEvent extends Event {
  constructor(type, init = {}) {
    super(type, init);
    this.relatedTarget = init.relatedTarget ?? null;
  }
}
class HTMLIFrameElement { constructor(src) { this.src = src; } }

/** The host as the scripts see it: issues capabilities to the isolated world's tagged prompts,
 *  answers bridge prompts and messages, and records everything it hears. */
class FakeHost {
  constructor() {
    this.capability = 'c'.repeat(32);
    this.prompts = [];       // { text, defaultText } of every prompt that is not a capability request
    this.requests = [];      // the isolated world's capability requests, tag included
    this.posts = [];         // the relay's messages, as the isolated world posts them
    this.documentPosts = []; // isolated-world messages
    this.answerPrompt = () => '{"code":0,"data":"sync"}';
    this.answerPost = (text) => text;
    this.offers = [];        // pieces offered to the extension: the request's name, a new line, the address
    this.answerUpload = () => '';
    this.fetches = [];       // { url, method, body } of every request on the byte channel
    this.answerFetch = () => ({ status: 200, body: { more: true } });
  }

  /** The byte channel: records each request, answering as `answerFetch(size)` says. */
  fetch(url, init = {}) {
    this.fetches.push({ url, method: init.method || 'GET', body: init.body });
    const size = init.body && init.body.byteLength;
    const { status, body } = this.answerFetch(size);
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  }
}

/** A document: `relayFirst` says which world's script runs first (both run at document start);
 *  `skipIsolated` runs the relay alone, and `nothing` runs neither. `frameDocument` is the number
 *  Keystone's web-process extension gives the document, as its isolated world's global holds it. */
function makeDocument({ relay = {}, isolated = {}, top = true, nested = false, handlers = true, relayFirst = false, skipIsolated = false, nothing = false, observer, frameDocument } = {}) {
  const host = new FakeHost();
  const window = new EventTarget();
  window.top = top ? window : {};
  // A subframe's parent: the top document's window, or a frame's inside it (`nested`).
  window.parent = top ? window : nested ? {} : window.top;
  // What the engine says of the frame's ancestors: its parent's origin first.
  if (nested) window.location = { ancestorOrigins: typeof nested === 'string' ? [nested] : [] };
  if (frameDocument !== undefined) window[ISOLATED_SETTINGS.documentGlobal] = frameDocument;
  const observers = [];
  window.fetch = (url, init) => host.fetch(url, init);
  window.prompt = function (text, defaultText) {
    if (typeof text === 'string' && text.startsWith(ISOLATED_SETTINGS.tagPrefix)) {
      host.requests.push(text);
      return host.capability;
    }
    host.prompts.push({ text, defaultText });
    return host.answerPrompt(text, defaultText);
  };
  if (handlers) {
    window.webkit = { messageHandlers: {
      keystone: { postMessage: (text) => {
        // A piece the relay offers the extension (`uploadMethod`): answered `""` (no extension)
        // unless the test says otherwise.
        const body = text.slice(text.indexOf('\n') + 1);
        if (body.startsWith(RELAY_SETTINGS.uploadMethod + '\n')) {
          host.offers.push(body.slice(RELAY_SETTINGS.uploadMethod.length + 1));
          return Promise.resolve(host.answerUpload(body));
        }
        host.posts.push(text);
        return Promise.resolve(host.answerPost(text));
      } },
      keystoneDocument: { postMessage: (text) => { host.documentPosts.push(text); } },
    } };
  }
  const document = { createComment: () => new Comment() };
  const shared = { window, document, EventTarget, Event, FocusEvent, CustomEvent, CharacterData, Comment, HTMLIFrameElement, queueMicrotask, console, Response, Blob };
  if (observer !== false) {
    shared.MutationObserver = class {
      constructor(callback) { this.callback = callback; observers.push(this); }
      observe() {}
    };
  }
  const pageWorld = vm.createContext({ ...shared, console: { log() {}, info() {}, warn() {}, error() {} } });
  const isolatedWorld = vm.createContext({ ...shared });
  const doc = {
    host, window, pageWorld, observers,
    /** The isolated world's `post`, or null. */
    post: undefined,
    runRelay: () => vm.runInContext(RELAY, pageWorld)({ ...RELAY_SETTINGS, ...relay }),
    // As the host composes it: with a channel to the host, HostScripts.documentReporting then
    // listens for the document's token and says hello.
    runIsolated: () => {
      doc.post = vm.runInContext(ISOLATED, isolatedWorld)({ ...ISOLATED_SETTINGS, ...isolated }, ORIGIN);
      if (doc.post) window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
    },
    /** Runs `source` as a page script. */
    page: (source) => vm.runInContext(source, pageWorld),
    /** Mutations of the top document, as a MutationObserver hears them. */
    mutate: (records) => observers.forEach((o) => o.callback(records)),
  };
  if (nothing) return doc;
  if (skipIsolated) doc.runRelay();
  else if (relayFirst) { doc.runRelay(); doc.runIsolated(); } else { doc.runIsolated(); doc.runRelay(); }
  return doc;
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

module.exports = { makeDocument, turn, RELAY_SETTINGS, ISOLATED_SETTINGS, ORIGIN, Comment, HTMLIFrameElement };
