// usage.ts — a page whose side Swift declares (`PageDeclarations`): the augmentation below is what
// `Keystone.typeScriptDeclarations(page:)` writes for it (InterfaceSchemaTests checks the text), and
// `tsc` checks that the page's handlers and listeners are typed by it. Each misuse is marked
// `@ts-expect-error`: the check fails if one is NOT caught.
import type { DSBridge } from '../../../../Sources/Keystone/Resources/keystone-bridge';

export interface Draft {
  title: string;
  cover?: Uint8Array | null;
}

export interface Progress {
  done: number;
  of: number;
}

declare module '../../../../Sources/Keystone/Resources/keystone-bridge' {
  interface KeystonePageHandlers {
    "drafts.save": { input: [Draft, boolean]; output: boolean };
    "photos.check": { input: [Uint8Array]; output: Bytes };
  }

  interface KeystoneEvents {
    "sync.progress": Progress;
  }
}

declare const bridge: DSBridge;

bridge.register('drafts.save', (draft, overwrite) => draft.title.length > 0 && overwrite);
bridge.registerAsyn('photos.check', (photo, respond) => respond(photo.subarray(0, 4)));
bridge.on('sync.progress', (progress) => console.log(progress.done / progress.of));

// @ts-expect-error a handler Swift does not call
bridge.register('drafts.delete', () => true);
// @ts-expect-error an answer of the wrong type
bridge.register('drafts.save', () => 'saved');
// @ts-expect-error an argument read as what it is not
bridge.register('drafts.save', (draft: string) => draft.length > 0);
// @ts-expect-error an answer of the wrong type through the responder
bridge.registerAsyn('photos.check', (photo, respond) => respond(photo.byteLength));
// @ts-expect-error an event Swift does not emit
bridge.on('sync.done', () => {});
// @ts-expect-error a value read as what it is not
bridge.on('sync.progress', (progress: string) => console.log(progress));
