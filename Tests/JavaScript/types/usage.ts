// usage.ts — the page API as a TypeScript page uses it; `tsc --noEmit` checks keystone-bridge.d.ts.
import type { DSBridge, KeystoneError, NativeError, WebViewJavascriptBridge } from '../../../Sources/Keystone/Resources/keystone-bridge';

declare const bridge: DSBridge;

// dsbridge.js 3.1.4, unchanged
const sum: number = bridge.call<number>('math.add', [1, 2]);
bridge.call('math.slowAdd', [1, 2], (result: number, error?: NativeError) => {
  if (error) console.error(error.code, error.message);
  else console.log(result + sum);
});
bridge.call('session.refresh', () => {});
bridge.register('page.title', () => document.title);
bridge.register('page.math', { double: (n: number) => n * 2 });
bridge.registerAsyn('page.ticks', (count: number, respond: (value: number, complete?: boolean) => void) => {
  for (let i = 0; i < count; i++) respond(i, i === count - 1);
});
const known: boolean = bridge.hasNativeMethod('math.add', 'syn');
bridge.disableJavascriptDialogBlock();

// Keystone's extensions
async function extensions(): Promise<void> {
  const controller = new AbortController();
  const total = await bridge.invoke<number>('math.slowAdd', [2, 3], { signal: controller.signal });
  for await (const n of bridge.stream<number>('stream.countdown', 3)) console.log(n + total);
  const file = new Blob([new Uint8Array([1, 2, 3])]);
  const uploaded = await bridge.invoke<number>('files.upload', file.stream(), {
    onProgress: (moved: number, size: number | undefined) => console.log(moved, size ?? file.size),
  });
  console.log(uploaded);
  try {
    await bridge.invoke('errors.fail', 'why');
  } catch (e) {
    const error = e as KeystoneError;
    console.log(error.code, error.message, error.name === 'AbortError', known);
  }
  const listener = (value: { user: string }) => console.log(value.user);
  bridge.on('login', listener);
  bridge.off('login', listener);
  bridge.off('login');
  window.dsBridge.call('x');
  controller.abort();
}
void extensions;

// The app's policy: authorisation and declaration.
async function authorise(): Promise<string[]> {
  const granted: boolean = await bridge.authorize({ signature: 'abc' });
  return granted ? bridge.declare(['account.signIn']) : [];
}

// WebViewJavascriptBridge pages, unchanged.
function setupWebViewJavascriptBridge(callback: (bridge: WebViewJavascriptBridge) => void): void {
  if (window.WebViewJavascriptBridge) { callback(window.WebViewJavascriptBridge); return; }
  if (window.WVJBCallbacks) { window.WVJBCallbacks.push(callback); return; }
  window.WVJBCallbacks = [callback];
}
setupWebViewJavascriptBridge((wvjb) => {
  wvjb.registerHandler('testJavascriptHandler', (data, respond) => respond({ got: data }));
  wvjb.callHandler('testObjcCallback', { foo: 'bar' }, (response: unknown) => console.log(response));
  wvjb.callHandler('ping', () => undefined);
  const later: Promise<number> = wvjb.callHandler<number>('math.add', [1, 2]);
  void later;
});
