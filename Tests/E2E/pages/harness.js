// harness.js — a minimal test runner inside a real page: logs "ok - name" / "not ok - name: why",
// then "e2e: N passed, N failed", then closes the page (which ends keystone-demo --page).
var tests = [];
function test(name, body) { tests.push({ name: name, body: body }); }
/** A test of what only `host` has (`gtk`: WebKitGTKHost, `webkit`: WKWebViewHost): through the
 *  other host it is reported skipped, saying `why` (Tests/WebKitShim/README.md lists them). */
function testOn(host, why, name, body) { tests.push({ name: name, body: body, host: host, why: why }); }
/** Calls `binary.make` as a hostile script of the page would to keep its result's ticket: the
 *  ticket's address is caught as the runtime turns it into a string, before it asks for the bytes
 *  (through the scheme or the host's web-process extension), and the runtime is stopped there, so
 *  the ticket stays unspent. Resolves to the address, or null. */
async function catchTicket(count) {
  var RealString = window.String, caught = null;
  function catching(value) {
    var text = RealString(value);
    if (caught === null && text.indexOf('keystone://transfer/') === 0) {
      caught = text;
      throw new TypeError('caught');
    }
    return text;
  }
  Object.setPrototypeOf(catching, RealString);
  window.String = catching;
  try {
    await dsBridge.invoke('binary.make', count);
  } catch (e) {
    // The runtime could not ask for its result: the call fails, and the ticket is left unspent.
  } finally {
    window.String = RealString;
  }
  return caught;
}
/** The window of a new iframe at `src`, once it has loaded. */
function frameAt(src) {
  return new Promise(function (resolve) {
    var element = document.createElement('iframe');
    element.onload = function () { resolve(element.contentWindow); };
    element.src = src;
    document.body.appendChild(element);
  });
}
/** Adds an iframe at `src` and resolves to the first message any frame posts this window after. */
function messageFromFrame(src) {
  return new Promise(function (resolve) {
    window.addEventListener('message', function listener(event) {
      window.removeEventListener('message', listener);
      resolve(event.data);
    });
    var element = document.createElement('iframe');
    element.src = src;
    document.body.appendChild(element);
  });
}
/** Posts `message` to `frame` and resolves to the first message that comes back. */
function askFrame(frame, message) {
  return new Promise(function (resolve) {
    window.addEventListener('message', function listener(event) {
      window.removeEventListener('message', listener);
      resolve(event.data);
    });
    frame.postMessage(message, '*');
  });
}
/** Which host serves the page (the demo's `host.name`); `gtk` where the page cannot ask. */
function hostName() {
  if (hostName.value === undefined) {
    try { hostName.value = String(dsBridge.call('host.name') || 'gtk'); } catch (e) { hostName.value = 'gtk'; }
  }
  return hostName.value;
}
/** Whether the page's host serves the byte scheme `keystone:`: WebKitGTK with its web-process
 *  extension moves bytes through the extension alone, and registers no scheme a page could post to. */
function servesByteScheme() {
  return !(hostName() === 'gtk' && dsBridge.call('host.webProcessExtension') === true);
}
function show(value) {
  var text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  return text.length > 120 ? text.slice(0, 120) + '… (' + text.length + ' chars)' : text;
}
function assertEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error((what ? what + ': ' : '') + 'expected ' + show(expected) + ', got ' + show(actual));
  }
}
function assertTrue(condition, what) { if (!condition) throw new Error(what || 'expected true'); }
/** Resolves once `list` holds `count` entries and they equal `expected`; fails with what arrived
 *  if they have not after 5 s (a guard against a hang, not a speed bar). */
function arrivesInOrder(list, expected) {
  return new Promise(function (resolve, reject) {
    var waited = 0;
    (function check() {
      if (list.length >= expected.length) { try { assertEqual(list, expected); resolve(); } catch (e) { reject(e); } }
      else if ((waited += 10) > 5000) reject(new Error('only ' + JSON.stringify(list)));
      else setTimeout(check, 10);
    })();
  });
}
/** Resolves once `condition()` holds, checking every 10 ms; fails saying `what` never happened
 *  after `guardMs` (5 s by default: a guard against a hang, not a speed bar). */
function until(condition, what, guardMs) {
  return new Promise(function (resolve, reject) {
    var waited = 0;
    (function check() {
      if (condition()) resolve();
      else if ((waited += 10) > (guardMs || 5000)) reject(new Error('never happened: ' + what));
      else setTimeout(check, 10);
    })();
  });
}
/** Resolves once the demo's `sequence` notes (taken with the synchronous `sequence.take`) are
 *  `expected`: what a call made without a callback leaves as its only sign. */
function notesBecome(expected) {
  var seen = [];
  return until(function () {
    seen = seen.concat(dsBridge.call('sequence.take'));
    return seen.length >= expected.length;
  }, 'the notes ' + JSON.stringify(expected)).then(function () { assertEqual(seen, expected); });
}
/** Replaces every built-in a page could replace to watch the strings its bridge handles — calls
 *  and applies, string methods, JSON, promise callbacks, the message handler's `postMessage` — with
 *  one that records each string it is given or returns. `stop()` puts the built-ins back and
 *  returns what was recorded. */
function watchStrings() {
  var seen = [], restore = [], realApply = Reflect.apply;
  function record(values) {
    for (var i = 0; i < values.length; i++) if (typeof values[i] === 'string') seen.push(values[i]);
  }
  function hook(owner, name, watch) {
    var original = owner[name];
    restore.push(function () { owner[name] = original; });
    owner[name] = function () {
      record([this]);
      record(arguments);
      var result = realApply(original, this, watch ? watch(arguments) : arguments);
      record([result]);
      return result;
    };
  }
  hook(Function.prototype, 'call');
  hook(Function.prototype, 'apply');
  ['slice', 'substr', 'substring', 'indexOf', 'concat', 'split', 'charAt', 'startsWith', 'replace'].forEach(function (name) {
    hook(String.prototype, name);
  });
  hook(JSON, 'parse');
  hook(JSON, 'stringify');
  hook(Promise.prototype, 'then', function (args) {
    var onFulfilled = args[0];
    return [typeof onFulfilled === 'function' ? function (value) { record([value]); return onFulfilled(value); } : onFulfilled, args[1]];
  });
  var handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.keystone;
  if (handler) hook(Object.getPrototypeOf(handler), 'postMessage');
  return { stop: function () { restore.forEach(function (undo) { undo(); }); return seen; } };
}
function runTests() {
  var passed = 0, failed = 0, index = 0;
  function next() {
    if (index >= tests.length) {
      console.log('e2e: ' + passed + ' passed, ' + failed + ' failed');
      window.close();
      return;
    }
    var t = tests[index++];
    if (t.host && t.host !== hostName()) {
      console.log('# skipped on ' + hostName() + ': ' + t.name + ' (' + t.why + ')');
      setTimeout(next, 0);
      return;
    }
    var result;
    try { result = Promise.resolve(t.body()); } catch (e) { result = Promise.reject(e); }
    result.then(function () { passed++; console.log('ok - ' + t.name); },
                function (e) { failed++; console.log('not ok - ' + t.name + ': ' + (e && e.message || e)); })
      .then(next);
  }
  setTimeout(next, 0);
}
