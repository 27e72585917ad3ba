// usage.ts — a TypeScript page written against the demo's generated declarations
// (keystone-demo --emit-types), compiled beside them and keystone-bridge.d.ts by the test command.
// Each misuse is marked `@ts-expect-error`: the check fails if one is NOT caught.
import type { DSBridge, WorkerBridge } from './keystone-bridge';
import type { Ticks } from './demo-interfaces';

declare const bridge: DSBridge;

async function typedPage(): Promise<void> {
  // Each kind of method, its argument and result types checked.
  const sum: number = await bridge.invoke('math.add', [1, 2]);
  const slow: number = await bridge.invoke('math.slowAdd', [sum, 3]);
  const ticks: Ticks = { count: 3, intervalMs: 10 };
  for await (const tick of bridge.stream('stream.ticks', ticks)) console.log(tick + slow);
  const bytes: Uint8Array = await bridge.invoke('binary.make', 10);
  const counted: number = await bridge.invoke('binary.count', new Blob([bytes]));
  const uploaded: number = await bridge.invoke('binary.upload', new Blob([bytes]).stream(), { onProgress: (moved) => console.log(moved) });
  for await (const chunk of bridge.stream('binary.download', 1 << 20)) console.log(chunk.byteLength + counted + uploaded);
  const running: number = await bridge.invoke('native.runningCalls');
  // Bytes beside metadata, both ways: any bytes in, a Uint8Array in each place out.
  const described = await bridge.invoke('binary.describe', { name: 'photo.png', bytes: new Blob([bytes]) });
  const first: number = described.first;
  const bundle = await bridge.invoke('binary.bundle', 2);
  const part: Uint8Array = bundle.parts[0];
  console.log(first, part.byteLength);

  // The typed client: each method by its path.
  const product: number = await bridge.native.math.basic.ops.mul([6, 7]);
  for await (const tick of bridge.native.stream.ticks(ticks)) console.log(tick + product);
  const made: Uint8Array = await bridge.native.binary.make(3);
  console.log(made.byteLength);
  // @ts-expect-error the client checks arguments too
  await bridge.native.math.add('one and two');
  // @ts-expect-error and knows every path
  await bridge.native.math.divide([1, 2]);

  // A durable call: an asynchronous method's, never aborted.
  const kept: number = await bridge.invoke('math.slowAdd', [1, 2], { durable: 'sum-1' });
  const keptByPath: number = await bridge.native.math.slowAdd([1, 2], { durable: 'sum-1' });
  // Its outcome is kept as JSON: each Data in it a base64 string, typed so.
  const keptBytes: string = await bridge.invoke('binary.make', 3, { durable: 'bytes-1' });
  // @ts-expect-error a durable call's outcome holds no Uint8Array
  const notBytes: Uint8Array = await bridge.native.binary.make(3, { durable: 'bytes-2' });
  console.log(kept, keptByPath, keptBytes, notBytes);
  // @ts-expect-error a multi-response method cannot be called durably (native refuses it, code 3)
  await bridge.invoke('stream.countdown', 3, { durable: 'count-1' });
  // @ts-expect-error a durable call cannot be aborted
  await bridge.invoke('math.slowAdd', [1, 2], { durable: 'sum-2', signal: new AbortController().signal });

  // @ts-expect-error a wrong argument type
  await bridge.invoke('math.add', 'one and two');
  // @ts-expect-error a method the app does not have
  await bridge.invoke('math.divide', [1, 2]);
  // @ts-expect-error a result used as what it is not
  const wrong: string = await bridge.invoke('math.add', [1, 2]);
  // @ts-expect-error bytes where the method takes a number
  await bridge.invoke('binary.make', new Uint8Array(3));
  // @ts-expect-error a stream is a whole argument, never a value's member
  await bridge.invoke('binary.describe', { name: 'x', bytes: new Blob([]).stream() });
  // @ts-expect-error each Data the page receives is a Uint8Array, not text
  const text: string = (await bridge.invoke('binary.bundle', 1)).parts[0];
  console.log(running, wrong, text);
}
void typedPage;

// The page handlers the demo's Swift calls, typed by what it passes and reads.
bridge.register('page.greet', (name) => 'hello, ' + name.toUpperCase());
bridge.registerAsyn('durable.photo', (photo, respond) => respond([photo.byteLength, respond.durable ?? null]));
// @ts-expect-error a handler the demo's Swift does not call
bridge.register('page.farewell', () => 'bye');
// @ts-expect-error Swift passes the greeting a string
bridge.register('page.greet', (name: number) => String(name));
// @ts-expect-error and reads a string back
bridge.register('page.greet', () => 42);

// A worker started with dsBridge.worker, and its own bridge.
const worker: Worker = bridge.worker('photos.js', { type: 'module' });
declare const workerBridge: WorkerBridge;
async function inWorker(signal: AbortSignal) {
  const thumbnail: Uint8Array = await workerBridge.invoke<Uint8Array>('photos.thumbnail', new Uint8Array(4), { signal, durable: 'photo-1' });
  for await (const progress of workerBridge.stream<number>('photos.upload', thumbnail, { signal })) console.log(progress);
  // @ts-expect-error a worker's calls take a signal and a durable key, never a callback
  await workerBridge.invoke('math.add', [1, 2], () => {});
  console.log(worker);
}
void inWorker;
