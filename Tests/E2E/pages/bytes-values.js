// bytes-values.js — Data anywhere in a value, both ways, through Keystone's runtime: loaded by
// bytes-values.html (the host's byte channel) and bytes-values-base64.html (--no-byte-channel, so
// every bytes path's fallback runs). The page sees the same values either way.
function pattern(count, start) {
  var bytes = new Uint8Array(count);
  for (var i = 0; i < count; i++) bytes[i] = ((start || 0) + i) % 251;
  return bytes;
}
function exact(bytes, count) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== count) return false;
  for (var i = 0; i < count; i++) if (bytes[i] !== i % 251) return false;
  return true;
}
/** What `binary.describe` answers for `count` bytes of the pattern named `name`. */
function described(name, count) {
  return { name: name, count: count, first: count ? 0 : -1, last: count ? (count - 1) % 251 : -1 };
}
var kinds = {
  'ArrayBuffer': function (b) { return b.buffer; },
  'Uint8Array': function (b) { return b; },
  'a view into a larger buffer': function (b) { var big = new Uint8Array(b.length + 7); big.set(b, 3); return big.subarray(3, 3 + b.length); },
  'Int8Array': function (b) { return new Int8Array(b.buffer); },
  'DataView': function (b) { return new DataView(b.buffer); },
  'Blob': function (b) { return new Blob([b], { type: 'image/png' }); },
  'File': function (b) { return new File([b], 'photo.jpg', { type: 'image/jpeg' }); },
};
var expectsChannel = !/no-byte-channel/.test(document.title);

test('the host serves a byte channel, or not, as the page was served', async function () {
  assertEqual(await dsBridge.invoke('native.servesBytes'), expectsChannel);
});
Object.keys(kinds).forEach(function (kind) {
  [0, 1, 251, 4099].forEach(function (size) {
    test('a ' + kind + ' of ' + size + ' bytes beside a name goes to Swift byte-exact', async function () {
      assertEqual(await dsBridge.invoke('binary.describe', { name: kind, bytes: kinds[kind](pattern(size)) }), described(kind, size));
    });
  });
});
test('bytes nested deeper, beside other values, in arrays and objects', async function () {
  var value = { name: 'photo.png', bytes: pattern(70001), thumbs: [pattern(3)], note: { id: 7 } };
  assertEqual(await dsBridge.invoke('binary.describe', value), described('photo.png', 70001));
  assertTrue(value.bytes instanceof Uint8Array, 'the page\'s own value is left as it was');
});
test('a method that takes bytes at the top still takes them', async function () {
  assertEqual(await dsBridge.invoke('binary.count', pattern(4099)), 4099);
  assertEqual(await dsBridge.invoke('binary.upload', new Blob([pattern(5000)]).stream()), 5000);
});
[0, 1, 3].forEach(function (count) {
  test('a result with ' + count + ' parts holds a Uint8Array in each place, byte-exact', async function () {
    var bundle = await dsBridge.invoke('binary.bundle', count);
    assertEqual(bundle.parts.length, count);
    for (var i = 0; i < count; i++) assertTrue(exact(bundle.parts[i], i * 1000), 'part ' + i);
  });
});
test('stream items with Data each hold a Uint8Array in place, in order', async function () {
  var seen = [];
  for await (var item of dsBridge.stream('binary.namedStream', 4)) {
    assertTrue(exact(item.bytes, seen.length * 1000), item.name);
    seen.push(item.name);
  }
  assertEqual(seen, ['part 0', 'part 1', 'part 2', 'part 3']);
});
test('Swift calls a page handler with Data nested in its arguments', async function () {
  dsBridge.register('bytes.shown', function (named, bundle) {
    return [named.name, exact(named.bytes, 5), bundle.parts.map(function (part, i) { return exact(part, i * 1000); })];
  });
  assertEqual(await dsBridge.invoke('binary.callPageBundle', { handler: 'bytes.shown', count: 5 }), ['bundle', true, [true, true, true, true, true]]);
});
test('progress is told in steps as the page\'s bytes move, and at the end', async function () {
  var steps = [], size = (3 << 20) + 5;
  var answer = await dsBridge.invoke('binary.describe', { name: 'big', bytes: pattern(size) }, { onProgress: function (moved, total) { steps.push([moved, total]); } });
  assertEqual(answer, described('big', size));
  assertEqual(steps[steps.length - 1], [size, size]);
  // Through WebKitGTK's web-process extension a part goes in one piece: its progress is its end.
  assertTrue(steps.length >= (expectsChannel && servesByteScheme() ? 4 : 1), 'steps: ' + steps.length);
});
test('progress is told as a result\'s bytes move, and at the end', async function () {
  var steps = [], size = 3 << 20;
  var made = await dsBridge.invoke('binary.make', size, { onProgress: function (moved, total) { steps.push([moved, total]); } });
  assertEqual(made.length, size);
  // One step for each chunk the engine hands the page (how many is the engine's), then the end.
  assertEqual(steps[steps.length - 1], [size, size]);
  for (var i = 1; i < steps.length; i++) assertTrue(steps[i][0] > steps[i - 1][0] && steps[i][1] === size, 'steps grow: ' + JSON.stringify(steps[i]));
});
test('nothing is left open', async function () {
  assertEqual(await dsBridge.invoke('native.openTransfers'), 0);
});
runTests();
