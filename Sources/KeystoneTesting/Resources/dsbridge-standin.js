// dsbridge-standin.js — a stand-in for a page's own copy of dsbridge.js 3.1.4, written from the
// protocol description (PROTOCOL.md), for tests of pages that bring their own dsbridge.js: same
// globals, same guard, same wire texts. A test that has the real script runs it instead.
(function (window) {
  var standin = {
    call: function (method, args, cb) {
      if (typeof args === 'function') { cb = args; args = {}; }
      var arg = { data: args === undefined ? null : args };
      if (typeof cb === 'function') {
        var name = 'dscb' + window.dscb++;
        window[name] = cb;
        arg._dscbstub = name;
      }
      var ret = '';
      if (window._dswk || navigator.userAgent.indexOf('_dsbridge') !== -1) {
        ret = prompt('_dsbridge=' + method, JSON.stringify(arg));
      }
      return JSON.parse(ret || '{}').data;
    },
    register: function (name, fun, asyn) {
      var table = asyn ? window._dsaf : window._dsf;
      if (!window._dsInit) {
        window._dsInit = true;
        setTimeout(function () { standin.call('_dsb.dsinit'); }, 0);
      }
      if (typeof fun === 'object') table._obs[name] = fun; else table[name] = fun;
    },
    registerAsyn: function (name, fun) { this.register(name, fun, true); },
    hasNativeMethod: function (name, type) { return this.call('_dsb.hasNativeMethod', { name: name, type: type || 'all' }); },
    isStandin: true
  };
  window.dsbridgeStandin = standin; // what a page that bundles dsbridge.js holds on to
  if (window._dsf) return;
  window._dsf = { _obs: {} };
  window._dsaf = { _obs: {} };
  window.dscb = 0;
  window.dsBridge = standin;
  window.close = function () { standin.call('_dsb.closePage'); };
  window._handleMessageFromNative = function (info) {
    var args = JSON.parse(info.data);
    var ret = { id: info.callbackId, complete: true };
    var f = window._dsf[info.method];
    if (f) {
      ret.data = f.apply(window._dsf, args);
      standin.call('_dsb.returnValue', ret);
      return;
    }
    var respond = function (data, complete) {
      ret.data = data;
      ret.complete = complete !== false;
      standin.call('_dsb.returnValue', ret);
    };
    var af = window._dsaf[info.method];
    if (af) {
      args.push(respond);
      af.apply(window._dsaf, args);
      return;
    }
    // A namespaced handler: the namespace is everything before the last dot.
    var dot = info.method.lastIndexOf('.');
    if (dot < 0) return;
    var namespace = info.method.slice(0, dot);
    var name = info.method.slice(dot + 1);
    var ob = window._dsf._obs[namespace];
    if (ob && typeof ob[name] === 'function') {
      ret.data = ob[name].apply(ob, args);
      standin.call('_dsb.returnValue', ret);
      return;
    }
    ob = window._dsaf._obs[namespace];
    if (ob && typeof ob[name] === 'function') {
      args.push(respond);
      ob[name].apply(ob, args);
    }
  };
  // As 3.1.4 answers it: a dotted name is looked up as a method of a registered namespace object,
  // and a namespace the page lacks answers `undefined`, so `_dsb.returnValue` carries no `data`.
  standin.register('_hasJavascriptMethod', function (method) {
    var name = method.split('.');
    if (name.length < 2) return !!(window._dsf[name] || window._dsaf[name]);
    var last = name.pop();
    var namespace = name.join('.');
    var ob = window._dsf._obs[namespace] || window._dsaf._obs[namespace];
    return ob && !!ob[last];
  });
})(window);
