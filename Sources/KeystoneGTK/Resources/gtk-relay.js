// gtk-relay.js — WebKitGTK's page-world relay: the page's bridge prompts and messages go to the host
// with this document's capability. Evaluates to a function the host calls at document start with its
// settings (see WebKitGTKHost.relayScript): every value in `config` is data, never code.
(function (config) {
  var apply = Reflect.apply, NewEvent = Event, NewFocusEvent = FocusEvent, NewPromise = Promise, toText = String;
  var bind = Function.prototype.bind, slice = String.prototype.slice, wellFormed = String.prototype.toWellFormed;
  var later = apply(bind, queueMicrotask, [window]), then = apply(bind, Function.prototype.call, [Promise.prototype.then]);
  var dispatch = EventTarget.prototype.dispatchEvent, listen = EventTarget.prototype.addEventListener;
  var text = Object.getOwnPropertyDescriptor(CharacterData.prototype, 'data');
  var prompt = window.prompt;
  var marker = config.capabilityPrefix, forgotten = config.forgottenCapability;
  var batchHeader = config.batchMethod + '\n', consoleHeader = config.consoleMethod + '\n', downloadHeader = config.downloadMethod + '\n';
  var uploadHeader = config.uploadMethod + '\n';
  var capabilityLength = config.capabilityLength, batchLength = config.batchLength, messagesPerPost = config.messagesPerPost;
  var unavailable = '{"code":-1,"data":"","error":{"code":11,"message":"this frame has no channel to the host"}}';
  var spent = '{"ok":false,"answer":{"code":11,"message":"the transfer has no valid ticket"}}';
  var unreadable = '{"ok":false,"answer":{"code":2,"message":"the bytes cannot be read"}}';
  var parse = JSON.parse, stringify = JSON.stringify, indexOf = String.prototype.indexOf;
  var fetchBytes = typeof window.fetch === 'function' && apply(bind, window.fetch, [window]);
  var NewResponse = typeof Response === 'function' && Response;
  var readBuffer = NewResponse && Response.prototype.arrayBuffer, readText = NewResponse && Response.prototype.text;
  var isOk = NewResponse && Object.getOwnPropertyDescriptor(Response.prototype, 'ok').get;
  var charAt = String.prototype.charCodeAt;
  var isView = ArrayBuffer.isView, bufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;

  // Tickets to send a call's bytes stay here. WebKitGTK's UI process cannot read a request body
  // that holds a Blob (it crashes resolving it), so no page script may post to the byte channel
  // itself: an answer that carries a ticket's address reaches the page with a handle instead, and
  // `upload(handle, query, bytes)` posts each piece, always as a buffer of its own, until native
  // wants no more.
  var uploads = Object.create(null), lastUpload = 0;
  function keepTicket(answer) {
    if (typeof answer !== 'string' || apply(indexOf, answer, ['"ticket"']) < 0) return answer;
    var parsed;
    try { parsed = parse(answer); } catch (e) { return answer; }
    if (!parsed || typeof parsed.ticket !== 'string') return answer;
    var handle = 'relay:' + ++lastUpload;
    uploads[handle] = parsed.ticket;
    parsed.ticket = handle;
    return stringify(parsed);
  }
  // `?piece=N` or `?end=N`, N at most 9 digits: the only queries a piece goes with.
  function isPieceQuery(query) {
    var prefix = apply(slice, query, [0, 7]) === '?piece=' ? 7 : apply(slice, query, [0, 5]) === '?end=' ? 5 : 0;
    if (!prefix || query.length === prefix || query.length > prefix + 9) return false;
    for (var k = prefix; k < query.length; k++) {
      var code = apply(charAt, query, [k]);
      if (code < 48 || code > 57) return false;
    }
    return true;
  }
  function upload(handle, query, bytes) {
    var name = toText(handle), address = uploads[name];
    query = toText(query);
    if (!address || !fetchBytes) return NewPromise.resolve(spent);
    if (!isPieceQuery(query)) return NewPromise.resolve(unreadable);
    // A buffer or a view of one (told by the engine's own checks, which a page cannot fool) goes
    // as it is; anything else is read into a buffer first.
    var body;
    try {
      body = apply(isView, ArrayBuffer, [bytes]) || isBuffer(bytes) ? NewPromise.resolve(bytes) : apply(readBuffer, new NewResponse(bytes), []);
    } catch (e) {
      return NewPromise.resolve(unreadable);
    }
    return then(body, function (buffer) {
      // Where the host runs its web-process extension, the extension hands the piece over in
      // shared memory once the host has admitted it; otherwise it is posted to the address.
      return then(handOver(address + query, buffer), function (handed) {
        if (handed) return settleUpload(name, handed.ok, handed.answer);
        return then(fetchBytes(address + query, { method: 'POST', body: buffer }), function (response) {
          var ok = apply(isOk, response, []);
          return then(apply(readText, response, []), function (text) {
            var answer;
            try { answer = parse(text); } catch (e) { answer = null; }
            return settleUpload(name, ok, answer);
          });
        });
      });
    });
  }
  function settleUpload(name, ok, answer) {
    // Native wants no more: the ticket is spent.
    if (!ok || !answer || answer.more !== true) delete uploads[name];
    return stringify({ ok: ok, answer: answer });
  }
  // A piece offered to the host under a request of this document's (`outgoing` gives the
  // extension its bytes as a Uint8Array): `{ok, answer}` once the host took it through the
  // extension, or `undefined` when it takes none that way.
  var outgoingPieces = Object.create(null), lastOutgoing = 0, NewUint8Array = Uint8Array;
  var viewBuffer = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'buffer').get;
  var viewOffset = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'byteOffset').get;
  var viewLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'byteLength').get;
  var dataViewBuffer = Object.getOwnPropertyDescriptor(DataView.prototype, 'buffer').get;
  var dataViewOffset = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteOffset').get;
  var dataViewLength = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get;
  function asBytes(buffer) {
    if (!apply(isView, ArrayBuffer, [buffer])) return new NewUint8Array(buffer);
    var typed;
    try { typed = [apply(viewBuffer, buffer, []), apply(viewOffset, buffer, []), apply(viewLength, buffer, [])]; } catch (e) {
      typed = [apply(dataViewBuffer, buffer, []), apply(dataViewOffset, buffer, []), apply(dataViewLength, buffer, [])];
    }
    return new NewUint8Array(typed[0], typed[1], typed[2]);
  }
  function handOver(address, buffer) {
    if (!attest()) return NewPromise.resolve(undefined);
    var id = documentName + '.' + ++lastOutgoing;
    outgoingPieces[id] = asBytes(buffer);
    return then(post(capability + uploadHeader + id + '\n' + address), function (answer) {
      delete outgoingPieces[id];
      if (!answer) return undefined;
      var reply;
      try { reply = parse(toText(answer)); } catch (e) { return { ok: false, answer: null }; }
      return reply && typeof reply === 'object' ? reply : { ok: false, answer: null };
    });
  }
  function outgoing(id) {
    return outgoingPieces[toText(id)];
  }
  // Where the host's web-process extension carries the bytes, a call's parts go in larger pieces:
  // each costs a trip between the processes, not a copy of a request's body.
  function pieceBytes() {
    return config.extensionPieceBytes;
  }
  function isBuffer(value) {
    try {
      apply(bufferLength, value, []);
      return true;
    } catch (e) {
      return false;
    }
  }

  // The channel to the isolated world: a detached comment node only the two hold, introduced once,
  // on `window`, as the relatedTarget of a cancellable event the isolated world cancels to take it.
  var channel = document.createComment('');
  var introduced = false;
  function introduce() {
    if (introduced) return;
    introduced = !apply(dispatch, window, [new NewFocusEvent('keystone:channel', { relatedTarget: channel, cancelable: true })]);
  }
  apply(listen, window, ['keystone:hello', introduce]);
  introduce();

  // Messages go to the host through the isolated world, whose script message handler only that
  // world can reach: no page script posts a value the engine would rebuild in the app. Each goes on
  // the channel as its number, a new line and its text; the isolated world takes it (cancelling the
  // event), posts the text, and hands the answer back the same way. Resolves to `undefined` when no
  // isolated world took it.
  var replies = Object.create(null), lastPost = 0;
  function post(body) {
    return new NewPromise(function (resolve) {
      var id = toText(++lastPost);
      replies[id] = resolve;
      apply(text.set, channel, [id + '\n' + body]);
      var taken = !apply(dispatch, channel, [new NewEvent('keystone:post', { cancelable: true })]);
      apply(text.set, channel, ['']);
      if (!taken) {
        delete replies[id];
        resolve(undefined);
      }
    });
  }
  apply(listen, channel, ['keystone:answer', function () {
    var reply = apply(text.get, channel, []);
    var newline = apply(indexOf, reply, ['\n']);
    var id = apply(slice, reply, [0, newline]), resolve = replies[id];
    if (newline < 0 || !resolve) return;
    delete replies[id];
    resolve(apply(slice, reply, [newline + 1]));
  }]);

  // The capability, asked of the isolated world on the first call: it answers `=` and the capability.
  var capability = '';
  function attest() {
    if (capability || !introduced) return capability;
    apply(text.set, channel, ['']);
    apply(dispatch, channel, [new NewEvent('keystone:capability')]);
    var answer = apply(text.get, channel, []);
    if (answer.length === capabilityLength + 1 && answer[0] === '=') capability = marker + apply(slice, answer, [1]) + '\n';
    return capability;
  }

  // A bridge prompt, framed with its lengths and the capability; asked again once if the host has
  // forgotten the capability. It first posts what waits, so it never overtakes an earlier call.
  window.prompt = function (message, defaultText) {
    if (typeof message === 'string' && message.indexOf('_dsbridge=') === 0) {
      flush();
      for (var attempt = 0; attempt < 2 && attest(); attempt++) {
        var lengths = message.length + ',' + (defaultText === undefined ? 0 : toText(defaultText).length) + '\n';
        var answer = apply(prompt, window, [capability + lengths + message, defaultText]);
        if (answer !== forgotten) return keepTicket(answer);
        capability = '';
      }
    }
    return apply(prompt, window, arguments);
  };

  // Messages of one turn go together: each as its length, `:` and the message.
  var waiting = [], waitingLength = 0;
  function flush() {
    if (!waiting.length) return;
    var batch = waiting;
    waiting = [];
    waitingLength = 0;
    deliver(batch, 0);
  }
  function deliver(batch, attempt) {
    if (!attest()) return settle(batch, 0, unavailable);
    var body = batch[0][0];
    if (batch.length > 1) {
      body = batchHeader;
      for (var k = 0; k < batch.length; k++) body += batch[k][0].length + ':' + batch[k][0];
    }
    then(post(capability + body), function (answer) {
      if (answer === undefined) return settle(batch, 0, unavailable);
      if (answer !== forgotten) return answers(batch, toText(answer));
      capability = '';
      if (attempt) return settle(batch, 0, unavailable);
      deliver(batch, 1);
    });
  }
  function settle(batch, from, answer) {
    for (var k = from; k < batch.length; k++) batch[k][1](answer);
  }
  // The answer to a batch: each answer framed the same way, in order; when it ends early (the host
  // refused the rest), the rest get its last answer.
  function answers(batch, reply) {
    if (batch.length === 1) return batch[0][1](reply);
    for (var k = 0, at = 0; k < batch.length; k++) {
      var colon = reply.indexOf(':', at), length = colon > at ? Number(reply.slice(at, colon)) : NaN;
      if (!(length >= 0) || colon + 1 + length > reply.length) return settle(batch, k, k ? last : '');
      var last = reply.substr(colon + 1, length);
      batch[k][1](last);
      at = colon + 1 + length;
    }
  }
  function send(method, argumentText) {
    return new NewPromise(function (resolve) {
      var message = toText(method) + '\n' + toText(argumentText);
      // The engine hands a message over only up to a lone surrogate: written as U+FFFD (the
      // same length), the call still fails on its own and every other keeps its place.
      if (wellFormed) message = apply(wellFormed, message, []);
      if (waitingLength + message.length > batchLength || waiting.length >= messagesPerPost) flush();
      if (!waiting.length) later(flush);
      waiting[waiting.length] = [message, function (answer) { resolve(keepTicket(answer)); }];
      waitingLength += message.length;
    });
  }
  // Swift's bytes, asked for by their ticket's address: where the host runs its web-process
  // extension it sends them there (answering `downloadSent`), and the extension hands them to
  // `received` as a new Uint8Array, or in the page's own buffer `into` when they fit (the extension
  // asks for it with `target`), or null when they could not be read; a refusal comes as its JSON.
  // Resolves to the bytes, `{error}` for a refusal, or `undefined` when the host sends nothing, and
  // the page fetches the address itself. Each request is named for this document too, so bytes
  // sent for an earlier document's request that arrive after a navigation are never taken for
  // this one's.
  var downloads = Object.create(null), lastDownload = 0, subarray = Uint8Array.prototype.subarray;
  var documentName = apply(Number.prototype.toString, Math.floor(Math.random() * 0x7fffffff), [36]) + apply(Number.prototype.toString, Math.floor(Math.random() * 0x7fffffff), [36]);
  function download(address, size, into) {
    return new NewPromise(function (resolve) {
      if (!attest()) return resolve(undefined);
      var id = documentName + '.' + ++lastDownload;
      var target = into instanceof Uint8Array && into.length >= size ? into : null;
      downloads[id] = { resolve: resolve, size: size, into: target };
      then(post(capability + downloadHeader + id + '\n' + toText(address)), function (answer) {
        if (answer === config.downloadSent || !downloads[id]) return;
        delete downloads[id];
        resolve(answer ? { error: toText(answer) } : undefined);
      });
    });
  }
  function target(id) {
    var waiting = downloads[toText(id)];
    return waiting && waiting.into ? waiting.into : undefined;
  }
  function received(id, bytes) {
    var waiting = downloads[toText(id)];
    if (!waiting) return;
    delete downloads[toText(id)];
    if (bytes !== null && bytes === waiting.into) return waiting.resolve(apply(subarray, bytes, [0, waiting.size]));
    waiting.resolve(bytes instanceof Uint8Array ? bytes : { error: '' });
  }
  // Named as the web-process extension's wire says (`config.extension`), for the members it calls.
  var relay = { send: send, upload: upload, download: download };
  relay[config.extension.target] = target;
  relay[config.extension.received] = received;
  relay[config.extension.outgoing] = outgoing;
  relay.pieceBytes = pieceBytes;
  Object.defineProperty(window, config.extension.relay, { value: Object.freeze(relay) });

  // With relaysConsole, each `console` line goes to the host with the document's capability.
  if (config.relaysConsole) ['log', 'info', 'warn', 'error'].forEach(function (level) {
    var original = console[level], join = Array.prototype.join, map = Array.prototype.map, stringify = JSON.stringify;
    console[level] = function () {
      var line = apply(join, apply(map, arguments, [function (a) {
        if (typeof a === 'string') return a;
        try { return apply(stringify, JSON, [a]); } catch (e) { return toText(a); }
      }]), [' ']);
      if (attest()) post(capability + consoleHeader + level + '\n' + line);
      return apply(original, console, arguments);
    };
  });
})
