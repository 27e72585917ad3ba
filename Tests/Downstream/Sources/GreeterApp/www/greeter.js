// greeter.js — the Greeter page: it greets through Swift, signs the guestbook twice, and answers
// Swift's questions about what it did.
dsBridge.register('page.greeting', function () { return document.getElementById('greeting').textContent; });
dsBridge.register('page.origin', function () { return location.origin; });
document.getElementById('greeting').textContent = dsBridge.call('greeter.hello', 'Ada');
var signed = dsBridge.invoke('greeter.sign', 'Ada').then(function () { return dsBridge.invoke('greeter.sign', 'Grace'); });
dsBridge.registerAsyn('page.signed', function (done) { signed.then(function (count) { done(count); }); });
