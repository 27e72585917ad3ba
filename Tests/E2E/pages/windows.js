// windows.js — several web views on one Keystone (keystone-demo --windows N): page 1 conducts, and
// every other page does what it is told through events, and reports back by broadcasting. Page 1's
// results are the run's; the others' console lines are prefixed with their page by the demo.
//
// Pages 3 and up, when the address names another origin (`?other=ORIGIN`), move to it first: the
// four-window run has two pages of each origin.
(function () {
  var me = dsBridge.call('pages.whoami');
  var other = new URLSearchParams(location.search).get('other');
  var mine = location.origin;
  if (me.page >= 3 && other && mine !== other) {
    location.replace(other + location.pathname + location.search);
    return;
  }
  var notes = [];
  dsBridge.register('who', function () { return me.page; });
  dsBridge.on('note', function (value) { notes.push(value); });
  function broadcast(name, value) { dsBridge.call('pages.broadcast', { name: name, value: value }); }

  /** `count` calls at once, each with its answer checked as this page's: an echo and `pages.whoami`,
   *  bytes that say which page sent them echoed back as bytes, and a stream; and a call the page
   *  cancels. */
  async function callMany(count) {
    var answers = await Promise.all(Array.from({ length: count }, function (_, index) {
      var bytes = new Uint8Array(64 + index).fill(me.page);
      return Promise.all([
        dsBridge.invoke('echoAsync', { page: me.page, index: index }),
        dsBridge.invoke('pages.whoami'),
        dsBridge.invoke('binary.echo', bytes),
        index % 10 === 0 ? gather(dsBridge.stream('stream.countdown', 3)) : Promise.resolve([3, 2, 1, 0]),
      ]);
    }));
    var cancelled = new AbortController();
    var aborted = dsBridge.invoke('math.slowAdd', [1, 2], { signal: cancelled.signal }).then(function () { return false; }, function (e) { return e.code === 6; });
    cancelled.abort();
    return (await aborted) && answers.every(function (answer, index) {
      var echoed = answer[2];
      return answer[0].page === me.page && answer[0].index === index && answer[1].page === me.page &&
        echoed instanceof Uint8Array && echoed.length === 64 + index && echoed.every(function (b) { return b === me.page; }) &&
        JSON.stringify(answer[3]) === '[3,2,1,0]';
    });
  }
  async function gather(stream) {
    var values = [];
    for await (var value of stream) values.push(value);
    return values;
  }

  if (me.page !== 1) {
    // A follower: says hello once loaded (again after every reload), and does what it is told.
    dsBridge.on('command', async function (command) {
      if (command.page !== me.page) return;
      switch (command.action) {
        case 'calls': broadcast('done', { page: me.page, action: 'calls', ok: await callMany(50) }); break;
        case 'report': broadcast('done', { page: me.page, action: 'report', notes: notes, origin: location.origin }); break;
        case 'reload': location.reload(); break;
        case 'crash': dsBridge.call('host.terminate'); break;
        case 'durable':
          // A durable call that takes a second, and the document goes before it ends.
          dsBridge.invoke('durable.increment', command.key, { durable: command.key }).catch(function () {});
          setTimeout(function () { location.reload(); }, 100);
          break;
        case 'recover':
          var recovered = await dsBridge.recovered();
          broadcast('done', { page: me.page, action: 'recover', keys: recovered.map(function (call) { return call.key; }) });
          break;
      }
    });
    broadcast('hello', { page: me.page, origin: location.origin });
    return;
  }

  // The conductor.
  var hellos = [], done = [];
  dsBridge.on('hello', function (value) { hellos.push(value); });
  dsBridge.on('done', function (value) { done.push(value); });
  var count = dsBridge.call('pages.count');
  // A page coming back from a reload or a crash may take longer than `until`'s usual guard.
  function waitFor(condition, what) { return until(condition, what, 60000); }
  function command(page, action, extra) {
    dsBridge.call('pages.emit', { name: 'command', value: Object.assign({ page: page, action: action }, extra || {}) });
  }
  function helloCount(page) { return hellos.filter(function (hello) { return hello.page === page; }).length; }
  async function answerOf(page, action) {
    await waitFor(function () { return done.some(function (d) { return d.page === page && d.action === action; }); }, 'page ' + page + ' did ' + action);
    var index = done.findIndex(function (d) { return d.page === page && d.action === action; });
    return done.splice(index, 1)[0];
  }
  var followers = Array.from({ length: count - 1 }, function (_, index) { return index + 2; });
  function originOf(page) { return hellos.filter(function (hello) { return hello.page === page; }).pop().origin; }

  test('the demo opened the pages the run asked for, and each says hello as itself', async function () {
    assertEqual(me, { page: 1, origin: mine });
    await waitFor(function () { return followers.every(function (page) { return helloCount(page) === 1; }); }, 'every page said hello');
  });

  test('every page\'s calls, bytes, streams and cancels are answered to it, though their call ids and callbacks collide', async function () {
    followers.forEach(function (page) { command(page, 'calls'); });
    assertTrue(await callMany(50), 'page 1\'s answers were its own');
    for (var page of followers) assertEqual((await answerOf(page, 'calls')).ok, true, 'page ' + page + '\'s answers');
  });

  test('Swift calls every page\'s handler at once, and each answer comes from its page', async function () {
    var answers = await dsBridge.invoke('pages.callEach', { method: 'who', args: [] });
    var expected = {};
    [1].concat(followers).forEach(function (page) { expected[page] = { value: page }; });
    assertEqual(answers, expected);
  });

  test('an event reaches one page, every page, or one origin\'s pages', async function () {
    assertEqual(dsBridge.call('pages.emit', { name: 'note', value: 'one', page: 2 }), [2]);
    assertEqual(dsBridge.call('pages.broadcast', { name: 'note', value: 'all' }), count);
    var ofMine = [1].concat(followers.filter(function (page) { return originOf(page) === mine; }));
    assertEqual(dsBridge.call('pages.emit', { name: 'note', value: 'mine', origin: mine }), ofMine);
    for (var page of followers) {
      command(page, 'report');
      var report = await answerOf(page, 'report');
      var expected = (page === 2 ? ['one'] : []).concat(['all']).concat(originOf(page) === mine ? ['mine'] : []);
      assertEqual(report.notes, expected, 'page ' + page + '\'s events');
    }
    await waitFor(function () { return notes.length === 2; }, 'page 1\'s events');
    assertEqual(notes, ['all', 'mine']);
  });

  test('one page reloading and then crashing while the others keep calling', async function () {
    var calling = followers.slice(1).map(function (page) { command(page, 'calls'); return page; });
    var mineCalls = (async function () {
      var ok = true;
      while (helloCount(2) < 3) {
        ok = (await callMany(5)) && ok;
        // A turn of the event loop between rounds: calls answered in their reply, one after another
        // without end, would leave the engine no turn to deliver the events this page waits for.
        await new Promise(function (resolve) { setTimeout(resolve, 0); });
      }
      return ok;
    })();
    command(2, 'reload');
    await waitFor(function () { return helloCount(2) === 2; }, 'page 2 came back after its reload');
    command(2, 'crash');
    await waitFor(function () { return helloCount(2) === 3; }, 'page 2 came back after its web process ended');
    assertTrue(await mineCalls, 'page 1\'s calls were answered throughout');
    for (var page of calling) assertEqual((await answerOf(page, 'calls')).ok, true, 'page ' + page + '\'s calls');
    assertEqual(dsBridge.call('host.terminations'), 1);
  });

  test('a durable call whose page went is recovered by another page of its origin, and by no other origin', async function () {
    var key = 'windows-' + Math.random().toString(36).slice(2);
    command(2, 'durable', { key: key });
    await waitFor(function () { return helloCount(2) === 4; }, 'page 2 went before its durable call ended, and came back');
    for (var page of followers.filter(function (page) { return originOf(page) !== mine; })) {
      command(page, 'recover');
      assertEqual((await answerOf(page, 'recover')).keys.indexOf(key), -1, 'page ' + page + ' (another origin) recovered nothing of it');
    }
    var recovered = (await dsBridge.recovered()).filter(function (call) { return call.key === key; });
    assertEqual(recovered, [{ key: key, method: 'durable.increment', value: 1 }]);
    assertEqual(dsBridge.call('durable.count', key), 1);
  });

  runTests();
})();
